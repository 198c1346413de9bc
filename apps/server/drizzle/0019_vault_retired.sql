-- Decision 028 (the vault retired): the schema stops carrying the EOA vault. Its tables (payouts,
-- vault_transfers), the payout_id columns of bets and oracle_bets, payments' vault refund columns and
-- the statuses refund_due and refund_held go; refund_reason and refunded stay (an escrow refund's).
-- The foreign keys to payouts go before the table, so no CASCADE drops anything unnamed here. A
-- database with a payment still refund_due or refund_held fails the new status check and stops the
-- migration: such a row is the vault's money, which a fresh DATA_DIR replaces (decision 028).
ALTER TABLE "bets" DROP CONSTRAINT "bets_payout_id_payouts_id_fk";--> statement-breakpoint
ALTER TABLE "oracle_bets" DROP CONSTRAINT "oracle_bets_payout_id_payouts_id_fk";--> statement-breakpoint
DROP TABLE "vault_transfers";--> statement-breakpoint
DROP TABLE "payouts";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_refund_amount_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
DROP INDEX "payments_refund_due_idx";--> statement-breakpoint
DROP INDEX "payments_refund_held_idx";--> statement-breakpoint
DROP INDEX "oracle_bets_claimable_idx";--> statement-breakpoint
CREATE INDEX "oracle_bets_claimable_idx" ON "oracle_bets" USING btree ("user_address") WHERE claimed = false and payout_amount > 0;--> statement-breakpoint
ALTER TABLE "bets" DROP COLUMN "payout_id";--> statement-breakpoint
ALTER TABLE "oracle_bets" DROP COLUMN "payout_id";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refund_payout_id";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refund_attempts";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refund_last_error";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refund_next_attempt_at";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refund_amount";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('recorded', 'refunded', 'escrow_refund'));
