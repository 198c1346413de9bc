import type { Round } from '@pm/core/contract/oracle';
import { useEffect, useState } from 'react';
import { LAST_SEEN_EPOCH_KEY, nextConcludedState, readLastSeenEpoch } from '../utils/concluded-round.ts';

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    // Storage can be disabled (privacy settings): then no modal, never an error.
    return undefined;
  }
}

/**
 * docs/product.md §4: the round to announce in the concluded-round modal, if an ended epoch newer than the one
 * last seen (localStorage) just appeared. On the first visit the epoch is only stored.
 */
/** `latestEnded` is undefined while the rounds are loading. */
export function useConcludedRound(latestEnded: Round | null | undefined) {
  const [announcedEpoch, setAnnouncedEpoch] = useState<number | null>(null);
  const epoch = latestEnded === undefined ? undefined : (latestEnded?.epoch ?? null);
  useEffect(() => {
    const storage = browserStorage();
    const { store, announce } = nextConcludedState(readLastSeenEpoch(storage), epoch);
    if (store !== null) storage?.setItem(LAST_SEEN_EPOCH_KEY, String(store));
    if (announce !== null) setAnnouncedEpoch(announce);
  }, [epoch]);
  const announced = latestEnded && latestEnded.epoch === announcedEpoch ? latestEnded : null;
  return { announced, dismiss: () => setAnnouncedEpoch(null) };
}
