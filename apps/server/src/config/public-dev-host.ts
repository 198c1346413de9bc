import { CHAIN_ID } from '@pm/core/constants';
import ipaddr from 'ipaddr.js';

// On the local chain (31337) the server mounts the dev stack, whose
// POST /api/dev/price sets the simulated price every round settles on, and hands out the public dev
// keys. Served beyond this machine, anyone on the network could pick a round's outcome. So a
// non-loopback HOST on the local chain is refused unless ALLOW_PUBLIC_DEV=1 says it is meant.

/** `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x` are loopback; everything else (0.0.0.0, ::, a name) is not. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (bare === 'localhost') return true;
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}

/** Why HOST must not be served on this chain, or undefined when it may. */
export function publicDevHostRefusal(settings: {
  host: string;
  chainId: number;
  allowPublicDev: boolean;
}): string | undefined {
  const { host, chainId, allowPublicDev } = settings;
  if (chainId !== CHAIN_ID.local || allowPublicDev || isLoopbackHost(host)) return undefined;
  return (
    `  HOST: ${host} would serve the local dev stack to the network (chain ${CHAIN_ID.local}: ` +
    'POST /api/dev/price sets the price rounds settle on, and the dev keys are public). Use ' +
    '127.0.0.1, or set ALLOW_PUBLIC_DEV=1 if every machine that can reach it is yours.'
  );
}

/** The same question asked of the raw environment, for `npm start` before it starts anything. */
export function publicDevHostRefusalFromEnv(env: Record<string, string | undefined>): string | undefined {
  return publicDevHostRefusal({
    host: env.HOST || '127.0.0.1',
    chainId: Number(env.CHAIN_ID || CHAIN_ID.local),
    allowPublicDev: env.ALLOW_PUBLIC_DEV === '1' || env.ALLOW_PUBLIC_DEV === 'true',
  });
}
