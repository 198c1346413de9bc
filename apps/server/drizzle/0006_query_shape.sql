CREATE TABLE "market_counts" (
	"category" text NOT NULL,
	"status" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "market_counts_category_status_pk" PRIMARY KEY("category","status")
);
--> statement-breakpoint
DROP INDEX "bets_market_created_idx";--> statement-breakpoint
DROP INDEX "bets_user_created_idx";--> statement-breakpoint
CREATE INDEX "bets_market_created_id_idx" ON "bets" USING btree ("market_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bets_user_created_id_idx" ON "bets" USING btree ("user_address","created_at","id");--> statement-breakpoint
CREATE INDEX "markets_open_created_idx" ON "markets" USING btree ("created_at","id") WHERE status in ('active', 'settling');--> statement-breakpoint
CREATE INDEX "markets_open_category_created_idx" ON "markets" USING btree ("category","created_at","id") WHERE status in ('active', 'settling');--> statement-breakpoint
CREATE INDEX "markets_settled_updated_idx" ON "markets" USING btree ("updated_at","id") WHERE status = 'settled';--> statement-breakpoint
CREATE INDEX "markets_settled_category_updated_idx" ON "markets" USING btree ("category","updated_at","id") WHERE status = 'settled';--> statement-breakpoint
CREATE INDEX "oracle_bets_claimable_idx" ON "oracle_bets" USING btree ("user_address") WHERE payout_id is null and claimed = false and payout_amount > 0;--> statement-breakpoint
CREATE INDEX "oracle_rounds_open_start_idx" ON "oracle_rounds" USING btree ("start_time") WHERE status in ('upcoming', 'live', 'locked');--> statement-breakpoint
CREATE INDEX "oracle_rounds_ended_epoch_idx" ON "oracle_rounds" USING btree ("epoch") WHERE status = 'ended';--> statement-breakpoint
CREATE INDEX "user_stats_leaderboard_idx" ON "user_stats" USING btree ("total_winnings","won_bets") WHERE total_winnings > 0;--> statement-breakpoint
-- Category counts (issue 12): kept by statement triggers in the transaction that changes markets,
-- so a count is never older than the change a user just made. Deltas are applied in (category,
-- status) order, so two statements touching the same counters lock them in the same order.
CREATE FUNCTION market_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO market_counts (category, status, count)
      SELECT category, status, count(*) FROM new_rows GROUP BY category, status ORDER BY category, status
      ON CONFLICT (category, status) DO UPDATE SET count = market_counts.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE market_counts c SET count = c.count - d.n
      FROM (SELECT category, status, count(*) AS n FROM old_rows GROUP BY category, status) d
      WHERE c.category = d.category AND c.status = d.status;
  ELSE
    INSERT INTO market_counts (category, status, count)
      SELECT category, status, sum(n) FROM (
        SELECT o.category, o.status, -1 AS n FROM old_rows o JOIN new_rows x ON x.id = o.id
          WHERE o.category IS DISTINCT FROM x.category OR o.status IS DISTINCT FROM x.status
        UNION ALL
        SELECT x.category, x.status, 1 FROM old_rows o JOIN new_rows x ON x.id = o.id
          WHERE o.category IS DISTINCT FROM x.category OR o.status IS DISTINCT FROM x.status
      ) d GROUP BY category, status HAVING sum(n) <> 0 ORDER BY category, status
      ON CONFLICT (category, status) DO UPDATE SET count = market_counts.count + excluded.count;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER market_counts_insert AFTER INSERT ON markets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_counts_apply();
--> statement-breakpoint
CREATE TRIGGER market_counts_update AFTER UPDATE ON markets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_counts_apply();
--> statement-breakpoint
CREATE TRIGGER market_counts_delete AFTER DELETE ON markets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION market_counts_apply();
--> statement-breakpoint
INSERT INTO market_counts (category, status, count)
  SELECT category, status, count(*) FROM markets GROUP BY category, status;
--> statement-breakpoint
ANALYZE markets;
