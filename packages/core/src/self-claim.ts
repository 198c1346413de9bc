import type { EscrowClaim } from './contract/payout-lists.ts';

// Decision 026 "Claim": the Claim button asks the server, which relays the escrow's claim from
// the operator key (a round bet's, a market bet's or a returned flag bond's). When that relay fails, answers that it is still on its way, or has not landed a few
// minutes after it was asked, the web offers the wallet's own `claim` (or `refund`) with the published
// proof. These are the rules of that offer; whether the stake is still open is the chain's to say.

/** How long after a relayed claim was asked the wallet's own claim is offered if the relay did not land. */
export const SELF_CLAIM_AFTER_MS = 3 * 60_000;

/**
 * What became of a relayed claim, as the wallet saw it: `sent` (asked, no answer yet, or the page closed
 * before one), `failed` (an error or a refusal), `pending` (the server answered that its transaction is
 * on its way) or `confirmed` (the server answered that it is final).
 */
export type RelayOutcome = 'sent' | 'failed' | 'pending' | 'confirmed';

/** A market's stake: its market, and whether it is a flag's bond (else a bet). */
export type SelfClaimMarket = { id: number; title: string; bond: boolean };

/**
 * A stake the wallet may claim itself: what it is, a round bet (`epoch`) or a market's bet or bond
 * (`market`), exactly one of them, and what the contract's call needs.
 */
export type SelfClaimStake = { epoch?: number; market?: SelfClaimMarket; claim: EscrowClaim };

/** A stake whose payout the wallet asked the server to relay: when, with what answer, and its claim. */
export type RelayedStake = SelfClaimStake & { at: number; outcome: RelayOutcome };

/** The game a stake is of: a round's, or a market's (its bets and bonds). */
export function selfClaimGame(stake: Pick<SelfClaimStake, 'market'>): 'oracle' | 'markets' {
  return stake.market ? 'markets' : 'oracle';
}

/**
 * When the wallet's own claim of a relayed stake is offered (ms since the epoch): once the contract pays
 * (claimableAt), and once the relay failed or is on its way, or SELF_CLAIM_AFTER_MS after it was asked
 * (a relay that answered final but left the stake open, or whose answer never came).
 */
export function selfClaimOpensAt(relay: Pick<RelayedStake, 'at' | 'outcome'>, claim: EscrowClaim): number {
  const claimableAt = Date.parse(claim.claimableAt);
  const relayWait =
    relay.outcome === 'failed' || relay.outcome === 'pending' ? relay.at : relay.at + SELF_CLAIM_AFTER_MS;
  return Math.max(claimableAt, relayWait);
}

/**
 * The stakes the wallet's own claim is offered for at `nowMs`, newest stake first (stake ids grow with
 * time: the newest round or bet first), and the next time
 * another one opens (null: none waits). A stake counts once it was relayed; the server's current list
 * gives its claim when it still lists it (a list amended since holds the proof that pays), else the
 * claim kept when it was relayed (a server may stop listing a stake while its relay is under way). Never
 * a stake the server never had a chance to pay: the wallet asks it first.
 */
export function selfClaimOffer(
  listed: ReadonlyArray<SelfClaimStake>,
  relayed: ReadonlyArray<RelayedStake>,
  nowMs: number,
): { offered: SelfClaimStake[]; nextAtMs: number | null } {
  const current = new Map(listed.map((stake) => [stake.claim.stakeId, stake]));
  const offered: SelfClaimStake[] = [];
  let nextAtMs: number | null = null;
  for (const relay of relayed) {
    const { at: _at, outcome: _outcome, ...kept } = relay;
    const stake = current.get(relay.claim.stakeId) ?? kept;
    const opensAt = selfClaimOpensAt(relay, stake.claim);
    if (Number.isNaN(opensAt)) continue;
    if (opensAt <= nowMs) offered.push(stake);
    else nextAtMs = nextAtMs === null ? opensAt : Math.min(nextAtMs, opensAt);
  }
  offered.sort((a, b) => {
    const [later, earlier] = [BigInt(b.claim.stakeId), BigInt(a.claim.stakeId)];
    return later > earlier ? 1 : later < earlier ? -1 : 0;
  });
  return { offered, nextAtMs };
}
