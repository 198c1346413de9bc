ALTER TABLE "markets" ADD COLUMN "price_feed" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "settlement_price" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "settlement_round_id" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "settlement_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "price_samples" ADD COLUMN "symbol" text DEFAULT 'BNB' NOT NULL;--> statement-breakpoint
CREATE INDEX "markets_open_bet_type_created_idx" ON "markets" USING btree ("bet_type","created_at","id") WHERE status in ('active', 'settling');--> statement-breakpoint
CREATE INDEX "markets_settled_bet_type_updated_idx" ON "markets" USING btree ("bet_type","updated_at","id") WHERE status = 'settled';--> statement-breakpoint
CREATE INDEX "markets_price_settling_deadline_idx" ON "markets" USING btree ("deadline","id") WHERE status = 'settling' and bet_type = 'price_prediction';--> statement-breakpoint
CREATE INDEX "price_samples_symbol_sampled_idx" ON "price_samples" USING btree ("symbol","sampled_at");