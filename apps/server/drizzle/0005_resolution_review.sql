ALTER TABLE "markets" ADD COLUMN "proposed_result" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_by" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_prompt_version" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_confidence" integer;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_analysis" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_sources" jsonb;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "proposed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "review_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "flag_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_proposed_result_check" CHECK ("markets"."proposed_result" is null or "markets"."proposed_result" in ('YES', 'NO', 'VOID'));--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_proposal_check" CHECK (("markets"."proposed_at" is null) = ("markets"."review_ends_at" is null) and ("markets"."proposed_at" is null) = ("markets"."proposed_result" is null));--> statement-breakpoint
CREATE INDEX "markets_review_due_idx" ON "markets" USING btree ("review_ends_at") WHERE status = 'settling' and proposed_at is not null;--> statement-breakpoint
CREATE TABLE "market_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	"expiry" bigint NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_flags_reason_check" CHECK (char_length("market_flags"."reason") between 1 and 280)
);--> statement-breakpoint
ALTER TABLE "market_flags" ADD CONSTRAINT "market_flags_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_flags_market_address_unique" ON "market_flags" USING btree ("market_id","address");--> statement-breakpoint
CREATE TABLE "market_resolution_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"result" text,
	"detail" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_resolution_events_kind_check" CHECK ("market_resolution_events"."kind" in ('proposed', 'flagged', 'confirmed', 'overturned', 'settled')),
	CONSTRAINT "market_resolution_events_result_check" CHECK ("market_resolution_events"."result" is null or "market_resolution_events"."result" in ('YES', 'NO', 'VOID'))
);--> statement-breakpoint
ALTER TABLE "market_resolution_events" ADD CONSTRAINT "market_resolution_events_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_resolution_events_market_idx" ON "market_resolution_events" USING btree ("market_id","id");
