-- The escrow's relays and the gas an estimate can be gamed out of (docs/security.md "Operator
-- transactions"): an operator action may be signed at its gas cap instead of its estimate (a relayed
-- claimMany/refundMany pushes to owners whose code can run cheap under an estimate and burn its gas
-- when sent), and an owner's released relays are found by owner, newest first (a relay reverted on
-- chain backs the owner off).
ALTER TABLE "operator_transactions" ADD COLUMN "sign_at_cap" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "escrow_relays_released_idx" ON "escrow_relays" USING btree ("owner","done_at") WHERE status = 'released';