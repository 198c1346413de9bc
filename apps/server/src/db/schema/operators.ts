import { pgTable, text } from 'drizzle-orm/pg-core';
import { time } from './columns.ts';

// Operator nonces and the secrets every instance of a deployment shares.

/** Single-use nonces for operator signatures (docs/architecture.md "Operators"). */
/**
 * Operator nonces that have been USED: issuing one writes nothing (it is an HMAC of its
 * expiry and randomness under `server_secrets`' key), so no stranger can fill this table; a row is
 * written only by an operator's verified action, and kept until the nonce expires, so a replay is
 * refused.
 */
export const operatorNonces = pgTable('operator_nonces', {
  nonce: text('nonce').primaryKey(),
  expiresAt: time('expires_at').notNull(),
  usedAt: time('used_at'),
});

/**
 * Secrets every instance of one deployment shares, made once by whichever instance needs one first
 * (the operator-nonce HMAC key). Never sent anywhere; a database dump holds them.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: time('created_at').notNull().defaultNow(),
});
