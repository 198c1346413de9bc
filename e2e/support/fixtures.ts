import { test as base, expect } from '@playwright/test';

function requiredEnv(name: 'E2E_BASE_URL' | 'E2E_RPC_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: global-setup.ts starts the stack and sets it`);
  return value;
}

/** The stack's web and API origin (set by global-setup.ts). */
export function baseUrl(): string {
  return requiredEnv('E2E_BASE_URL');
}

/** The local Hardhat node the stack runs on (set by global-setup.ts). */
export function rpcUrl(): string {
  return requiredEnv('E2E_RPC_URL');
}

/**
 * `test` with the stack's base URL read when a test runs, after global setup has started the stack
 * (the config file itself may be evaluated before that).
 */
export const test = base.extend<{ contentSecurityPolicy: undefined }>({
  baseURL: async ({ baseURL }, use) => {
    await use(baseURL ?? baseUrl());
  },
  // The server sends a strict CSP (apps/server/src/http/security-headers.ts). Chromium reports
  // what it blocks on the console; any such report fails the test, so the built app is proven
  // to work under the policy.
  contentSecurityPolicy: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use(undefined);
      expect(violations, 'the page broke the Content Security Policy').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
