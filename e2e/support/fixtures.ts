import { test as base } from '@playwright/test';

function requiredEnv(name: 'E2E_BASE_URL' | 'E2E_RPC_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup.ts starts the stack and sets it`);
  return value;
}

/** The local Hardhat node the stack runs on (set by global-setup.ts). */
export function rpcUrl(): string {
  return requiredEnv('E2E_RPC_URL');
}

/**
 * `test` with the stack's base URL read when a test runs, after global setup has started the stack
 * (the config file itself may be evaluated before that).
 */
export const test = base.extend({
  baseURL: async ({ baseURL }, use) => {
    await use(baseURL ?? requiredEnv('E2E_BASE_URL'));
  },
});

export { expect } from '@playwright/test';
