-- Issue 21 (settlement of 100k bets in < 3 s): settling a market writes every bet's status and
-- payout_amount. bets_claimable_idx named status in its predicate, so each of those writes made a
-- new entry in every index of bets (six of them): 100k bets took 3.5 s, nearly all of it index
-- maintenance. Without an index on a column settlement or a claim writes, and with half of each
-- page kept free for the row's next version, the update stays in its page (HOT) and no index is
-- touched: 0.9 s. Pages written before this migration are full; they gain the room as VACUUM
-- frees them (or at once with VACUUM FULL bets, in a maintenance window).
DROP INDEX "bets_claimable_idx";--> statement-breakpoint
ALTER TABLE "bets" SET (fillfactor = 50);
