-- A settlement not final on the escrow past its expected time is logged as an error and counted once
-- (docs/operations.md "Metrics", bnbpredict_escrow_settlements_overdue_total): the first step that
-- sees it marks it, whichever instance runs it.
ALTER TABLE "payout_lists" ADD COLUMN "overdue_at" timestamp with time zone;
