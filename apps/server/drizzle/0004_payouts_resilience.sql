ALTER TABLE "payouts" ALTER COLUMN "nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "gas_limit" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "cancel_raw_tx" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "cancel_tx_hash" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "released" jsonb;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reissued_from" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_nonce_check" CHECK ("payouts"."nonce" is not null or "payouts"."status" in ('created', 'failed'));--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('recorded', 'refund_due', 'refund_held', 'refunded'));--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_last_error" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_next_attempt_at" timestamp with time zone;
