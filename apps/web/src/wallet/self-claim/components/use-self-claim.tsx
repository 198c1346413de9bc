import type { ClaimResponse } from '@pm/core/contract/claims';
import {
  type RelayedStake,
  type RelayOutcome,
  type SelfClaimStake,
  selfClaimGame,
} from '@pm/core/self-claim';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { Address } from 'viem';
import { useAppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { showClaimToast } from '#lib/claim-toast.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { toast } from '#ui/toast.ts';
import {
  forgetRelayedClaims,
  loadRelayedClaims,
  recordRelayOutcome,
  rememberRelay,
} from '../api/relayed-claims.ts';

// Decision 026 "Claim": what every claim button on the escrow shares (the oracle page's card, a
// market page's claimable panel, My Bets): the relays this browser asked, remembered per wallet, and the
// wallet's own claim offered where a relay did not land. The wallet's own claim, its strings and the
// contract's ABI load only where the deployment names an escrow.

const SelfClaim = lazy(() => import('./self-claim.tsx').then((module) => ({ default: module.SelfClaim })));

/** What the server's answer says of the relay: refused, on its way, or final. */
function relayOutcome(answer: ClaimResponse): RelayOutcome {
  if (!answer.success) return 'failed';
  return answer.payoutStatus === 'confirmed' ? 'confirmed' : 'pending';
}

type Game = 'oracle' | 'markets' | 'all';

/**
 * The self-claim state of one page: `listed` are the server's claimable stakes of `game` with their
 * escrow claims. `claimCallbacks(stakes, failedText)` is called as a claim is sent, with the stakes it
 * asks the server to relay: it remembers them and answers the claim's callbacks, which record the
 * server's answer (a relay kept with no answer is still offered SELF_CLAIM_AFTER_MS later) and show
 * the claim's toasts (`failedText` when it fails). `slot` renders the wallet's own claim and its credits.
 */
export function useSelfClaim(address: Address, game: Game, listed: SelfClaimStake[]) {
  const { t, language } = useTranslation();
  const { data: config, dataUpdatedAt } = useAppConfig();
  const escrow = config.escrow;
  const serverOffsetMs = dataUpdatedAt > 0 ? Date.parse(config.serverTime) - dataUpdatedAt : 0;
  const [relayed, setRelayed] = useRelayedClaims(address);
  // A game's page offers its own game's stakes (My Bets: all of them).
  const ofGame = useMemo(
    () => (game === 'all' ? relayed : relayed.filter((stake) => selfClaimGame(stake) === game)),
    [relayed, game],
  );

  const asking = (stakes: SelfClaimStake[]) => {
    const at = Date.now() + serverOffsetMs;
    const remembering = escrow !== null && stakes.length > 0;
    if (remembering) setRelayed(rememberRelay(address, stakes, at));
    return (outcome: RelayOutcome) => {
      if (remembering) setRelayed(recordRelayOutcome(address, at, outcome));
    };
  };

  const claimCallbacks = (stakes: SelfClaimStake[], failedText: string) => {
    const answered = asking(stakes);
    return {
      onSuccess: (answer: ClaimResponse) => {
        answered(relayOutcome(answer));
        showClaimToast(answer, { t, language, failed: failedText });
      },
      onError: (error: Error) => {
        answered('failed');
        toast.error(apiErrorMessage(t, error, failedText));
      },
    };
  };

  const onSpent = useCallback(
    (stakeIds: ReadonlySet<string>) => setRelayed(forgetRelayedClaims(address, stakeIds)),
    [address, setRelayed],
  );

  const slot = escrow ? (
    <Suspense fallback={null}>
      <SelfClaim
        address={address}
        escrow={{ address: escrow.address as Address, chainId: escrow.chainId }}
        serverOffsetMs={serverOffsetMs}
        listed={listed}
        relayed={ofGame}
        onSpent={onSpent}
      />
    </Suspense>
  ) : null;
  return { claimCallbacks, slot };
}

/** The relayed stakes kept for `address`, read again when the wallet changes. */
function useRelayedClaims(address: string) {
  const [kept, setKept] = useState(() => ({ address, relayed: loadRelayedClaims(address) }));
  const current = kept.address === address ? kept : { address, relayed: loadRelayedClaims(address) };
  if (current !== kept) setKept(current);
  const setRelayed = useCallback((relayed: RelayedStake[]) => setKept({ address, relayed }), [address]);
  return [current.relayed, setRelayed] as const;
}

/** A claimable market bet's or returned bond's stake on the escrow, for the wallet's own claim. */
export function marketSelfClaimStakes(claimable: {
  markets: {
    bets: ReadonlyArray<{
      id: number;
      marketId: number;
      market: { title: string };
      escrowClaim: SelfClaimStake['claim'] | null;
    }>;
  };
  bonds: {
    bonds: ReadonlyArray<{
      marketId: number;
      marketTitle: string;
      escrowClaim: SelfClaimStake['claim'] | null;
    }>;
  };
}): Array<SelfClaimStake & { betId: number | null }> {
  return [
    ...claimable.markets.bets.flatMap((bet) =>
      bet.escrowClaim
        ? [
            {
              betId: bet.id,
              market: { id: bet.marketId, title: bet.market.title, bond: false },
              claim: bet.escrowClaim,
            },
          ]
        : [],
    ),
    ...claimable.bonds.bonds.flatMap((bond) =>
      bond.escrowClaim
        ? [
            {
              betId: null,
              market: { id: bond.marketId, title: bond.marketTitle, bond: true },
              claim: bond.escrowClaim,
            },
          ]
        : [],
    ),
  ];
}
