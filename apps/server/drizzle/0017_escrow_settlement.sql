-- Issue 29, decision 026 (rounds on the escrow): each round's settlement and published payout list,
-- each paid leaf's proof, the operator key's relayed claims and refunds, and what left the escrow per
-- stake. Indexes before foreign keys: payout_list_leaves references payout_lists(market_key), which
-- needs its unique index first.
CREATE TABLE "escrow_relay_stakes" (
	"relay_id" integer NOT NULL,
	"stake_id" numeric(78, 0) NOT NULL,
	"oracle_bet_id" integer NOT NULL,
	CONSTRAINT "escrow_relay_stakes_relay_id_stake_id_pk" PRIMARY KEY("relay_id","stake_id")
);
--> statement-breakpoint
CREATE TABLE "escrow_relays" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner" text NOT NULL,
	"operator_tx_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "escrow_relays_kind_check" CHECK ("escrow_relays"."kind" in ('claim', 'refund')),
	CONSTRAINT "escrow_relays_status_check" CHECK ("escrow_relays"."status" in ('open', 'done', 'released'))
);
--> statement-breakpoint
CREATE TABLE "escrow_stake_payouts" (
	"stake_id" numeric(78, 0) PRIMARY KEY NOT NULL,
	"market_key" text NOT NULL,
	"owner" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"credited" boolean DEFAULT false NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"relay_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_stake_payouts_kind_check" CHECK ("escrow_stake_payouts"."kind" in ('claimed', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "payout_list_leaves" (
	"stake_id" numeric(78, 0) PRIMARY KEY NOT NULL,
	"market_key" text NOT NULL,
	"payout" numeric(78, 0) NOT NULL,
	"proof" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_key" text NOT NULL,
	"epoch" bigint,
	"chain_id" integer NOT NULL,
	"escrow" text NOT NULL,
	"market_id" text NOT NULL,
	"closes_at" bigint NOT NULL,
	"refund" boolean NOT NULL,
	"outcome" integer NOT NULL,
	"verdict_hash" text NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"document" jsonb,
	"root" text,
	"payout_total" numeric(78, 0),
	"fee" numeric(78, 0),
	"pool" numeric(78, 0),
	"operator_tx_id" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"settled_block" bigint,
	"settled_at" timestamp with time zone,
	"claimable_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_lists_status_check" CHECK ("payout_lists"."status" in ('due', 'published', 'settled')),
	CONSTRAINT "payout_lists_document_check" CHECK ("payout_lists"."refund" or "payout_lists"."status" = 'due' or ("payout_lists"."document" is not null and "payout_lists"."root" is not null))
);
--> statement-breakpoint
CREATE INDEX "escrow_relay_stakes_stake_idx" ON "escrow_relay_stakes" USING btree ("stake_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_relays_operator_tx_unique" ON "escrow_relays" USING btree ("operator_tx_id");
--> statement-breakpoint
CREATE INDEX "escrow_relays_open_idx" ON "escrow_relays" USING btree ("owner") WHERE status = 'open';
--> statement-breakpoint
CREATE INDEX "escrow_stake_payouts_market_idx" ON "escrow_stake_payouts" USING btree ("market_key");
--> statement-breakpoint
CREATE INDEX "payout_list_leaves_market_idx" ON "payout_list_leaves" USING btree ("market_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lists_market_key_unique" ON "payout_lists" USING btree ("market_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lists_epoch_unique" ON "payout_lists" USING btree ("epoch");
--> statement-breakpoint
CREATE INDEX "payout_lists_pending_idx" ON "payout_lists" USING btree ("next_attempt_at") WHERE status in ('due', 'published');
--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD CONSTRAINT "escrow_relay_stakes_relay_id_escrow_relays_id_fk" FOREIGN KEY ("relay_id") REFERENCES "public"."escrow_relays"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "escrow_relay_stakes" ADD CONSTRAINT "escrow_relay_stakes_oracle_bet_id_oracle_bets_id_fk" FOREIGN KEY ("oracle_bet_id") REFERENCES "public"."oracle_bets"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "escrow_relays" ADD CONSTRAINT "escrow_relays_operator_tx_id_operator_transactions_id_fk" FOREIGN KEY ("operator_tx_id") REFERENCES "public"."operator_transactions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "escrow_stake_payouts" ADD CONSTRAINT "escrow_stake_payouts_relay_id_escrow_relays_id_fk" FOREIGN KEY ("relay_id") REFERENCES "public"."escrow_relays"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_list_leaves" ADD CONSTRAINT "payout_list_leaves_market_key_payout_lists_market_key_fk" FOREIGN KEY ("market_key") REFERENCES "public"."payout_lists"("market_key") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_lists" ADD CONSTRAINT "payout_lists_epoch_oracle_rounds_epoch_fk" FOREIGN KEY ("epoch") REFERENCES "public"."oracle_rounds"("epoch") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_lists" ADD CONSTRAINT "payout_lists_operator_tx_id_operator_transactions_id_fk" FOREIGN KEY ("operator_tx_id") REFERENCES "public"."operator_transactions"("id") ON DELETE no action ON UPDATE no action;
