import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

/**
 * The server's logger. Every line passes through a filter that blanks the secrets the config holds:
 * RPC keys in a URL's path, query or user info (viem's errors print the request URL, so an RPC
 * failure would otherwise write the key into the log), the database password, the AI key, the
 * operator key and the escrow role keys.
 */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const redact = createRedactor(config);
  const options = {
    level: config.logLevel,
    hooks: { streamWrite: redact },
  };
  return destination ? pino(options, destination) : pino(options);
}

const REDACTED = '[redacted]';

/** The same filter for any text shown to an operator (ops doctor's reasons quote viem's errors). */
export function createRedactor(config: Config): (text: string) => string {
  const secrets = secretFragments(config);
  return (text) => redactSecrets(text, secrets);
}

function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out;
}

/** The parts of each configured URL that may be a credential, longest first; and the raw keys. */
function secretFragments(config: Config): string[] {
  const fragments = new Set<string>();
  // RPC providers put keys in the path (NodeReal `/v1/<key>`); a database name or the AI API's
  // `/v1` is no secret, and blanking it everywhere would garble unrelated log lines.
  const urls = [
    { raw: config.chain.rpcUrl, pathIsSecret: true },
    { raw: config.prices.chainlinkRpcUrl, pathIsSecret: true },
    { raw: config.database.url, pathIsSecret: false },
    { raw: config.ai.baseUrl, pathIsSecret: false },
  ];
  for (const { raw, pathIsSecret } of urls) {
    if (!raw || !URL.canParse(raw)) continue;
    const url = new URL(raw);
    if (pathIsSecret && url.pathname.length > 1) fragments.add(url.pathname);
    if (url.search) fragments.add(url.search);
    if (url.password) fragments.add(`:${url.password}@`);
    else if (url.username) fragments.add(`${url.username}@`);
  }
  for (const key of [
    config.ai.apiKey,
    config.operator.privateKey,
    config.escrow.adminPrivateKey,
    config.escrow.guardianPrivateKey,
    config.evidence.searchApiKey,
    config.metrics.token,
  ])
    if (key) fragments.add(key);
  return [...fragments].sort((a, b) => b.length - a.length);
}

/** A URL fit for a log line: its origin only (the path, query and user info may hold a key). */
export function redactUrl(raw: string): string {
  return URL.canParse(raw) ? `${new URL(raw).origin}/${REDACTED}` : REDACTED;
}
