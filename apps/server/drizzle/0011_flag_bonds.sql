ALTER TABLE "market_resolution_events" DROP CONSTRAINT "market_resolution_events_kind_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_purpose_check";--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "bond_payment_id" integer;--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "bond_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "bond_status" text;--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "bond_return_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "market_flags" ADD COLUMN "bond_reward_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "market_resolution_events" ADD COLUMN "amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "market_resolution_events" ADD COLUMN "reward" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "market_flags" ADD CONSTRAINT "market_flags_bond_payment_id_payments_id_fk" FOREIGN KEY ("bond_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_flags_bond_payment_unique" ON "market_flags" USING btree ("bond_payment_id");--> statement-breakpoint
ALTER TABLE "market_flags" ADD CONSTRAINT "market_flags_bond_status_check" CHECK ("market_flags"."bond_status" is null or "market_flags"."bond_status" in ('held', 'returned', 'forfeited', 'returned_void'));--> statement-breakpoint
ALTER TABLE "market_resolution_events" ADD CONSTRAINT "market_resolution_events_kind_check" CHECK ("market_resolution_events"."kind" in ('proposed', 'flagged', 'confirmed', 'overturned', 'settled', 'bond_returned', 'bond_forfeited', 'bond_returned_void'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_amount_check" CHECK ("payments"."refund_amount" is null or "payments"."refund_amount" >= "payments"."amount");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_purpose_check" CHECK ("payments"."purpose" in ('market_create', 'market_bet', 'oracle_bet', 'market_flag', 'unknown'));