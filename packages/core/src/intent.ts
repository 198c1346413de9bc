import { hexToString, isHex, keccak256, stringToHex } from 'viem';
import { MAX_ROW_ID, type Position, type Prediction } from './constants.ts';

// docs/api.md "Paid requests", docs/architecture.md "Payment verification": what a paid request says
// it pays for, as text (pm1:bet:12:YES). The escrow deposit's own terms name the same market or round
// and side (decision 026), so a stranger cannot re-use someone else's fresh tx hash for another one;
// the payment row keeps the text, so the same request sent again is recognised. `encodeIntent` puts
// it in a plain transfer's data, which tests send to see it refused.

export type PaymentIntent =
  | { kind: 'create'; contentHash: `0x${string}`; prediction: Prediction }
  | { kind: 'bet'; marketId: number; prediction: Prediction }
  | { kind: 'round'; epoch: number; position: Position }
  /** A bond for flagging a market's proposed verdict (docs/decisions/011). */
  | { kind: 'flag'; marketId: number };

const INTENT_PREFIX = 'pm1';
const CONTENT_HASH = /^0x[0-9a-fA-F]{64}$/;
// Decimal, no sign, no leading zero: one id has exactly one spelling, so texts compare exactly.
const POSITIVE_DECIMAL = /^[1-9][0-9]*$/;

const CREATE_TEXT = /^pm1:create:(0x[0-9a-f]{64}):(YES|NO)$/;
const BET_TEXT = /^pm1:bet:([1-9][0-9]*):(YES|NO)$/;
const ROUND_TEXT = /^pm1:round:([1-9][0-9]*):(bull|bear)$/;
const FLAG_TEXT = /^pm1:flag:([1-9][0-9]*)$/;

function assertPositiveId(value: number, name: string, max: number): void {
  if (!Number.isSafeInteger(value) || value <= 0 || value > max) {
    throw new RangeError(`${name} must be a positive integer up to ${max}, got ${value}`);
  }
}

/**
 * 'pm1:create:<0x…64 lower-case hex>:YES' | 'pm1:bet:<marketId>:NO' | 'pm1:round:<epoch>:bull' |
 * 'pm1:flag:<marketId>'.
 */
export function intentText(intent: PaymentIntent): string {
  switch (intent.kind) {
    case 'create':
      if (!CONTENT_HASH.test(intent.contentHash)) throw new RangeError('contentHash must be 32 bytes of hex');
      return `${INTENT_PREFIX}:create:${intent.contentHash.toLowerCase()}:${intent.prediction}`;
    case 'bet':
      assertPositiveId(intent.marketId, 'marketId', MAX_ROW_ID);
      return `${INTENT_PREFIX}:bet:${intent.marketId}:${intent.prediction}`;
    case 'round':
      assertPositiveId(intent.epoch, 'epoch', Number.MAX_SAFE_INTEGER);
      return `${INTENT_PREFIX}:round:${intent.epoch}:${intent.position}`;
    case 'flag':
      assertPositiveId(intent.marketId, 'marketId', MAX_ROW_ID);
      return `${INTENT_PREFIX}:flag:${intent.marketId}`;
  }
}

/** The transaction `data` for this intent: its UTF-8 text as hex. */
export function encodeIntent(intent: PaymentIntent): `0x${string}` {
  return stringToHex(intentText(intent));
}

/** A decimal id no larger than `max`: a market id beyond what the database stores names no market. */
function parseId(text: string | undefined, max: number): number | null {
  if (text === undefined || !POSITIVE_DECIMAL.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value <= max ? value : null;
}

function parsePrediction(text: string | undefined): Prediction | null {
  return text === 'YES' || text === 'NO' ? text : null;
}

function parsePosition(text: string | undefined): Position | null {
  return text === 'bull' || text === 'bear' ? text : null;
}

function parseContentHash(text: string | undefined): `0x${string}` | null {
  return text !== undefined && isHex(text, { strict: true }) && CONTENT_HASH.test(text) ? text : null;
}

/** The intent a transaction's `data` states, or null for anything not exactly in the format. */
export function decodeIntent(data: `0x${string}` | string | undefined): PaymentIntent | null {
  if (data === undefined || !/^0x(?:[0-9a-fA-F]{2})+$/.test(data) || !isHex(data)) return null;
  const text = hexToString(data);
  // Decoding is lenient (a leading BOM is dropped, bad bytes become U+FFFD); insisting that the
  // text encodes back to the very same bytes keeps one intent to exactly one `data`.
  if (stringToHex(text) !== data.toLowerCase()) return null;

  const create = CREATE_TEXT.exec(text);
  if (create) {
    const contentHash = parseContentHash(create[1]);
    const prediction = parsePrediction(create[2]);
    return contentHash && prediction ? { kind: 'create', contentHash, prediction } : null;
  }
  const bet = BET_TEXT.exec(text);
  if (bet) {
    const marketId = parseId(bet[1], MAX_ROW_ID);
    const prediction = parsePrediction(bet[2]);
    return marketId !== null && prediction ? { kind: 'bet', marketId, prediction } : null;
  }
  const round = ROUND_TEXT.exec(text);
  if (round) {
    const epoch = parseId(round[1], Number.MAX_SAFE_INTEGER);
    const position = parsePosition(round[2]);
    return epoch !== null && position ? { kind: 'round', epoch, position } : null;
  }
  const flag = FLAG_TEXT.exec(text);
  if (flag) {
    const marketId = parseId(flag[1], MAX_ROW_ID);
    return marketId !== null ? { kind: 'flag', marketId } : null;
  }
  return null;
}

/** Whether two intents say the same thing (content hashes compare case-insensitively). */
export function sameIntent(a: PaymentIntent, b: PaymentIntent): boolean {
  switch (a.kind) {
    case 'create':
      return (
        b.kind === 'create' &&
        a.contentHash.toLowerCase() === b.contentHash.toLowerCase() &&
        a.prediction === b.prediction
      );
    case 'bet':
      return b.kind === 'bet' && a.marketId === b.marketId && a.prediction === b.prediction;
    case 'round':
      return b.kind === 'round' && a.epoch === b.epoch && a.position === b.position;
    case 'flag':
      return b.kind === 'flag' && a.marketId === b.marketId;
  }
}

/**
 * keccak256 of the UTF-8 bytes of the JSON array
 * `[category, duration, title ?? "", description, resolutionInstructions ?? ""]` as JSON.stringify
 * writes it (no spaces; `"`, `\\` and control characters escaped, everything else as is), the
 * strings exactly as sent (not trimmed), so the server can recompute it from the request body and
 * compare it with the hash the payment committed to. Each field is quoted and escaped, so no two
 * bodies share one text: joining by "\n" (the first formula) let a newline move text from one
 * field to the next with the same hash (docs/decisions/008).
 */
export function marketContentHash(input: {
  category: string;
  duration: string;
  title?: string | null;
  description: string;
  resolutionInstructions?: string | null;
}): `0x${string}` {
  const text = JSON.stringify([
    input.category,
    input.duration,
    input.title ?? '',
    input.description,
    input.resolutionInstructions ?? '',
  ]);
  return keccak256(stringToHex(text));
}

/**
 * Whether a payment already recorded is exactly what a request claims (docs/architecture.md
 * "Payment verification"): the same payer, the same amount and the same intent. The same request sent
 * again answers with what was recorded; any other use of the hash is TX_ALREADY_USED.
 */
export function isSameClaim(
  recorded: { fromAddress: string; amountWei: bigint; intentText: string },
  claim: { from: string; amountWei: bigint; intent: PaymentIntent },
): boolean {
  return (
    recorded.fromAddress.toLowerCase() === claim.from.toLowerCase() &&
    recorded.amountWei === claim.amountWei &&
    recorded.intentText === intentText(claim.intent)
  );
}
