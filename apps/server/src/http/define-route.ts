import { normalizeAddress } from '@pm/core/address';
import type { RouteSpec } from '@pm/core/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { en } from 'zod/locales';
import type * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import type { WalletRead } from '../wallet-reads/wallet-changes.ts';
import { type SerializedResponse, sendSerialized, serializeResponse } from './http-caching.ts';
import { type CachedStore, wantsFreshRead } from './response-cache.ts';

type Infer<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

/**
 * The contract is zod/mini, which installs no locale: without one, every message the contract does
 * not spell out itself would read "Invalid input". Validation messages are part of the API's
 * VALIDATION_FAILED answers, so they are English here whatever else is loaded.
 */
const englishErrors = en().localeError;

export type RouteInput<R extends RouteSpec> = {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']>;
};

export type RouteOutput<R extends RouteSpec> = {
  [S in keyof R['responses'] & number]: {
    status: S;
    body: z.input<R['responses'][S]>;
    /** Extra response headers (e.g. Content-Disposition for a download); not with a response cache. */
    headers?: Record<string, string>;
  };
}[keyof R['responses'] & number];

export type RouteOptions<R extends RouteSpec = RouteSpec> = {
  /** A stricter limit for this route, per client address, e.g. `{ max: 10, timeWindow: '1 minute' }`. */
  rateLimit?: { max: number; timeWindow: string };
  /**
   * A store of the response cache (decision 017) for a public read: its answers are kept as sent,
   * bytes and ETag, keyed by the URL. Never for per-user reads.
   */
  cache?: CachedStore<SerializedResponse>;
  /**
   * True for a request that reads a wallet's own data on an otherwise public route (e.g. a filter
   * by address): it is answered `private, no-cache` and never from or into `cache`.
   */
  isPrivate?: (request: FastifyRequest) => boolean;
  /**
   * A wallet's own read (decision 032): its answers are kept, bytes and ETag, keyed by the URL, in
   * the wallet read cache under the wallet `address` names, until one of its events drops them.
   */
  walletRead?: { read: WalletRead; address: (input: RouteInput<R>) => string };
  /**
   * A write a wallet makes: once it succeeds, the wallet's kept reads on this instance are dropped
   * before the answer leaves (other instances drop them when they hear the change, decision 032).
   */
  writesWallet?: (input: RouteInput<R>) => string;
};

/**
 * Registers one endpoint of the contract: input parsed with its zod schemas (unknown fields → 400),
 * output parsed with the schema of the status it answers, so the server cannot drift from the
 * contract the web and outside clients rely on.
 */
export function defineRoute<R extends RouteSpec>(
  app: FastifyInstance,
  spec: R,
  handler: NoInfer<(input: RouteInput<R>, request: FastifyRequest) => Promise<RouteOutput<R>>>,
  options: NoInfer<RouteOptions<R>> = {},
): void {
  app.route({
    method: spec.method,
    url: spec.path,
    // A route-level limit replaces the app-wide one for this route (@fastify/rate-limit).
    ...(options.rateLimit ? { config: { rateLimit: options.rateLimit } } : {}),
    handler: async (request, reply) => {
      const own = options.isPrivate?.(request) ?? false;
      if (own) reply.header('cache-control', 'private, no-cache');
      const cache = own ? undefined : options.cache;
      if (cache) {
        const answer = async () => {
          const { status, body } = await answerParsed(parseAll(request), request);
          return serializeResponse(status, body);
        };
        return sendSerialized(reply, await cache.read(request.url, answer, request));
      }
      const input = parseAll(request);
      const wallet = options.walletRead;
      if (wallet) {
        const answer = async () => {
          const { status, body } = await answerParsed(input, request);
          return serializeResponse(status, body);
        };
        const address = normalizeAddress(wallet.address(input));
        return sendSerialized(
          reply,
          await app.walletReads.read(wallet.read, address, request.url, answer, wantsFreshRead(request)),
        );
      }
      const { status, body, headers } = await answerParsed(input, request);
      // After the write's commit, before its answer: the writer's next read here holds its write.
      if (options.writesWallet && status >= 200 && status < 300) {
        app.walletReads.dropWallet(options.writesWallet(input));
      }
      if (headers) reply.headers(headers);
      return reply.code(status).send(body);
    },
  });

  function parseAll(request: FastifyRequest): RouteInput<R> {
    return {
      params: parseInput(spec.params, request.params),
      query: parseInput(spec.query, request.query),
      body: parseInput(spec.body, request.body),
    } as RouteInput<R>;
  }

  async function answerParsed(
    input: RouteInput<R>,
    request: FastifyRequest,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const output = await handler(input, request);
    const schema: z.ZodMiniType | undefined = spec.responses[output.status];
    if (!schema) throw new Error(`${spec.path} answered ${output.status}, which its contract does not list`);
    return {
      status: output.status,
      body: schema.parse(output.body, { error: englishErrors }),
      ...(output.headers ? { headers: output.headers } : {}),
    };
  }
}

function parseInput(schema: z.ZodMiniType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {}, { error: englishErrors });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AppError('VALIDATION_FAILED', `${where}${issue?.message ?? 'invalid input'}`);
}
