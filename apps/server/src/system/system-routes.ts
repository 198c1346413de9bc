import { CHAINS, isSupportedChainId, MIN_MARKET_BET_WEI, MIN_ORACLE_BET_WEI } from '@pm/core/constants';
import { ROUTES } from '@pm/core/contract/routes';
import type { FastifyInstance } from 'fastify';
import { getAddress } from 'viem';
import type { AppDeps } from '../app-deps.ts';
import { disputeBondReaderOf } from '../escrow/settlements/dispute-bond.ts';
import { creatorPageSlots } from '../evidence/evidence-settings.ts';
import { cacheFor } from '../http/cache-for.ts';
import { defineRoute } from '../http/define-route.ts';
import { buildOpenApiDocument } from '../http/openapi.ts';
import { pingDatabase } from './system-repository.ts';

/**
 * /api/health is free of rate limits (load balancers poll it), so it must cost next to nothing:
 * the database and chain check runs at most this often, whatever the request rate.
 */
const HEALTH_CHECK_EVERY_MS = 3_000;

export function registerSystemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, database, chain, clock } = deps;
  const openApi = buildOpenApiDocument();
  // Decision 026: a flag's bond is the escrow's (its immutables, read once); null without one.
  const disputeBond = disputeBondReaderOf(chain, config.escrow.address);

  const checkHealth = cacheFor(HEALTH_CHECK_EVERY_MS, async () => {
    await pingDatabase(database.db);
    return chain.getBlockNumber({ cacheTime: 0 });
  });

  defineRoute(app, ROUTES.health, async () => {
    const blockNumber = await checkHealth();
    return {
      status: 200,
      body: {
        status: 'ok',
        db: database.kind,
        chainId: config.chain.id,
        blockNumber: blockNumber.toString(),
      },
    };
  });

  defineRoute(app, ROUTES.config, async () => {
    const bond = disputeBond ? await disputeBond.params().catch(() => null) : null;
    const known = isSupportedChainId(config.chain.id) ? CHAINS[config.chain.id] : undefined;
    return {
      status: 200,
      body: {
        chainId: config.chain.id,
        chainName: known?.name ?? `Chain ${config.chain.id}`,
        rpcUrl: config.chain.publicRpcUrl,
        explorerUrl: known?.explorerUrl ?? null,
        minMarketBetWei: MIN_MARKET_BET_WEI.toString(),
        minOracleBetWei: MIN_ORACLE_BET_WEI.toString(),
        marketFeeBps: config.fees.marketBps,
        oracleFeeBps: config.fees.oracleBps,
        flagBondMinWei: bond ? bond.minWei.toString() : null,
        flagBondBps: bond ? bond.bps : null,
        roundIntervalS: config.rounds.intervalS,
        bettingWindowS: config.rounds.bettingWindowS,
        priceFeed: config.prices.feed,
        aiConfigured: Boolean(config.ai.baseUrl),
        // Decision 019: what judges new markets and what it reads.
        resolution: {
          models: config.ai.baseUrl ? [...config.ai.models] : [],
          searchProvider: config.evidence.searchProvider,
          maxPages: config.evidence.maxPages,
          maxCreatorPages: creatorPageSlots(config.evidence, config.evidence.searchProvider !== null),
          minSources: config.evidence.minSources,
          minConfidence: config.ai.minConfidence,
        },
        // The operator key relays claims; without it (or the escrow) a wallet claims itself.
        claimsEnabled: Boolean(config.escrow.address && config.operator.privateKey),
        // The escrow contract, on the deployment's chain (GET /api/vault describes it).
        escrow: config.escrow.address
          ? { address: getAddress(config.escrow.address), chainId: config.chain.id }
          : null,
        operatorAddresses: [...config.operators],
        serverTime: clock.now().toISOString(),
      },
    };
  });

  app.get('/api/openapi.json', async () => openApi);
}
