/** The generic `injected()` connector's id; EIP-6963 connectors use the wallet's rdns instead. */
const GENERIC_INJECTED_ID = 'injected';

export const METAMASK_RDNS = 'io.metamask';

type ConnectorLike = { id: string; type: string };

/**
 * The wallets a user can connect with, best first (docs/product.md §6: MetaMask, else the first found).
 * Wallets announced through EIP-6963 come in discovery order; the generic injected connector is
 * offered only when nothing announced itself but `window.ethereum` exists (an older wallet), since
 * otherwise it is the same wallet again under a second name.
 */
export function orderConnectors<Connector extends ConnectorLike>(
  connectors: readonly Connector[],
  hasInjectedProvider: boolean,
): Connector[] {
  const announced = connectors.filter(
    (connector) => connector.type === 'injected' && connector.id !== GENERIC_INJECTED_ID,
  );
  if (announced.length > 0) {
    const metaMask = announced.filter((connector) => connector.id === METAMASK_RDNS);
    const others = announced.filter((connector) => connector.id !== METAMASK_RDNS);
    return [...metaMask, ...others];
  }
  if (!hasInjectedProvider) return [];
  return connectors.filter((connector) => connector.id === GENERIC_INJECTED_ID);
}
