// The database schema, one file per area (db/schema/), gathered into the one object drizzle's client
// is typed by (client.ts) and drizzle-kit reads (drizzle.config.ts).

export * from './schema/bets.ts';
export * from './schema/escrow.ts';
export * from './schema/escrow-deposits.ts';
export * from './schema/leaderboard.ts';
export * from './schema/markets.ts';
export * from './schema/operator-transactions.ts';
export * from './schema/operators.ts';
export * from './schema/oracle.ts';
export * from './schema/payments.ts';
export * from './schema/prices.ts';
export * from './schema/realtime.ts';
export * from './schema/settlement.ts';
