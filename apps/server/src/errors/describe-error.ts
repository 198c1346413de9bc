import { AppError } from './app-error.ts';

// One line from any error, for a row's last error, a log's reason or a doctor's line: one function
// for all three. viem's long message quotes the whole request and the RPC URL, which may carry a
// key: only its short message and the node's own words (`details`) are kept, and any URL left is
// redacted.

/** What a row's error column and a log line can hold comfortably. */
const MAX_LENGTH = 500;

/**
 * The error in one bounded line: an AppError's code; else viem's short message with the node's
 * details (what the payouts read: "nonce too low", "already known"), an HTTP status when there is
 * one, and the system error code along the causes (ECONNREFUSED). URLs become `<url>`.
 */
export function describeError(error: unknown): string {
  return redactUrls(describe(error).replace(/\s+/g, ' ').trim()).slice(0, MAX_LENGTH);
}

function describe(error: unknown): string {
  if (error instanceof AppError) return error.code;
  if (!(error instanceof Error)) return String(error);
  const short = 'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : '';
  const details = 'details' in error && typeof error.details === 'string' ? firstLine(error.details) : '';
  const status = 'status' in error && typeof error.status === 'number' ? ` (HTTP ${error.status})` : '';
  let text = (firstLine(short || error.message) || error.name).replace(/\.$/, '') + status;
  if (short && details) text = `${text}: ${details}`;
  const code = systemCode(error);
  return code && !text.includes(code) ? `${text} (${code})` : text;
}

/** The first `code` like ECONNREFUSED along the cause chain. */
function systemCode(error: unknown): string | undefined {
  for (let at = error, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    if ('code' in at && typeof at.code === 'string' && /^E[A-Z]+$/.test(at.code)) return at.code;
    at = 'cause' in at ? at.cause : undefined;
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

function redactUrls(text: string): string {
  return text.replace(/\b(?:https?|wss?):\/\/\S+/gi, '<url>');
}
