-- Review F1: a 0-wei payment became a 0-wei refund_due row that no payout can carry. Such rows owe
-- nothing: drop them, then refuse any new one.
DELETE FROM "payments" WHERE "amount" = 0 AND "status" = 'refund_due' AND "refund_payout_id" IS NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0);--> statement-breakpoint
ALTER TABLE "payment_requests" ADD COLUMN "from_address" text;--> statement-breakpoint
UPDATE "payment_requests" SET "from_address" = lower(coalesce("request"->'body'->>'userAddress', "request"->'body'->>'creatorAddress', "request"->>'userAddress'));--> statement-breakpoint
CREATE INDEX "payment_requests_open_sender_idx" ON "payment_requests" USING btree ("from_address") WHERE resolved_at is null;--> statement-breakpoint
CREATE TABLE "vault_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"input" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_transfers_amount_check" CHECK ("vault_transfers"."amount" > 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "vault_transfers_chain_tx_unique" ON "vault_transfers" USING btree ("chain_id","tx_hash");--> statement-breakpoint
CREATE INDEX "vault_transfers_open_idx" ON "vault_transfers" USING btree ("next_attempt_at") WHERE resolved_at is null;
