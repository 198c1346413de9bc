import { ApiError } from './api.ts';
import { exampleBet } from './bet.ts';
import { exampleCreatePrice } from './create-price.ts';
import { readSettings, UsageError } from './settings.ts';

// `npm run example -- <name> …`: runnable examples for bot authors (docs/api.md "Examples"). Each prints
// its transaction and, as its last line, what the API recorded, as JSON.

const USAGE = `Usage:
  npm run example -- bet <marketId> <YES|NO> <amountBNB>
  npm run example -- create-price <COIN> <above|below> <target> <hourly|daily> <YES|NO> <amountBNB>
Settings: PRIVATE_KEY (required), RPC_URL (default http://127.0.0.1:8545), API_URL (default http://127.0.0.1:8787).`;

const EXAMPLES = { bet: exampleBet, 'create-price': exampleCreatePrice } as const;

const [name, ...args] = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);
try {
  const example = name && Object.hasOwn(EXAMPLES, name) ? EXAMPLES[name as keyof typeof EXAMPLES] : null;
  if (!example) throw new UsageError(name ? `There is no example "${name}".` : 'Name an example.');
  await example(readSettings(), args, print);
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `${error instanceof ApiError || error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
