-- Issue 18, decision 019: the evidence the judge read and quoted, per market attempt. Pages keep the
-- sha256 of their body as received and their extracted text (capped), so a verified quote can be
-- checked again later; the attempt row keeps the queries, each model's verdict and the verification.
CREATE TABLE "market_evidence_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"search_provider" text,
	"queries" jsonb NOT NULL,
	"models" jsonb NOT NULL,
	"verdicts" jsonb NOT NULL,
	"citations" jsonb NOT NULL,
	"verification_status" text,
	"verification_reason" text,
	"distinct_sites" integer DEFAULT 0 NOT NULL,
	"min_sites" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_evidence_attempts_status_check" CHECK ("market_evidence_attempts"."verification_status" is null or "market_evidence_attempts"."verification_status" in ('verified', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "market_evidence_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"position" integer NOT NULL,
	"url" text NOT NULL,
	"final_url" text NOT NULL,
	"site" text NOT NULL,
	"title" text,
	"http_status" integer,
	"fetched_at" timestamp with time zone NOT NULL,
	"bytes" integer NOT NULL,
	"content_sha256" text,
	"text" text NOT NULL,
	"shown_to_judge" boolean NOT NULL,
	"error" text,
	"from_creator" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_evidence_attempts" ADD CONSTRAINT "market_evidence_attempts_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_evidence_pages" ADD CONSTRAINT "market_evidence_pages_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_evidence_attempts_market_attempt_unique" ON "market_evidence_attempts" USING btree ("market_id","attempt");--> statement-breakpoint
CREATE INDEX "market_evidence_pages_market_attempt_idx" ON "market_evidence_pages" USING btree ("market_id","attempt","position");