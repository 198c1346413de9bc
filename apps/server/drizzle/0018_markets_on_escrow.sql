-- Issue 29, decision 026 (markets on the escrow): a market names its escrow id and key, a bet and a
-- flag's bond their escrow stake; a payout list settles a round or a Predictions market (with the
-- delay its settle asks: a judged market's review window); a relayed stake is a round bet, a market
-- bet or a flag's bond. Every column is null on rows made before the escrow.
ALTER TABLE "escrow_relay_stakes" ALTER COLUMN "oracle_bet_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "stake_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD COLUMN "bet_id" integer;--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD COLUMN "flag_id" integer;--> statement-breakpoint
ALTER TABLE "payout_lists" ADD COLUMN "prediction_market_id" integer;--> statement-breakpoint
ALTER TABLE "payout_lists" ADD COLUMN "payout_delay_s" integer;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "escrow_id" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "escrow_key" text;--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "stake_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD CONSTRAINT "escrow_relay_stakes_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD CONSTRAINT "escrow_relay_stakes_flag_id_market_flags_id_fk" FOREIGN KEY ("flag_id") REFERENCES "public"."market_flags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lists" ADD CONSTRAINT "payout_lists_prediction_market_id_markets_id_fk" FOREIGN KEY ("prediction_market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bets_stake_unique" ON "bets" USING btree ("stake_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lists_prediction_market_unique" ON "payout_lists" USING btree ("prediction_market_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_escrow_id_unique" ON "markets" USING btree ("escrow_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_escrow_key_unique" ON "markets" USING btree ("escrow_key");--> statement-breakpoint
CREATE UNIQUE INDEX "market_flags_stake_unique" ON "market_flags" USING btree ("stake_id");--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD CONSTRAINT "escrow_relay_stakes_owner_check" CHECK (num_nonnulls("escrow_relay_stakes"."oracle_bet_id", "escrow_relay_stakes"."bet_id", "escrow_relay_stakes"."flag_id") = 1);--> statement-breakpoint
ALTER TABLE "payout_lists" ADD CONSTRAINT "payout_lists_owner_check" CHECK (num_nonnulls("payout_lists"."epoch", "payout_lists"."prediction_market_id") = 1);