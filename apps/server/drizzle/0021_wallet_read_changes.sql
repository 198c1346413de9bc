-- The wallet read cache (docs/decisions/032): every change to a row that a wallet's own reads show is
-- announced on the realtime channel every instance listens to, in the transaction that makes it
-- (PostgreSQL delivers it at commit, never for a rollback). Triggers, not calls in the code: a row
-- changed by any path (a request, a job, a follower of the chain, an operator's hand in psql) drops
-- what it must. The reads, as bits: 1 a wallet's bets, 2 claimable, 4 history, 8 the P&L summary (the
-- public profile); apps/server/src/wallet-reads/wallet-changes.ts reads the same bits.
--
-- Each names the schema it was made in: channels are the database's, and test files share one
-- database with a schema each (an instance on a schema of its own hears only its own). Two shapes,
-- both under the topic `wallets`:
--   {reads, addresses, joined: {markets, rounds}}  these wallets' reads changed; they now hold stakes
--                                                  in these markets and rounds (a bet, a flag);
--   {reads, markets, rounds}                       the reads of every wallet with a stake in these
--                                                  markets or rounds changed.
-- A change to a market or a round (its status, result, settlement on the escrow) names it, not its
-- wallets: each instance knows which markets and rounds a wallet it keeps reads of has stakes in, so
-- settling a market of 100k bets costs the database one notification, not a list of 10k wallets.
-- A statement over more than 150 rows of bets (a settlement's UPDATE) names its markets likewise.
CREATE FUNCTION wallet_reads_of_wallets(reads integer, addresses text[], markets integer[], rounds bigint[])
RETURNS void AS $$
DECLARE
  sorted text[];
  total integer;
  first integer := 1;
  market_ids integer[] := array(SELECT DISTINCT m FROM unnest(markets) m WHERE m IS NOT NULL ORDER BY m);
  round_ids bigint[] := array(SELECT DISTINCT r FROM unnest(rounds) r WHERE r IS NOT NULL ORDER BY r);
BEGIN
  -- Sorted and distinct, so the same change gives the same payloads (NOTIFY folds repeats within a
  -- transaction); at most 150 addresses (about 6.8 kB) per notification, under NOTIFY's 8 kB.
  SELECT array_agg(address ORDER BY address) INTO sorted
  FROM (SELECT DISTINCT a AS address FROM unnest(addresses) a WHERE a IS NOT NULL) d;
  total := coalesce(array_length(sorted, 1), 0);
  WHILE first <= total LOOP
    PERFORM pg_notify('pm_realtime', json_build_object('topic', 'wallets', 'schema', current_schema(),
      'payload', json_build_object('reads', reads, 'addresses', sorted[first : first + 149],
      'joined', json_build_object('markets', market_ids, 'rounds', round_ids)))::text);
    first := first + 150;
  END LOOP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION wallet_reads_of_stakes(reads integer, markets integer[], rounds bigint[]) RETURNS void AS $$
DECLARE
  market_ids integer[] := array(SELECT DISTINCT m FROM unnest(markets) m WHERE m IS NOT NULL ORDER BY m);
  round_ids bigint[] := array(SELECT DISTINCT r FROM unnest(rounds) r WHERE r IS NOT NULL ORDER BY r);
  first integer := 1;
BEGIN
  -- At most 500 ids (about 6 kB) per notification.
  WHILE first <= greatest(cardinality(market_ids), cardinality(round_ids)) LOOP
    PERFORM pg_notify('pm_realtime', json_build_object('topic', 'wallets', 'schema', current_schema(),
      'payload', json_build_object('reads', reads, 'markets', market_ids[first : first + 499],
                                   'rounds', round_ids[first : first + 499]))::text);
    first := first + 500;
  END LOOP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Bets, inserted, updated or deleted by one statement: its wallets (with the markets they hold stakes
-- in), or past 150 rows its markets. TG_ARGV[0]: the reads. A new bet is never claimable yet (13: bets,
-- history, P&L); a bet settled, refunded or claimed changes all four (15). Telling a claim, which moves
-- no figure the P&L counts, from a settlement would need the rows' old versions, which costs settling
-- 100k bets about as much again (docs/decisions/032).
CREATE FUNCTION bets_wallet_reads() RETURNS trigger AS $$
DECLARE
  total bigint;
  market_ids integer[];
BEGIN
  -- One pass over the statement's rows (a settlement's are many), then its wallets when they are few.
  SELECT count(*), array_agg(DISTINCT market_id) INTO total, market_ids FROM changed_rows;
  IF total <= 150 THEN
    PERFORM wallet_reads_of_wallets(TG_ARGV[0]::integer, array(SELECT user_address FROM changed_rows),
                                    market_ids, NULL);
  ELSE
    PERFORM wallet_reads_of_stakes(TG_ARGV[0]::integer, market_ids, NULL);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bets_wallet_reads_insert AFTER INSERT ON bets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bets_wallet_reads('13');
--> statement-breakpoint
CREATE TRIGGER bets_wallet_reads_update AFTER UPDATE ON bets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bets_wallet_reads('15');
--> statement-breakpoint
CREATE TRIGGER bets_wallet_reads_delete AFTER DELETE ON bets REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bets_wallet_reads('15');
--> statement-breakpoint
-- Round bets likewise: a wallet's bets are its market bets, so 12 (history, P&L) for a new one and
-- 14 (claimable, history, P&L) for one paid out or claimed.
CREATE FUNCTION oracle_bets_wallet_reads() RETURNS trigger AS $$
DECLARE
  total bigint;
  round_ids bigint[];
BEGIN
  SELECT count(*), array_agg(DISTINCT epoch) INTO total, round_ids FROM changed_rows;
  IF total <= 150 THEN
    PERFORM wallet_reads_of_wallets(TG_ARGV[0]::integer, array(SELECT user_address FROM changed_rows),
                                    NULL, round_ids);
  ELSE
    PERFORM wallet_reads_of_stakes(TG_ARGV[0]::integer, NULL, round_ids);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER oracle_bets_wallet_reads_insert AFTER INSERT ON oracle_bets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION oracle_bets_wallet_reads('12');
--> statement-breakpoint
CREATE TRIGGER oracle_bets_wallet_reads_update AFTER UPDATE ON oracle_bets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION oracle_bets_wallet_reads('14');
--> statement-breakpoint
CREATE TRIGGER oracle_bets_wallet_reads_delete AFTER DELETE ON oracle_bets REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION oracle_bets_wallet_reads('14');
--> statement-breakpoint
-- A flag and its bond (held, returned, forfeited): claimable, history and P&L of the flagger.
CREATE FUNCTION market_flags_wallet_reads() RETURNS trigger AS $$
BEGIN
  PERFORM wallet_reads_of_wallets(14, array(SELECT address FROM changed_rows),
                                  array(SELECT market_id FROM changed_rows), NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER market_flags_wallet_reads_insert AFTER INSERT ON market_flags REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_flags_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER market_flags_wallet_reads_update AFTER UPDATE ON market_flags REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_flags_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER market_flags_wallet_reads_delete AFTER DELETE ON market_flags REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_flags_wallet_reads();
--> statement-breakpoint
-- What left the escrow for a stake (a claim, a refund, a credit): claimable and history of its owner
-- (a returned bond is claimable until its stake is paid; a bet's own row changes with it).
CREATE FUNCTION stake_payouts_wallet_reads() RETURNS trigger AS $$
BEGIN
  PERFORM wallet_reads_of_wallets(6, array(SELECT owner FROM changed_rows), NULL, NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER escrow_stake_payouts_wallet_reads_insert AFTER INSERT ON escrow_stake_payouts REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stake_payouts_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER escrow_stake_payouts_wallet_reads_update AFTER UPDATE ON escrow_stake_payouts REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stake_payouts_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER escrow_stake_payouts_wallet_reads_delete AFTER DELETE ON escrow_stake_payouts REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stake_payouts_wallet_reads();
--> statement-breakpoint
-- A row moved to another wallet, market or round (never done by the server; an operator's hand
-- might): the wallet it left too, and the stakes of the one it went to. Row triggers `OF` those
-- columns only, so the bulk updates that settle and claim (which never set them) never call them.
-- TG_ARGV: the reads, the owner's column, and 'market' or 'round' for the column of the stake.
CREATE FUNCTION stake_moved_wallet_reads() RETURNS trigger AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
  new_row jsonb := to_jsonb(NEW);
BEGIN
  PERFORM wallet_reads_of_wallets(TG_ARGV[0]::integer,
    ARRAY[old_row ->> TG_ARGV[1], new_row ->> TG_ARGV[1]],
    CASE WHEN TG_ARGV[2] = 'market' THEN ARRAY[(new_row ->> 'market_id')::integer] END,
    CASE WHEN TG_ARGV[2] = 'round' THEN ARRAY[(new_row ->> 'epoch')::bigint] END);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bets_wallet_reads_moved AFTER UPDATE OF user_address, market_id ON bets FOR EACH ROW
  WHEN ((OLD.user_address, OLD.market_id) IS DISTINCT FROM (NEW.user_address, NEW.market_id))
  EXECUTE FUNCTION stake_moved_wallet_reads('15', 'user_address', 'market');
--> statement-breakpoint
CREATE TRIGGER oracle_bets_wallet_reads_moved AFTER UPDATE OF user_address, epoch ON oracle_bets FOR EACH ROW
  WHEN ((OLD.user_address, OLD.epoch) IS DISTINCT FROM (NEW.user_address, NEW.epoch))
  EXECUTE FUNCTION stake_moved_wallet_reads('14', 'user_address', 'round');
--> statement-breakpoint
CREATE TRIGGER market_flags_wallet_reads_moved AFTER UPDATE OF address, market_id ON market_flags FOR EACH ROW
  WHEN ((OLD.address, OLD.market_id) IS DISTINCT FROM (NEW.address, NEW.market_id))
  EXECUTE FUNCTION stake_moved_wallet_reads('14', 'address', 'market');
--> statement-breakpoint
CREATE TRIGGER escrow_stake_payouts_wallet_reads_moved AFTER UPDATE OF owner ON escrow_stake_payouts FOR EACH ROW
  WHEN (OLD.owner IS DISTINCT FROM NEW.owner)
  EXECUTE FUNCTION stake_moved_wallet_reads('6', 'owner', 'none');
--> statement-breakpoint
-- A market's shown fields (title, status, result, category, deadline, a price market's terms, the
-- time it settled): everything its wallets see of it, and the P&L when its result moved. A bet's
-- totals and counts are none of these, so recording a bet fires nothing here.
CREATE FUNCTION markets_wallet_reads() RETURNS trigger AS $$
BEGIN
  PERFORM wallet_reads_of_stakes(CASE WHEN OLD.result IS DISTINCT FROM NEW.result THEN 15 ELSE 7 END,
                                 ARRAY[NEW.id], NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER markets_wallet_reads_update AFTER UPDATE ON markets FOR EACH ROW
  WHEN ((OLD.title, OLD.status, OLD.result, OLD.category, OLD.deadline, OLD.target_symbol,
         OLD.comparison_type, OLD.target_price, OLD.updated_at)
        IS DISTINCT FROM
        (NEW.title, NEW.status, NEW.result, NEW.category, NEW.deadline, NEW.target_symbol,
         NEW.comparison_type, NEW.target_price, NEW.updated_at))
  EXECUTE FUNCTION markets_wallet_reads();
--> statement-breakpoint
-- A round's result and close: claimable, history and P&L of its bettors (its totals fire nothing).
CREATE FUNCTION oracle_rounds_wallet_reads() RETURNS trigger AS $$
BEGIN
  PERFORM wallet_reads_of_stakes(14, NULL, ARRAY[NEW.epoch]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER oracle_rounds_wallet_reads_update AFTER UPDATE ON oracle_rounds FOR EACH ROW
  WHEN ((OLD.result, OLD.close_time) IS DISTINCT FROM (NEW.result, NEW.close_time))
  EXECUTE FUNCTION oracle_rounds_wallet_reads();
--> statement-breakpoint
-- A settlement on the escrow (its status, refund, claimableAt, key): the escrow claims GET claimable
-- carries for the stakes of its market or round. Its attempts and errors fire nothing.
CREATE FUNCTION payout_lists_wallet_reads() RETURNS trigger AS $$
DECLARE
  list record;
BEGIN
  IF TG_OP = 'DELETE' THEN list := OLD; ELSE list := NEW; END IF;
  PERFORM wallet_reads_of_stakes(2, ARRAY[list.prediction_market_id], ARRAY[list.epoch]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER payout_lists_wallet_reads_insert_delete AFTER INSERT OR DELETE ON payout_lists FOR EACH ROW
  EXECUTE FUNCTION payout_lists_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER payout_lists_wallet_reads_update AFTER UPDATE ON payout_lists FOR EACH ROW
  WHEN ((OLD.status, OLD.market_key, OLD.refund, OLD.claimable_at, OLD.epoch, OLD.prediction_market_id)
        IS DISTINCT FROM
        (NEW.status, NEW.market_key, NEW.refund, NEW.claimable_at, NEW.epoch, NEW.prediction_market_id))
  EXECUTE FUNCTION payout_lists_wallet_reads();
--> statement-breakpoint
-- A published list's leaves (each stake's payout and proof): claimable of its market's or round's
-- wallets, found by the leaves' market keys (one per statement: a list is written whole).
CREATE FUNCTION payout_list_leaves_wallet_reads() RETURNS trigger AS $$
BEGIN
  PERFORM wallet_reads_of_stakes(2, array_agg(l.prediction_market_id), array_agg(l.epoch))
  FROM payout_lists l WHERE l.market_key IN (SELECT DISTINCT market_key FROM changed_rows);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER payout_list_leaves_wallet_reads_insert AFTER INSERT ON payout_list_leaves REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_list_leaves_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER payout_list_leaves_wallet_reads_update AFTER UPDATE ON payout_list_leaves REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_list_leaves_wallet_reads();
--> statement-breakpoint
CREATE TRIGGER payout_list_leaves_wallet_reads_delete AFTER DELETE ON payout_list_leaves REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payout_list_leaves_wallet_reads();
--> statement-breakpoint
-- The realtime events go out at commit, after every wallet change of their transaction: an instance
-- hears both on one connection in that order, so a client that refetches on an event finds the
-- wallet reads of the event's transaction already dropped (docs/decisions/032).
DROP TRIGGER outbox_notify_after_insert ON outbox;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER outbox_notify_after_insert AFTER INSERT ON outbox DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION outbox_notify();
