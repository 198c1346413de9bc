-- Issue 13, decision 002: bets.payout_amount now means what oracle_bets.payout_amount means, the
-- full return of a settled bet (stake + profit on a win, the stake on a refund, 0 on a loss; null
-- while pending). Until now it held a win's profit and was null otherwise. The rows are converted
-- by the rule the readers used (history-repository before 0007): a win, or a claimed bet with a
-- profit, gets its stake added; a refund, or a claimed bet without one, returns its stake; a loss 0.
-- The migration runner applies this in the transaction that records it, so no reader sees a mix.
UPDATE "bets" SET "payout_amount" = CASE
    WHEN "status" = 'won' OR ("status" = 'claimed' AND "payout_amount" IS NOT NULL)
      THEN "amount" + coalesce("payout_amount", 0)
    WHEN "status" IN ('refunded', 'claimed') THEN "amount"
    WHEN "status" = 'lost' THEN 0
  END
  WHERE "status" <> 'pending';
