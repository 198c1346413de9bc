import * as z from 'zod/mini';
import { isFinalRefusal } from './is-final-refusal.ts';

// Payments made but not yet recorded by the server, kept in localStorage until the server has them:
// a closed tab, a dropped connection or a server hiccup between the wallet's payment and the POST
// never loses a paid bet. The server's reconciliation records them from their intent too; this is the quick path. One store for every kind of payment; each feature
// gives it its storage key, the schema of what it keeps and the request that records it.

export type PendingPayments<Payment, Answer> = {
  /** What is stored and valid; anything else in storage is ignored. */
  load(): Payment[];
  /** Keeps the payment (once per transaction hash) until `record` or `retry` gets it recorded. */
  save(payment: Payment): void;
  /** Posts; forgets the stored copy once the server has it or has refused it for good. */
  record(payment: Payment): Promise<Answer>;
  /** On page load: posts again every stored payment; how many the server took. */
  retry(): Promise<number>;
};

const StoredListSchema = z.array(z.unknown());

export function createPendingPayments<Payment, Answer>(options: {
  /** localStorage key; `hasStoredList(key)` tells cheaply whether anything waits. */
  key: string;
  schema: z.ZodMiniType<Payment>;
  txHashOf: (payment: Payment) => string;
  post: (payment: Payment) => Promise<Answer>;
}): PendingPayments<Payment, Answer> {
  const { key, schema, txHashOf, post } = options;

  const load = (): Payment[] => {
    try {
      const stored = StoredListSchema.safeParse(JSON.parse(window.localStorage.getItem(key) ?? '[]'));
      if (!stored.success) return [];
      return stored.data.flatMap((item) => {
        const parsed = schema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    } catch {
      return [];
    }
  };

  const store = (payments: Payment[]): void => {
    try {
      window.localStorage.setItem(key, JSON.stringify(payments));
    } catch {
      // storage disabled: the server's reconciliation still records the payment from the chain
    }
  };

  const forget = (txHash: string): void => store(load().filter((payment) => txHashOf(payment) !== txHash));

  const record = async (payment: Payment): Promise<Answer> => {
    try {
      const answer = await post(payment);
      forget(txHashOf(payment));
      return answer;
    } catch (error) {
      if (isFinalRefusal(error)) forget(txHashOf(payment));
      throw error;
    }
  };

  return {
    load,
    save: (payment) => store([...load().filter((other) => txHashOf(other) !== txHashOf(payment)), payment]),
    record,
    retry: async () => {
      let taken = 0;
      for (const payment of load()) {
        try {
          await record(payment);
          taken += 1;
        } catch {
          // kept (or forgotten if refused); tried again next time
        }
      }
      return taken;
    },
  };
}
