import { parseBnb } from '@pm/core/money';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defineChain } from 'viem';
import { afterEach, describe, expect, test } from 'vitest';
import { createConfig, http, mock, WagmiProvider } from 'wagmi';
import { connect, getConnection } from 'wagmi/actions';
import { getBalanceQueryKey } from 'wagmi/query';
import { TestI18n } from '#testing/test-i18n.tsx';
import { Toaster } from '#ui/toaster.tsx';
import { WalletContext } from '../wallet-context.ts';
import { WalletMenu } from './wallet-menu.tsx';

// docs/product.md §2 wallet menu, and the WAI-ARIA menu button pattern it follows
// (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/).

afterEach(cleanup);

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TRIGGER_NAME = 'Wallet 0x7099...79C8';
const ITEM_NAMES = ['My Bets', 'Copy Address', 'View on Explorer', 'Disconnect'];

// A testnet, so the symbol shown is the chain's own, not the 'BNB' default.
const chain = defineChain({
  id: 97,
  name: 'BNB Smart Chain Testnet',
  nativeCurrency: { name: 'BNB', symbol: 'tBNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
});

async function renderMenu() {
  const wagmiConfig = createConfig({
    chains: [chain],
    connectors: [mock({ accounts: [ADDRESS], features: { reconnect: true } })],
    transports: { [chain.id]: http() },
  });
  const connector = wagmiConfig.connectors[0];
  if (!connector) throw new Error('the mock connector is missing');
  await connect(wagmiConfig, { connector, chainId: chain.id });
  // The balance is put in the query cache, fresh for good: the chain read itself is covered
  // against the local chain by e2e/tests/wallet.spec.ts; here it is the menu's showing of it.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(getBalanceQueryKey({ address: ADDRESS, chainId: chain.id }), {
    decimals: 18,
    symbol: 'tBNB',
    value: parseBnb('1.23456789'),
  });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <WagmiProvider config={wagmiConfig}>
        <WalletContext value={{ chain, connect: () => {}, isConnecting: false }}>
          <TestI18n>
            <WalletMenu address={ADDRESS} />
            <button type="button">After the menu</button>
            <Toaster />
          </TestI18n>
        </WalletContext>
      </WagmiProvider>
    </QueryClientProvider>,
  );
  // WagmiProvider reconnects on mount; the tests start once the wallet is back.
  await waitFor(() => expect(getConnection(wagmiConfig).status).toBe('connected'));
  return { user, wagmiConfig, trigger: screen.getByRole('button', { name: TRIGGER_NAME }) };
}

function item(name: string) {
  return screen.getByRole('menuitem', { name });
}

describe('WalletMenu', () => {
  test('The trigger says it opens a menu, whether it is open, and which menu it controls', async () => {
    const { user, trigger } = await renderMenu();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    await user.click(trigger);
    const menu = screen.getByRole('menu', { name: TRIGGER_NAME });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((element) => element.textContent),
    ).toEqual(ITEM_NAMES);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .every((element) => element.tabIndex === -1),
    ).toBe(true);
  });

  test('Wallet Info shows the address, the network and the balance with 4 decimals and the symbol', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('Wallet Info')).toBeVisible();
    expect(within(menu).getByText('0x7099...79C8')).toBeVisible();
    expect(within(menu).getByText('BNB Smart Chain Testnet')).toBeVisible();
    expect(within(menu).getByTestId('wallet-balance').textContent).toBe('1.2345 tBNB');
  });

  test('Enter on the trigger opens the menu and focuses its first item', async () => {
    const { user, trigger } = await renderMenu();
    trigger.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeVisible();
    expect(document.activeElement).toBe(item('My Bets'));
  });

  test('A click on the trigger opens the menu on its first item, and another click closes it', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    expect(document.activeElement).toBe(item('My Bets'));
    await user.click(trigger);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  test('ArrowDown on the trigger opens the menu on its first item, ArrowUp on its last', async () => {
    const { user, trigger } = await renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(item('My Bets'));

    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(item('Disconnect'));
  });

  test('ArrowDown, ArrowUp, Home and End move focus among the items, wrapping at either end', async () => {
    const { user, trigger } = await renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    const focusedAfter = async (key: string) => {
      await user.keyboard(key);
      return document.activeElement?.textContent;
    };
    expect(await focusedAfter('{ArrowDown}')).toBe('Copy Address');
    expect(await focusedAfter('{ArrowDown}')).toBe('View on Explorer');
    expect(await focusedAfter('{ArrowDown}')).toBe('Disconnect');
    expect(await focusedAfter('{ArrowDown}')).toBe('My Bets');
    expect(await focusedAfter('{ArrowUp}')).toBe('Disconnect');
    expect(await focusedAfter('{ArrowUp}')).toBe('View on Explorer');
    expect(await focusedAfter('{Home}')).toBe('My Bets');
    expect(await focusedAfter('{End}')).toBe('Disconnect');
  });

  test('Escape closes the menu and returns focus to the trigger', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(trigger);
  });

  test('Tab closes the menu and focus moves on to what follows the trigger', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After the menu' }));
  });

  test('A click outside closes the menu', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  test('A click on the menu’s text keeps it open', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    await user.click(screen.getByText('Wallet Info'));
    expect(screen.getByRole('menu')).toBeVisible();
  });

  test('Copy Address puts the full address on the clipboard, says so and closes the menu', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    await user.click(item('Copy Address'));
    expect(await navigator.clipboard.readText()).toBe(ADDRESS);
    expect(await screen.findByText('Address copied to clipboard')).toBeVisible();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  test('Enter on a focused item runs it and closes the menu', async () => {
    const { user, trigger } = await renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(await navigator.clipboard.readText()).toBe(ADDRESS);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  test('My Bets goes to /my-bets, and Space works on it as on any item', async () => {
    const { user, trigger } = await renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    await user.keyboard(' ');
    expect(window.location.pathname).toBe('/my-bets');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  test('View on Explorer opens the address page in a new tab without an opener', async () => {
    const { user, trigger } = await renderMenu();
    await user.click(trigger);
    const link = item('View on Explorer');
    expect(link.getAttribute('href')).toMatch(new RegExp(`/address/${ADDRESS}$`));
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  test('Disconnect disconnects the wallet', async () => {
    const { user, trigger, wagmiConfig } = await renderMenu();
    await user.click(trigger);
    await user.click(item('Disconnect'));
    await waitFor(() => expect(getConnection(wagmiConfig).status).toBe('disconnected'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
