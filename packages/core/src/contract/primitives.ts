import * as z from 'zod/mini';
import {
  COMPARISON_TYPES,
  MARKET_CATEGORIES,
  MARKET_DURATIONS,
  MAX_ROW_ID,
  POSITIONS,
  PREDICTIONS,
  PRICE_SYMBOLS,
} from '../constants.ts';

// Wire primitives of docs/api.md: wei as decimal-integer strings, addresses in any case,
// ISO-8601 UTC times. Parsing to bigint happens at the edges (server handlers, web formatters).
// The contract is written in zod/mini so the web bundle does not ship zod classic (~23 kB gzip).

/** Wei amount as a decimal-integer string: no sign, no leading zeros, at most 78 digits (uint256). */
export const WeiSchema = z
  .string()
  .check(z.regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a whole number of wei as a decimal string'));

/**
 * A signed wei amount as a decimal-integer string: a profit or a P&L, negative for a loss. No "-0",
 * no "+", no leading zeros.
 */
export const SignedWeiSchema = z
  .string()
  .check(z.regex(/^(0|-?[1-9][0-9]{0,77})$/, 'must be a whole number of wei as a decimal string'));

/**
 * A paid amount in a request: wei as a decimal string, and never 0. A 0-wei "payment" moves no
 * money and must not reach payment verification.
 */
export const PaymentWeiSchema = z
  .string()
  .check(z.regex(/^[1-9][0-9]{0,77}$/, 'must be a positive whole number of wei as a decimal string'));

export const AddressSchema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address'));

export const TxHashSchema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hash'));

export const IsoTimeSchema = z.iso.datetime({ offset: true });

/** USD price as a decimal string (the feed's 8 decimals at most). */
export const UsdPriceSchema = z.string().check(z.regex(/^[0-9]+(\.[0-9]{1,8})?$/));

/** A row id from outside (path or body): positive, and no larger than the database stores. */
export const IdSchema = z.coerce.number().check(z.int(), z.positive(), z.maximum(MAX_ROW_ID));

export const PredictionSchema = z.enum(PREDICTIONS);
export const PositionSchema = z.enum(POSITIONS);
export const CategorySchema = z.enum(MARKET_CATEGORIES);
export const DurationSchema = z.enum(MARKET_DURATIONS);
export const PriceSymbolSchema = z.enum(PRICE_SYMBOLS);
export const ComparisonTypeSchema = z.enum(COMPARISON_TYPES);

/**
 * A price market's target in USD as the creator typed it: positive, at most 2 decimals, no sign,
 * exponent or separators. Sent exactly as typed: the create hash commits to this text.
 */
export const TargetPriceSchema = z.string().check(
  z.regex(/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/, 'must be a USD price with at most 2 decimals'),
  z.refine((text) => /[1-9]/.test(text), 'must be greater than 0'),
);
