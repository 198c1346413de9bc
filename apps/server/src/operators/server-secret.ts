import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { storeOrReadServerSecret } from './operators-repository.ts';

/**
 * The deployment's secret called `name` (32 random bytes, hex): made by the first instance that asks
 * (an insert that loses a race changes nothing) and read back, so every instance on one database
 * holds the same key. Cached per process and per database.
 */
export function createServerSecret(db: Db, name: string): () => Promise<Buffer> {
  let cached: Promise<Buffer> | null = null;
  const load = async () => {
    const value = await storeOrReadServerSecret(db, name, randomBytes(32).toString('hex'));
    if (!value) throw new Error(`server secret ${name} could not be read back`);
    return Buffer.from(value, 'hex');
  };
  return () => {
    // A failed read (database down) is not cached: the next request tries again.
    cached ??= load().catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}
