CREATE TABLE "bets" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	"user_address" text NOT NULL,
	"prediction" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"potential_payout" numeric(78, 0) NOT NULL,
	"payout_amount" numeric(78, 0),
	"status" text DEFAULT 'pending' NOT NULL,
	"is_creator" boolean DEFAULT false NOT NULL,
	"payment_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"payout_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bets_prediction_check" CHECK ("bets"."prediction" in ('YES', 'NO')),
	CONSTRAINT "bets_status_check" CHECK ("bets"."status" in ('pending', 'won', 'lost', 'claimed', 'refunded')),
	CONSTRAINT "bets_amount_check" CHECK ("bets"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_address" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"resolution_instructions" text,
	"bet_type" text DEFAULT 'custom_bet' NOT NULL,
	"category" text NOT NULL,
	"duration" text NOT NULL,
	"target_symbol" text,
	"target_price" numeric(38, 0),
	"start_price" numeric(38, 0),
	"comparison_type" text,
	"start_time" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"total_yes_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"total_no_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"yes_count" integer DEFAULT 0 NOT NULL,
	"no_count" integer DEFAULT 0 NOT NULL,
	"result" text,
	"ai_verdict" text,
	"ai_confidence" integer,
	"ai_sources" jsonb,
	"resolver_model" text NOT NULL,
	"resolver_prompt_version" text NOT NULL,
	"content_hash" text NOT NULL,
	"resolution_attempts" integer DEFAULT 0 NOT NULL,
	"next_resolution_at" timestamp with time zone,
	"resolution_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markets_status_check" CHECK ("markets"."status" in ('active', 'settling', 'settled')),
	CONSTRAINT "markets_result_check" CHECK ("markets"."result" is null or "markets"."result" in ('YES', 'NO', 'VOID')),
	CONSTRAINT "markets_category_check" CHECK ("markets"."category" in ('crypto', 'social_media', 'gaming', 'politics', 'sports')),
	CONSTRAINT "markets_duration_check" CHECK ("markets"."duration" in ('hourly', 'daily')),
	CONSTRAINT "markets_bet_type_check" CHECK ("markets"."bet_type" in ('custom_bet', 'price_prediction')),
	CONSTRAINT "markets_totals_check" CHECK ("markets"."total_yes_amount" >= 0 and "markets"."total_no_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "operator_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oracle_bets" (
	"id" serial PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	"user_address" text NOT NULL,
	"position" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"payout_amount" numeric(78, 0),
	"claimed" boolean DEFAULT false NOT NULL,
	"payment_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"payout_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oracle_bets_position_check" CHECK ("oracle_bets"."position" in ('bull', 'bear')),
	CONSTRAINT "oracle_bets_amount_check" CHECK ("oracle_bets"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "oracle_rounds" (
	"epoch" bigint PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"lock_time" timestamp with time zone NOT NULL,
	"close_time" timestamp with time zone NOT NULL,
	"lock_price" numeric(38, 0),
	"close_price" numeric(38, 0),
	"lock_price_round_id" text,
	"lock_price_at" timestamp with time zone,
	"close_price_round_id" text,
	"close_price_at" timestamp with time zone,
	"price_source" text,
	"total_up_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"total_down_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"up_count" integer DEFAULT 0 NOT NULL,
	"down_count" integer DEFAULT 0 NOT NULL,
	"result" text,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oracle_rounds_status_check" CHECK ("oracle_rounds"."status" in ('upcoming', 'live', 'locked', 'ended')),
	CONSTRAINT "oracle_rounds_result_check" CHECK ("oracle_rounds"."result" is null or "oracle_rounds"."result" in ('bull', 'bear', 'draw', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"intent" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"purpose" text NOT NULL,
	"status" text NOT NULL,
	"refund_reason" text,
	"refund_payout_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_purpose_check" CHECK ("payments"."purpose" in ('market_create', 'market_bet', 'oracle_bet', 'unknown')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('recorded', 'refund_due', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"nonce" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"raw_tx" text,
	"tx_hash" text,
	"max_fee_per_gas" numeric(78, 0),
	"max_priority_fee_per_gas" numeric(78, 0),
	"tx_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"broadcast_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_kind_check" CHECK ("payouts"."kind" in ('claim', 'refund')),
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('created', 'signed', 'broadcast', 'confirmed', 'failed')),
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "price_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"price" numeric(38, 0) NOT NULL,
	"feed_round_id" text,
	"updated_at" timestamp with time zone NOT NULL,
	"sampled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_stats" (
	"address" text PRIMARY KEY NOT NULL,
	"total_winnings" numeric(78, 0) DEFAULT 0 NOT NULL,
	"total_bets" integer DEFAULT 0 NOT NULL,
	"won_bets" integer DEFAULT 0 NOT NULL,
	"settled_bets" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oracle_bets" ADD CONSTRAINT "oracle_bets_epoch_oracle_rounds_epoch_fk" FOREIGN KEY ("epoch") REFERENCES "public"."oracle_rounds"("epoch") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oracle_bets" ADD CONSTRAINT "oracle_bets_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oracle_bets" ADD CONSTRAINT "oracle_bets_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bets_payment_unique" ON "bets" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "bets_market_created_idx" ON "bets" USING btree ("market_id","created_at");--> statement-breakpoint
CREATE INDEX "bets_user_created_idx" ON "bets" USING btree ("user_address","created_at");--> statement-breakpoint
CREATE INDEX "bets_claimable_idx" ON "bets" USING btree ("user_address") WHERE status in ('won', 'refunded') and payout_id is null;--> statement-breakpoint
CREATE INDEX "markets_status_created_idx" ON "markets" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "markets_status_updated_idx" ON "markets" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "markets_active_deadline_idx" ON "markets" USING btree ("deadline") WHERE status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "oracle_bets_payment_unique" ON "oracle_bets" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "oracle_bets_epoch_idx" ON "oracle_bets" USING btree ("epoch");--> statement-breakpoint
CREATE INDEX "oracle_bets_user_idx" ON "oracle_bets" USING btree ("user_address","created_at");--> statement-breakpoint
CREATE INDEX "oracle_rounds_status_idx" ON "oracle_rounds" USING btree ("status","start_time");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_chain_tx_unique" ON "payments" USING btree ("chain_id","tx_hash");--> statement-breakpoint
CREATE INDEX "payments_refund_due_idx" ON "payments" USING btree ("status") WHERE status = 'refund_due';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_sender_nonce_unique" ON "payouts" USING btree ("chain_id","from_address","nonce");--> statement-breakpoint
CREATE INDEX "payouts_open_idx" ON "payouts" USING btree ("status") WHERE status <> 'confirmed';--> statement-breakpoint
CREATE INDEX "payouts_to_idx" ON "payouts" USING btree ("to_address");--> statement-breakpoint
CREATE INDEX "price_samples_sampled_idx" ON "price_samples" USING btree ("sampled_at");--> statement-breakpoint
CREATE INDEX "user_stats_winnings_idx" ON "user_stats" USING btree ("total_winnings");