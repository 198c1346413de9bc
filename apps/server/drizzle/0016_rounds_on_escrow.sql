-- Issue 29, decision 026: oracle rounds pay into the escrow contract. A round bet names its escrow
-- stake (oracle_bets.stake_id); a payment row is one deposit (stake_id, log_index), so a batch
-- transaction holding several deposits is several payments; escrow_deposits queues the deposits
-- reconciliation found unposted; escrow_refunds gives refused deposits back to their owners
-- (refundStake while their market is open, else a full-amount leaf of its payout list).
CREATE TABLE "escrow_deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"stake_id" numeric(78, 0) NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"owner" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"market_key" text NOT NULL,
	"kind" integer NOT NULL,
	"side" integer NOT NULL,
	"terms" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_deposits_amount_check" CHECK ("escrow_deposits"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "escrow_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"stake_id" numeric(78, 0) NOT NULL,
	"payment_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"owner" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"market_key" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"operator_tx_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_refunds_status_check" CHECK ("escrow_refunds"."status" in ('queued', 'refunding', 'refunded', 'payout_list', 'failed')),
	CONSTRAINT "escrow_refunds_amount_check" CHECK ("escrow_refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
DROP INDEX "payments_chain_tx_unique";--> statement-breakpoint
ALTER TABLE "oracle_bets" ADD COLUMN "stake_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "stake_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "log_index" integer;--> statement-breakpoint
ALTER TABLE "escrow_refunds" ADD CONSTRAINT "escrow_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_deposits_chain_stake_unique" ON "escrow_deposits" USING btree ("chain_id","stake_id");--> statement-breakpoint
CREATE INDEX "escrow_deposits_open_idx" ON "escrow_deposits" USING btree ("next_attempt_at") WHERE resolved_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_refunds_chain_stake_unique" ON "escrow_refunds" USING btree ("chain_id","stake_id");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_refunds_payment_unique" ON "escrow_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "escrow_refunds_market_idx" ON "escrow_refunds" USING btree ("market_key");--> statement-breakpoint
CREATE INDEX "escrow_refunds_open_idx" ON "escrow_refunds" USING btree ("next_attempt_at") WHERE status in ('queued', 'refunding');--> statement-breakpoint
CREATE UNIQUE INDEX "oracle_bets_stake_unique" ON "oracle_bets" USING btree ("stake_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_chain_stake_unique" ON "payments" USING btree ("chain_id","stake_id") WHERE stake_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_chain_tx_unique" ON "payments" USING btree ("chain_id","tx_hash",coalesce("log_index", -1));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_stake_check" CHECK (("payments"."stake_id" is null) = ("payments"."log_index" is null) and ("payments"."status" <> 'escrow_refund' or "payments"."stake_id" is not null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('recorded', 'refund_due', 'refund_held', 'refunded', 'escrow_refund'));