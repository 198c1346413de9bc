import type { PriceSymbol } from '@pm/core/constants';

// Chainlink's USD aggregator proxies on BNB Smart Chain mainnet (chain 56), one per coin of a price
// market (docs/decisions/020). Never invented: each address is copied from Chainlink's own published
// feed list and cross-checked against a second, independent source.
//
// Source 1 (Chainlink's): npm package @chainlink/mcp-server@0.0.1-alpha.17, published by Chainlink,
//   file data/feeds/bnb-chain.json, network "BNB Chain Mainnet" (queryString bnb-mainnet); every
//   entry below is listed there with "decimals": 8.
// Source 2: public BSC projects that read the same proxies (found with the code index, Nov 2026):
//   BNB  — the repository README (decision 004) and many BSC contracts ("Chainlink: BNB/USD Price Feed").
//   BTC  — BSC configs listing 'BTC/USD' next to 'BNB/USD' 0x0567… (e.g. `bsc: { 'BTC/USD': … }`).
//   ETH  — the same BSC configs ('ETH/USD'), and `priceFeeds[BSC][ETH]` in a multi-chain contract.
//   SOL, XRP, DOGE — a BSC contract's `solPriceFeed`, `xrpPriceFeed`, `dogePriceFeed` beside bnbPriceFeed 0x0567….
//   ADA  — a BSC feed allow-list ("ADA/USD: 0xa767…" beside "ADA/BNB"). The same address is ETH/USD
//          on Gnosis: addresses collide across chains, so this list is for chain 56 only.
//   AVAX — `BSC_AVAX_USD_PRICE_FEED` and `priceFeeds[BSC][AVAX]` in BSC projects.
// No mainnet RPC is reachable where this was written, so start-up checks each one (decimals 8 and a
// fresh round) and marks a coin that fails unavailable (prices-module.ts, decision 020).
export const CHAINLINK_BSC_MAINNET_USD_FEEDS: Readonly<Record<PriceSymbol, `0x${string}`>> = {
  BTC: '0x264990fbd0a4796a3e3d8e37c4d5f87a3aca5ebf',
  ETH: '0x9ef1b8c0e4f7dc8bf5719ea496883dc6401d5b2e',
  BNB: '0x0567f2323251f0aab15c8dfb1967e4e8a7d42aee',
  SOL: '0x0e8a53dd9c13589df6382f13da6b3ec8f919b323',
  XRP: '0x93a67d414896a280bf8ffb3b389fe3686e014fda',
  ADA: '0xa767f745331d267c7751297d982b050c93985627',
  AVAX: '0x5974855ce31ee8e1fff2e76591cbf83d7110f151',
  DOGE: '0x3ab0a0d137d4f946fbb19eecc6e92e64660231c8',
};
