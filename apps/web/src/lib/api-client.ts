import { ErrorBodySchema } from '@pm/core/contract/errors';
import type { ROUTES } from '@pm/core/contract/routes';
import type * as z from 'zod/mini';

// Paths are typed from core's ROUTES table, the one list the server registers and the OpenAPI
// document is built from: a path it does not have fails the typecheck. Only its type is used:
// importing the table itself pulls every contract schema into the first chunk (+2.3 kB gzip on
// every app route, docs/decisions/006).

type Route = (typeof ROUTES)[keyof typeof ROUTES];

/** `/api/markets/:id/odds` → `/api/markets/${string}/odds`: each `:param` filled by any text. */
type FilledPath<Path extends string> = Path extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${FilledPath<Tail>}`
  : Path extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : Path;

/** A path of ROUTES for `method`, its params filled, with or without a query string. */
type ApiPath<Method extends Route['method']> =
  | FilledPath<Extract<Route, { method: Method }>['path']>
  | `${FilledPath<Extract<Route, { method: Method }>['path']>}?${string}`;

/**
 * An API failure with the server's error code (docs/api.md), or one of two client-side codes:
 * NETWORK (no answer) and UNEXPECTED_RESPONSE (an answer that does not match the contract).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = status;
  }
}

type RequestOptions = { signal?: AbortSignal | undefined };

/** GET a JSON endpoint and parse the answer with its contract schema: nothing unparsed reaches the UI. */
export function apiGet<Schema extends z.ZodMiniType>(
  path: ApiPath<'GET'>,
  schema: Schema,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  return request(path, schema, { method: 'GET', signal: options.signal ?? null });
}

/** POST a JSON body; the answer is parsed like apiGet's. */
export function apiPost<Schema extends z.ZodMiniType>(
  path: ApiPath<'POST'>,
  body: unknown,
  schema: Schema,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  return request(path, schema, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal ?? null,
  });
}

async function request<Schema extends z.ZodMiniType>(
  path: string,
  schema: Schema,
  init: RequestInit,
): Promise<z.output<Schema>> {
  // Resolved against the document so the same code runs in the browser and in jsdom tests.
  const url = new URL(path, document.baseURI);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    throw new ApiError('NETWORK', 'Could not reach the server', 0, { cause });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = ErrorBodySchema.safeParse(body);
    if (error.success) throw new ApiError(error.data.error.code, error.data.error.message, response.status);
    throw new ApiError('UNEXPECTED_RESPONSE', `HTTP ${response.status}`, response.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('UNEXPECTED_RESPONSE', 'The answer does not match the API contract', response.status, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
