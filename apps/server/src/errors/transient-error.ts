import { HttpRequestError, LimitExceededRpcError, RpcRequestError, TimeoutError } from 'viem';
import { AppError } from './app-error.ts';

// docs/architecture.md "Jobs": a transient fault (RPC or database unreachable, rate-limited, timed out) is
// retried and never read as a refusal; anything else about one row is that row's problem, recorded
// on it, and the job moves on. This is the one place that tells the two apart.

/** Node socket errors: the other side is down, restarting or unreachable for now. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * PostgreSQL SQLSTATEs that say "try again": connection exceptions (class 08), the server shutting
 * down or starting (57P01–57P03), too many connections, serialization failures and deadlocks.
 */
const TRANSIENT_SQLSTATE = /^(08...|57P0[1-3]|53300|40001|40P01)$/;

/** node-postgres reports a lost connection by message, without a code. */
const PG_CONNECTION_MESSAGES = [
  'connection terminated',
  'client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'cannot use a pool after calling end',
  'client was closed',
  'connection not open',
];

/** JSON-RPC codes for "busy, try later": limit exceeded (-32005) and the node's internal error. */
const TRANSIENT_RPC_CODES = new Set([-32005, -32603]);

/** Whether an error is a passing fault of the RPC or the database, to be retried as it is. */
export function isTransientError(error: unknown): boolean {
  return transientFault(error) !== null;
}

/** Which passing fault an error is: of the chain (RPC), of the database, or none. */
export function transientFault(error: unknown): 'chain' | 'database' | null {
  for (const cause of causes(error)) {
    if (cause instanceof AppError) {
      if (cause.code === 'CHAIN_UNAVAILABLE') return 'chain';
      continue;
    }
    if (
      cause instanceof HttpRequestError ||
      cause instanceof TimeoutError ||
      cause instanceof LimitExceededRpcError
    ) {
      return 'chain';
    }
    if (cause instanceof RpcRequestError && TRANSIENT_RPC_CODES.has(cause.code)) return 'chain';
    if (!(cause instanceof Error)) continue;
    const code = 'code' in cause ? cause.code : undefined;
    if (typeof code === 'string' && TRANSIENT_SQLSTATE.test(code)) return 'database';
    // A socket error under a viem error was caught above; a bare one here is the database pool's.
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'database';
    const message = cause.message.toLowerCase();
    if (PG_CONNECTION_MESSAGES.some((text) => message.includes(text))) return 'database';
  }
  return null;
}

/** The error and its causes, outermost first (drizzle and viem both wrap). Bounded against cycles. */
function* causes(error: unknown): Generator<unknown> {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    yield current;
    current = current instanceof Error ? current.cause : undefined;
  }
}
