import { type PlaceOracleBetBody, PlaceOracleBetBodySchema } from '@pm/core/contract/oracle';
import * as z from 'zod/mini';
import { isFinalRefusal, PENDING_ORACLE_BETS_KEY as STORAGE_KEY } from './pending-oracle-bets-key.ts';
import { type PlaceOracleBetAnswer, placeOracleBet } from './place-oracle-bet.ts';

// A paid round bet is kept in localStorage until the server has it (issue 11), as the markets
// dialog keeps its payments (features/markets/api/record-payment.ts): a closed tab, a dropped
// connection or a server hiccup between the payment and POST /api/oracle/bets never loses it.
// (The server's vault reconciliation records it from its intent too; this is the quick path.)

const StoredSchema = z.array(PlaceOracleBetBodySchema);

export function loadPendingOracleBets(): PlaceOracleBetBody[] {
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function store(bets: PlaceOracleBetBody[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(bets));
  } catch {
    // storage disabled: reconciliation still records the payment from the chain
  }
}

export function savePendingOracleBet(body: PlaceOracleBetBody): void {
  store([...loadPendingOracleBets().filter((bet) => bet.txHash !== body.txHash), body]);
}

export function forgetPendingOracleBet(txHash: string): void {
  store(loadPendingOracleBets().filter((bet) => bet.txHash !== txHash));
}

/** Posts the bet; forgets the stored copy once the server has it or has refused it for good. */
export async function recordOracleBet(body: PlaceOracleBetBody): Promise<PlaceOracleBetAnswer> {
  try {
    const answer = await placeOracleBet(body);
    forgetPendingOracleBet(body.txHash);
    return answer;
  } catch (error) {
    if (isFinalRefusal(error)) forgetPendingOracleBet(body.txHash);
    throw error;
  }
}

/** On page load: post again every bet paid but not recorded before; how many the server took. */
export async function retryPendingOracleBets(): Promise<number> {
  let recorded = 0;
  for (const body of loadPendingOracleBets()) {
    try {
      await recordOracleBet(body);
      recorded += 1;
    } catch {
      // kept (or forgotten if refused); tried again next time
    }
  }
  return recorded;
}
