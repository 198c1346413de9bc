-- The escrow's own refunds of a market, a guardian's veto or an escape (docs/architecture.md
-- "Following the chain"): the market-fates job's queue of the events, and the payout list each one
-- supersedes.
CREATE TABLE "escrow_market_fates" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"market_key" text NOT NULL,
	"fate" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"stake_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_market_fates_fate_check" CHECK ("escrow_market_fates"."fate" in ('vetoed', 'escaped')),
	CONSTRAINT "escrow_market_fates_status_check" CHECK ("escrow_market_fates"."status" in ('pending', 'applied', 'unknown'))
);
--> statement-breakpoint
ALTER TABLE "payout_lists" ADD COLUMN "fate" text;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_market_fates_event_unique" ON "escrow_market_fates" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "escrow_market_fates_pending_idx" ON "escrow_market_fates" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "payout_lists" ADD CONSTRAINT "payout_lists_fate_check" CHECK ("payout_lists"."fate" is null or "payout_lists"."fate" in ('vetoed', 'escaped'));