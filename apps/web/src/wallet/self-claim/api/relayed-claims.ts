import { EscrowClaimSchema } from '@pm/core/contract/payout-lists';
import type { RelayedStake, RelayOutcome, SelfClaimStake } from '@pm/core/self-claim';
import * as z from 'zod/mini';

// The stakes (round bets, market bets, flag bonds) this browser asked the server to relay, per
// wallet, kept in localStorage so a
// relay that never lands is still offered to the wallet's own claim after a reload (a server may stop
// listing a stake while its relay is under way). Forgotten once the chain shows the stake spent, and after
// KEEP_MS in any case.

const KEEP_MS = 30 * 24 * 60 * 60_000;
/** At most this many stakes per wallet: the newest relays are kept. */
const KEEP_MAX = 200;

const RelayedStakeSchema = z.object({
  /** A round bet's epoch, or a market's bet or bond: exactly one (entries kept before markets have epoch). */
  epoch: z.optional(z.int()),
  market: z.optional(z.object({ id: z.int(), title: z.string(), bond: z.boolean() })),
  at: z.number(),
  outcome: z.enum(['sent', 'failed', 'pending', 'confirmed']),
  claim: EscrowClaimSchema,
});

// The key's name is from when only round stakes were relayed: kept, so nothing asked before is lost.
const storageKey = (address: string) => `pm.relayedRoundClaims.${address.toLowerCase()}`;

/** The stakes relayed for `address` (only what parses; nothing older than KEEP_MS). */
export function loadRelayedClaims(address: string, nowMs = Date.now()): RelayedStake[] {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(storageKey(address)) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.flatMap((item) => {
      const parsed = RelayedStakeSchema.safeParse(item);
      if (!parsed.success || nowMs - parsed.data.at >= KEEP_MS) return [];
      const { epoch, market } = parsed.data;
      return (epoch === undefined) === (market === undefined) ? [] : [parsed.data];
    });
  } catch {
    return [];
  }
}

function store(address: string, stakes: RelayedStake[]): RelayedStake[] {
  const kept = [...stakes].sort((a, b) => b.at - a.at).slice(0, KEEP_MAX);
  try {
    window.localStorage.setItem(storageKey(address), JSON.stringify(kept));
  } catch {
    // storage disabled: the offer still holds for this page's life (the caller keeps what we answer)
  }
  return kept;
}

/** Remembers that these stakes' relay was asked at `at` (answer not known yet); answers the new list. */
export function rememberRelay(address: string, stakes: SelfClaimStake[], at = Date.now()): RelayedStake[] {
  const asked = new Set(stakes.map((stake) => stake.claim.stakeId));
  const others = loadRelayedClaims(address, at).filter((stake) => !asked.has(stake.claim.stakeId));
  return store(address, [...others, ...stakes.map((stake) => ({ ...stake, at, outcome: 'sent' as const }))]);
}

/** Records the server's answer to the relay asked at `at`; answers the new list. */
export function recordRelayOutcome(address: string, at: number, outcome: RelayOutcome): RelayedStake[] {
  return store(
    address,
    loadRelayedClaims(address).map((stake) => (stake.at === at ? { ...stake, outcome } : stake)),
  );
}

/** Forgets stakes the chain shows spent (paid or refunded, by anyone); answers the new list. */
export function forgetRelayedClaims(address: string, stakeIds: ReadonlySet<string>): RelayedStake[] {
  return store(
    address,
    loadRelayedClaims(address).filter((stake) => !stakeIds.has(stake.claim.stakeId)),
  );
}
