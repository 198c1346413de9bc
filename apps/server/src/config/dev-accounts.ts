/**
 * Hardhat's public dev mnemonic ("test test … junk"). Account #0 is the dev operator key; #1.. are players;
 * #20–#22 hold the escrow's other roles, #23 writes the local chain's price feeds. These keys are public: they are used only when CHAIN_ID is
 * the local chain (31337).
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** #0: the operator key the server holds on the local chain (gas only; never the escrow's admin). */
export const DEV_OPERATOR = {
  address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
} as const;

export const DEV_PLAYERS = [
  {
    address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
  {
    address: '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
    privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  },
] as const;

/**
 * The escrow contract's roles on the local chain (decision 026 "The chain"): `npm start` deploys it from
 * the admin. Its operator is DEV_OPERATOR, the key the server holds (never the admin). Accounts no test
 * bets from (chain/hardhat.config.ts funds them), so a fee or a deploy's gas moves no bettor's balance;
 * and the admin's nonce is 0 on every fresh chain, so the contract has the same address at every start.
 */
export const DEV_ESCROW_ROLES = {
  /** #20: deploys, unpauses, sets the operator, the guardian and the limits. */
  admin: {
    address: '0x09db0a93b389bef724429898f539aeb7ac2dd55f',
    privateKey: '0xeaa861a9a01391ed3d587d8a5a84ca56ee277629a8b02c22093a419bf240e65d',
  },
  /** #21: pauses and vetoes. */
  guardian: {
    address: '0x02484cb50aac86eae85610d6f4bf026f30f6627d',
    privateKey: '0xc511b2aa70776d4ff1d376e8537903dae36896132c90b91d52c1dfbae267cd8b',
  },
  /** #22: receives the fees (it signs nothing). */
  treasury: { address: '0x08135da0a343e492fa2d4282f2ae34c6c5cc1bbe' },
} as const;

/**
 * #23: the local chain's price feeds' node (docs/decisions/029, 031): it deploys each coin's aggregator
 * and proxy (its nonces from 0 on every fresh chain, so the same addresses at every start) and is the
 * only account that publishes their rounds, as a Chainlink node does on BSC.
 */
export const DEV_FEED_WRITER = {
  address: '0x5e661b79fe2d3f6ce70f5aac07d8cd9abb2743f1',
  privateKey: '0x4624e0802698b9769f5bdb260a3777fbd4941ad2901f5966b854f953497eec1b',
} as const;
