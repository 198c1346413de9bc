-- Issue 29, decision 026: the operator key's own transactions (settlements, relayed claims, refunds
-- on the escrow), one row per action, stored before anything is sent. The nonce is taken when the
-- action is signed, unique per (chain, sender) lane, and given back (null) after a refused broadcast.
CREATE TABLE "operator_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"chain_id" integer NOT NULL,
	"sender" text NOT NULL,
	"to_address" text NOT NULL,
	"data" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"gas_cap" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"nonce" bigint,
	"gas_limit" bigint,
	"max_fee_per_gas" numeric(78, 0),
	"max_priority_fee_per_gas" numeric(78, 0),
	"raw_tx" text,
	"tx_hash" text,
	"tx_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_outcome" text,
	"cancel_reason" text,
	"refusals" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"nonce_taken_seen_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"block_number" bigint,
	"block_hash" text,
	"gas_used" bigint,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_transactions_status_check" CHECK ("operator_transactions"."status" in ('queued', 'signed', 'sent', 'confirmed', 'skipped', 'failed')),
	CONSTRAINT "operator_transactions_nonce_check" CHECK ("operator_transactions"."nonce" is not null or "operator_transactions"."status" in ('queued', 'skipped', 'failed')),
	CONSTRAINT "operator_transactions_cancel_outcome_check" CHECK ("operator_transactions"."cancel_outcome" in ('skipped', 'failed')),
	CONSTRAINT "operator_transactions_value_check" CHECK ("operator_transactions"."value" >= 0),
	CONSTRAINT "operator_transactions_gas_cap_check" CHECK ("operator_transactions"."gas_cap" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_transactions_key_unique" ON "operator_transactions" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_transactions_lane_nonce_unique" ON "operator_transactions" USING btree ("chain_id","sender","nonce");--> statement-breakpoint
CREATE INDEX "operator_transactions_open_idx" ON "operator_transactions" USING btree ("chain_id","sender","status") WHERE status in ('queued', 'signed', 'sent');