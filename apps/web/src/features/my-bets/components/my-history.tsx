import type { HistoryEntry } from '@pm/core/contract/history';
import type { SelfClaimStake } from '@pm/core/self-claim';
import { Inbox } from 'lucide';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { useClaimWinnings } from '#api/claim-winnings.ts';
import { CLAIMABLE_QUERY_KEY } from '#api/claimable-query-key.ts';
import { useClaimable } from '#api/get-claimable.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Icon } from '#ui/icon.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { marketSelfClaimStakes, useSelfClaim } from '#wallet/self-claim/components/use-self-claim.tsx';
import { HISTORY_QUERY_KEY } from '../api/get-history.ts';
import { HistoryPanel } from './history-panel.tsx';

/**
 * The connected wallet's history and P&L, with a claim button on each claimable bet (decision 012). Bets and
 * returned bonds on the escrow are relayed by the claim; where a relay fails or does not land, the
 * wallet's own claim is offered above the list (wallet/self-claim, decision 026 "Claim").
 */
export function MyHistory({ address }: { address: `0x${string}` }) {
  useNamespace('history');
  const { t } = useTranslation();
  const claim = useClaimWinnings([HISTORY_QUERY_KEY, CLAIMABLE_QUERY_KEY]);
  // The escrow claims of what the wallet can claim (the history's rows do not carry proofs).
  const claimable = useClaimable(address, 'markets');
  const stakes = useMemo<Array<SelfClaimStake & { betId: number | null }>>(() => {
    const data = claimable.data;
    if (!data) return [];
    const rounds = data.oracle.bets.flatMap((bet) =>
      bet.escrowClaim ? [{ betId: null, epoch: bet.epoch, claim: bet.escrowClaim }] : [],
    );
    return [...marketSelfClaimStakes(data), ...rounds];
  }, [claimable.data]);
  const listed = useMemo<SelfClaimStake[]>(
    () => stakes.map(({ betId: _betId, ...stake }) => stake),
    [stakes],
  );
  const selfClaim = useSelfClaim(address, 'all', listed);

  const onClaim = (entry: HistoryEntry) => {
    // A market bet is claimed on its own (a bond with every market stake); the claims API pays a
    // wallet's round winnings together.
    const body =
      entry.game === 'oracle'
        ? ({ userAddress: address, scope: 'oracle' } as const)
        : entry.kind === 'bond'
          ? ({ userAddress: address, scope: 'markets' } as const)
          : ({ userAddress: address, scope: 'markets', betId: entry.betId } as const);
    const asked = stakes.filter((stake) =>
      entry.game === 'oracle'
        ? stake.epoch !== undefined
        : entry.kind === 'bond'
          ? stake.market !== undefined
          : stake.betId === entry.betId,
    );
    claim.mutate(
      body,
      selfClaim.claimCallbacks(
        asked.map(({ betId: _betId, ...stake }) => stake),
        t('history.claimFailed'),
      ),
    );
  };

  return (
    <>
      {/* The wallet's own claims and its credit on the escrow: nothing shows while there is none. */}
      {selfClaim.slot}
      <HistoryPanel
        address={address}
        claiming={claim.isPending}
        onClaim={onClaim}
        empty={
          <StatusMessage
            icon={<Icon node={Inbox} />}
            action={
              <Link to="/predictions" className="font-semibold text-brand underline">
                {t('history.browse')}
              </Link>
            }
          >
            {t('history.empty')}
          </StatusMessage>
        }
      />
    </>
  );
}
