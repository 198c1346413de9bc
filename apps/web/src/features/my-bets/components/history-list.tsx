import type { HistoryEntry } from '@pm/core/contract/history';
import { CircleAlert, Inbox } from 'lucide';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { formatBnb, formatDateTime } from '#lib/use-format.ts';
import { useMarketTitle } from '#lib/use-market-title.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { type HistoryFilters, useHistoryPage } from '../api/get-history.ts';

/**
 * A wallet's bets in both games, newest first, with stake, result, payout (the full return) and
 * net, and its flag bonds with their fate; "Load more" follows the cursor. With
 * `onClaim`, claimable rows get a claim button (My Bets); without, the list is read-only (a public
 * profile). A bond paid into the vault is never claimed (a returned one goes back to the wallet by
 * itself); a returned bond on the escrow is claimed like a bet (decision 026).
 */
export function HistoryList(props: {
  address: string;
  filters: HistoryFilters;
  /** Shown when the wallet has no bet at all (no filter set). */
  empty: ReactNode;
  onClaim?: (entry: HistoryEntry) => void;
  claiming?: boolean;
}) {
  // New filters start again from the first page.
  return <HistoryPages key={`${props.filters.game}:${props.filters.status}`} {...props} />;
}

function HistoryPages({
  address,
  filters,
  empty,
  onClaim,
  claiming = false,
}: Parameters<typeof HistoryList>[0]) {
  const { t } = useTranslation();
  // The cursors of the pages loaded after the first, in order.
  const [cursors, setCursors] = useState<string[]>([]);
  const first = useHistoryPage(address, filters, null);
  const last = useHistoryPage(address, filters, cursors.at(-1) ?? null);
  if (first.isPending) return <Skeleton className="h-48 w-full" />;
  if (first.isError) {
    return (
      <Card>
        <StatusMessage tone="error" icon={<Icon node={CircleAlert} />}>
          {t('history.loadFailed')}
        </StatusMessage>
      </Card>
    );
  }
  if (first.data.entries.length === 0) {
    if (filters.game === 'all' && filters.status === 'all') return <Card>{empty}</Card>;
    return (
      <Card>
        <StatusMessage icon={<Icon node={Inbox} />}>{t('history.list.filteredEmpty')}</StatusMessage>
      </Card>
    );
  }
  const next = last.data?.nextCursor ?? null;
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={t('history.list.label')} className="flex flex-col gap-3">
        {[null, ...cursors].map((cursor) => (
          <HistoryPageRows
            key={cursor ?? 'first'}
            address={address}
            filters={filters}
            cursor={cursor}
            claiming={claiming}
            onClaim={onClaim}
          />
        ))}
      </ul>
      {(next !== null || last.isPending) && (
        <Button
          variant="outline"
          className="self-center"
          disabled={last.isPending}
          onClick={() => next !== null && setCursors([...cursors, next])}
        >
          {t('history.loadMore')}
        </Button>
      )}
    </div>
  );
}

/** The rows of one page (its query is shared with the list's own reads of the first and last page). */
function HistoryPageRows({
  address,
  filters,
  cursor,
  claiming,
  onClaim,
}: {
  address: string;
  filters: HistoryFilters;
  cursor: string | null;
  claiming: boolean;
  onClaim: ((entry: HistoryEntry) => void) | undefined;
}) {
  const page = useHistoryPage(address, filters, cursor);
  if (!page.data) return null;
  return page.data.entries.map((entry) =>
    entry.kind === 'bond' ? (
      <BondRow
        key={`bond:${entry.betId}`}
        entry={entry}
        claiming={claiming}
        onClaim={onClaim && entry.claimState === 'claimable' ? () => onClaim(entry) : undefined}
      />
    ) : (
      <HistoryRow
        key={`${entry.game}:${entry.betId}`}
        entry={entry}
        claiming={claiming}
        onClaim={onClaim && entry.claimState === 'claimable' ? () => onClaim(entry) : undefined}
      />
    ),
  );
}

const FATE_TONE = { held: 'brand', returned: 'yes', forfeited: 'no', returned_void: 'neutral' } as const;

/**
 * A flag's bond (decision 011): its market, the bond, what came back and the reward in it, the profit,
 * its fate and how its refund travels. The server decided every figure.
 */
function BondRow({
  entry,
  claiming,
  onClaim,
}: {
  entry: HistoryEntry;
  claiming: boolean;
  onClaim: (() => void) | undefined;
}) {
  const { t, language } = useTranslation();
  const title = useMarketTitle(entry.title ?? '', entry.priceTerms);
  const bond = entry.bond;
  if (!bond) return null;
  const money = (wei: string | null, signed = false) =>
    wei === null
      ? t('history.list.pendingValue')
      : formatBnb(wei, { language, signDisplay: signed ? 'exceptZero' : 'auto' });
  const profit = entry.profitWei === null ? 0n : BigInt(entry.profitWei);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <div className="min-w-0">
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <Badge>{t('history.bonds.badge')}</Badge>
          <Badge tone={FATE_TONE[bond.fate]}>{t(`history.bonds.fates.${bond.fate}`)}</Badge>
          {bond.refundState !== 'none' && (
            <Badge tone="brand">{t(`history.bonds.refundStates.${bond.refundState}`)}</Badge>
          )}
        </div>
        {entry.marketId !== null && (
          <Link to={`/market/${entry.marketId}`} className="font-semibold break-words hover:text-brand">
            {title}
          </Link>
        )}
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs tabular-nums sm:grid-cols-5">
          <Cell label={t('history.bonds.bond')}>{money(entry.stakeWei)}</Cell>
          <Cell label={t('history.bonds.returned')}>{money(entry.returnWei)}</Cell>
          <Cell label={t('history.bonds.reward')}>{money(bond.rewardWei)}</Cell>
          <Cell label={t('history.list.net')}>
            <span className={cx(profit > 0n && 'text-yes', profit < 0n && 'text-no')}>
              {money(entry.profitWei, true)}
            </span>
          </Cell>
          <Cell label={t('history.bonds.flagged')}>{formatDateTime(entry.placedAt, language)}</Cell>
        </dl>
      </div>
      {onClaim && (
        <ClaimBox
          returnWei={entry.returnWei}
          label={t('history.bonds.claim')}
          claiming={claiming}
          onClaim={onClaim}
        />
      )}
    </li>
  );
}

function HistoryRow({
  entry,
  claiming,
  onClaim,
}: {
  entry: HistoryEntry;
  claiming: boolean;
  onClaim: (() => void) | undefined;
}) {
  const { t, language } = useTranslation();
  const title = useMarketTitle(entry.title ?? '', entry.priceTerms);
  const money = (wei: string | null, signed = false) =>
    wei === null
      ? t('history.list.pendingValue')
      : formatBnb(wei, { language, signDisplay: signed ? 'exceptZero' : 'auto' });
  const profit = entry.profitWei === null ? 0n : BigInt(entry.profitWei);
  const resultTone =
    entry.result === 'won'
      ? 'yes'
      : entry.result === 'lost'
        ? 'no'
        : entry.result === 'pending'
          ? 'brand'
          : 'neutral';
  const sideUp = entry.side === 'YES' || entry.side === 'bull';
  const side = entry.game === 'oracle' ? (sideUp ? 'UP' : 'DOWN') : entry.side;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <Badge>{t(`history.list.games.${entry.game}`)}</Badge>
          <Badge tone={resultTone}>{t(`history.list.results.${entry.result}`)}</Badge>
          {entry.claimState === 'claimed' && (
            <Badge tone="brand">{t(`history.list.claimStates.${entry.claimState}`)}</Badge>
          )}
        </div>
        {entry.game === 'markets' && entry.marketId !== null ? (
          <Link to={`/market/${entry.marketId}`} className="font-semibold break-words hover:text-brand">
            {title}
          </Link>
        ) : (
          <span className="font-semibold">{t('history.list.round', { epoch: entry.epoch ?? 0 })}</span>
        )}
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs tabular-nums sm:grid-cols-5">
          <Cell label={t('history.prediction')}>
            <span className={sideUp ? 'text-yes' : 'text-no'}>{side}</span>
          </Cell>
          <Cell label={t('history.list.stake')}>{money(entry.stakeWei)}</Cell>
          <Cell label={t('history.list.payout')}>{money(entry.returnWei)}</Cell>
          <Cell label={t('history.list.net')}>
            <span className={cx(profit > 0n && 'text-yes', profit < 0n && 'text-no')}>
              {money(entry.profitWei, true)}
            </span>
          </Cell>
          <Cell label={t('history.list.placed')}>{formatDateTime(entry.placedAt, language)}</Cell>
        </dl>
      </div>
      {onClaim && (
        <ClaimBox
          returnWei={entry.returnWei}
          label={entry.game === 'oracle' ? t('history.list.claimRound') : t('history.claimPrize')}
          claiming={claiming}
          onClaim={onClaim}
        />
      )}
    </li>
  );
}

function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** What a claimable row offers: the amount it pays and its claim button. */
function ClaimBox(props: {
  returnWei: string | null;
  label: string;
  claiming: boolean | undefined;
  onClaim: () => void;
}) {
  const { t, language } = useTranslation();
  return (
    <div className="rounded-lg border border-brand/40 bg-brand/10 p-3 text-sm">
      <p className="mb-2">
        {t('history.claimPrizeHint', {
          amount: formatBnb(props.returnWei ?? '0', { language, symbol: null }),
        })}
      </p>
      <Button size="sm" disabled={props.claiming} onClick={props.onClaim}>
        {props.label}
      </Button>
    </div>
  );
}
