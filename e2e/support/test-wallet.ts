import type { Page } from '@playwright/test';

/**
 * An injected test wallet (docs/development.md "Browser tests"): an EIP-1193 provider added before any page
 * script runs, announced through EIP-6963 and also set as `window.ethereum`, that forwards
 * JSON-RPC to the local Hardhat node. Hardhat's dev accounts are unlocked, so eth_sendTransaction
 * and personal_sign work without a key: the real wagmi connect and payment flows run unchanged.
 */

export const TEST_WALLET_RDNS = 'dev.pm.testwallet';
export const TEST_WALLET_NAME = 'Test Wallet';

/** Hardhat's default mnemonic; #0 is the server's operator key, so players are #1–#3. */
export const DEV_ACCOUNTS = {
  operator: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  player1: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  player2: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  player3: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
} as const;

export type TestWalletOptions = {
  /** The dev account the wallet signs with. */
  account: string;
  /** The Hardhat node, e.g. process.env.E2E_RPC_URL. */
  rpcUrl: string;
  /** The chain the wallet reports at start; default: the node's own chain id. */
  chainId?: number;
  /** Reject the first send (eth_sendTransaction or a signature) with 4001. */
  rejectNextSend?: boolean;
  /** Announce under another identity, e.g. 'io.metamask' / 'MetaMask' to test the preference. */
  rdns?: string;
  name?: string;
};

/** What the page-side controller exposes on `window.__testWallet`. */
type TestWalletState = {
  accounts: string[];
  chainId: number;
  requests: string[];
};

type TestWalletControl = {
  state: () => TestWalletState;
  setChainId: (chainId: number) => void;
  rejectNextRequest: () => void;
  rejectNextSend: () => void;
  disconnectAccounts: () => void;
};

declare global {
  interface Window {
    __testWallet?: TestWalletControl;
  }
}

type InitArgs = {
  account: string;
  rpcUrl: string;
  chainId: number | null;
  rejectNextSend: boolean;
  rdns: string;
  name: string;
};

/** Runs inside the page (serialised by addInitScript): it may use nothing from this module's scope. */
function walletInitScript(args: InitArgs) {
  type Listener = (...values: unknown[]) => void;
  type RequestArguments = { method: string; params?: unknown };

  const USER_REJECTED = { code: 4001, message: 'User rejected the request.' };
  const UNAUTHORIZED = { code: 4100, message: 'The requested account has not been authorized by the user.' };
  // Requests a real wallet would show the user, who could reject them.
  const PROMPT_METHODS = new Set([
    'eth_requestAccounts',
    'wallet_requestPermissions',
    'wallet_switchEthereumChain',
    'wallet_addEthereumChain',
    'eth_sendTransaction',
    'personal_sign',
    'eth_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
  ]);
  const SEND_METHODS = new Set([
    'eth_sendTransaction',
    'personal_sign',
    'eth_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
  ]);

  const listeners = new Map<string, Set<Listener>>();
  let accounts: string[] = [];
  let chainId: number | null = args.chainId;
  let rejectNext = false;
  let rejectNextSendFlag = args.rejectNextSend;
  const requests: string[] = [];
  let rpcId = 0;

  const providerError = (error: { code: number; message: string; data?: unknown }) =>
    Object.assign(new Error(error.message), { code: error.code, data: error.data });

  const emit = (event: string, ...values: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...values);
  };

  const forward = async (method: string, params: unknown): Promise<unknown> => {
    const response = await fetch(args.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: params ?? [] }),
    });
    const body: { result?: unknown; error?: { code: number; message: string; data?: unknown } } =
      await response.json();
    if (body.error) throw providerError(body.error);
    return body.result;
  };

  const currentChainId = async (): Promise<number> => {
    if (chainId === null) chainId = Number(await forward('eth_chainId', []));
    return chainId;
  };

  const grantAccounts = () => {
    if (accounts.length === 0) {
      accounts = [args.account];
      emit('accountsChanged', accounts);
    }
    return accounts;
  };

  const request = async ({ method, params }: RequestArguments): Promise<unknown> => {
    requests.push(method);
    const list = Array.isArray(params) ? params : [];
    if ((rejectNext && PROMPT_METHODS.has(method)) || (rejectNextSendFlag && SEND_METHODS.has(method))) {
      rejectNext = false;
      if (SEND_METHODS.has(method)) rejectNextSendFlag = false;
      throw providerError(USER_REJECTED);
    }
    switch (method) {
      case 'eth_requestAccounts':
        return grantAccounts();
      case 'eth_accounts':
        return accounts;
      case 'eth_chainId':
        return `0x${(await currentChainId()).toString(16)}`;
      case 'net_version':
        return String(await currentChainId());
      case 'wallet_requestPermissions':
        grantAccounts();
        return [
          {
            parentCapability: 'eth_accounts',
            caveats: [{ type: 'restrictReturnedAccounts', value: accounts }],
          },
        ];
      case 'wallet_getPermissions':
        return accounts.length
          ? [
              {
                parentCapability: 'eth_accounts',
                caveats: [{ type: 'restrictReturnedAccounts', value: accounts }],
              },
            ]
          : [];
      case 'wallet_revokePermissions':
        accounts = [];
        emit('accountsChanged', accounts);
        return null;
      case 'wallet_switchEthereumChain': {
        const [target] = list as Array<{ chainId?: string }>;
        const next = Number(target?.chainId);
        if (next !== (await currentChainId())) {
          chainId = next;
          emit('chainChanged', `0x${next.toString(16)}`);
        }
        return null;
      }
      case 'wallet_addEthereumChain':
        return null;
      case 'eth_sendTransaction':
      case 'personal_sign':
      case 'eth_sign':
      case 'eth_signTypedData_v4': {
        if (accounts.length === 0) throw providerError(UNAUTHORIZED);
        return forward(method, params);
      }
      default:
        return forward(method, params);
    }
  };

  const provider = {
    isTestWallet: true,
    request,
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };

  const icon =
    'data:image/svg+xml;utf8,' +
    encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0ecb81"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#0b0e11">T</text></svg>',
    );
  const info = Object.freeze({ uuid: crypto.randomUUID(), name: args.name, icon, rdns: args.rdns });
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    );
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, writable: false });

  window.__testWallet = {
    state: () => ({ accounts: [...accounts], chainId: chainId ?? 0, requests: [...requests] }),
    setChainId(next: number) {
      chainId = next;
      emit('chainChanged', `0x${next.toString(16)}`);
    },
    rejectNextRequest() {
      rejectNext = true;
    },
    rejectNextSend() {
      rejectNextSendFlag = true;
    },
    disconnectAccounts() {
      accounts = [];
      emit('accountsChanged', accounts);
    },
  };
}

/** Installs the test wallet in every page (and reload) of this page's context. */
export async function installTestWallet(page: Page, options: TestWalletOptions): Promise<void> {
  await page.addInitScript(walletInitScript, {
    account: options.account,
    rpcUrl: options.rpcUrl,
    chainId: options.chainId ?? null,
    rejectNextSend: options.rejectNextSend ?? false,
    rdns: options.rdns ?? TEST_WALLET_RDNS,
    name: options.name ?? TEST_WALLET_NAME,
  } satisfies InitArgs);
}

/** Drives the wallet installed in `page` from the test. */
export function testWallet(page: Page) {
  return {
    /** The wallet switches chain on its own (as a user would in MetaMask) and emits chainChanged. */
    setChainId: (chainId: number) => page.evaluate((id) => window.__testWallet?.setChainId(id), chainId),
    /** The next prompt (connect, switch chain, send, sign) is rejected with 4001 'User rejected the request.'. */
    rejectNextRequest: () => page.evaluate(() => window.__testWallet?.rejectNextRequest()),
    /** The next transaction or signature is rejected with 4001. */
    rejectNextSend: () => page.evaluate(() => window.__testWallet?.rejectNextSend()),
    /** The wallet forgets this site (accountsChanged with no accounts). */
    disconnectAccounts: () => page.evaluate(() => window.__testWallet?.disconnectAccounts()),
    /** Accounts granted, the chain reported and every method the page called, in order. */
    state: async (): Promise<TestWalletState> => {
      const state = await page.evaluate(() => window.__testWallet?.state());
      if (!state) throw new Error('The test wallet is not installed in this page');
      return state;
    },
  };
}
