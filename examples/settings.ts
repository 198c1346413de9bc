import type { Hex } from 'viem';

// The settings every example reads, as the server's own: the bettor's key from PRIVATE_KEY, the chain
// from RPC_URL and the API from API_URL (each defaults to `npm start`'s local stack).

export type ExampleSettings = { privateKey: Hex; rpcUrl: string; apiUrl: string };

export function readSettings(env: NodeJS.ProcessEnv = process.env): ExampleSettings {
  const privateKey = env.PRIVATE_KEY?.trim();
  if (!privateKey || !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
    throw new UsageError(
      "Set PRIVATE_KEY to the bettor account's key (0x and 64 hex digits). On `npm start`'s chain the " +
        'banner lists funded dev accounts and their keys.',
    );
  }
  return {
    privateKey: privateKey as Hex,
    rpcUrl: env.RPC_URL?.trim() || 'http://127.0.0.1:8545',
    apiUrl: (env.API_URL?.trim() || 'http://127.0.0.1:8787').replace(/\/+$/, ''),
  };
}

/** A mistake in the command line or the settings: printed with the usage, exit code 2. */
export class UsageError extends Error {}
