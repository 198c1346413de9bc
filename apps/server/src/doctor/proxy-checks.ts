import type { Db } from '../db/client.ts';
import {
  readUntrustedForwardedFor,
  UNTRUSTED_FORWARDED_FOR_NOTE,
} from '../operators/operators-repository.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

/**
 * TRUST_PROXY=0 while requests arrive with X-Forwarded-For: the server
 * noted it in the database (http/untrusted-forwarded-for.ts); behind a proxy, every client then
 * shares the proxy's rate-limit bucket, WebSocket cap and Analyze budget.
 */
export async function checkTrustProxy(trustProxy: number, db: Db): Promise<CheckOutcome> {
  if (trustProxy > 0) return passed(`${trustProxy} proxy hop${trustProxy === 1 ? '' : 's'} trusted`);
  const seenAt = await readUntrustedForwardedFor(db);
  if (!seenAt) return passed('0, and no request has come with X-Forwarded-For');
  return failed(
    `0, but requests came with X-Forwarded-For (first at ${seenAt.toISOString()}): behind a reverse proxy ` +
      'every client shares its address for rate limits and caps; set TRUST_PROXY to the number of proxies. ' +
      `With no proxy in front, a client sent it: clear the note with ` +
      `delete from server_secrets where name = '${UNTRUSTED_FORWARDED_FOR_NOTE}'`,
  );
}
