import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressesRefusal, checkUrl } from './address-policy.ts';

// One page read from the untrusted web, safely (docs/decisions/018-evidence-gathering.md):
// we resolve the name ourselves, check EVERY address with the address policy, then connect to the
// checked address through a `lookup` that hands back exactly it (no second lookup, so a DNS answer
// that changes between check and connect cannot steer us: DNS rebinding). TLS still verifies the
// certificate for the original name (servername), and the Host header stays the original host.
// Every failure is a value on the result, never an exception: one bad page must not fail a gather.

/** Resolves a host name to all its addresses (dns.promises.lookup with all: true by default). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const defaultResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export type SafeFetchOptions = {
  lookup: Resolver;
  /** Loopback "host:port" pairs a test or demo may read (docs/security.md). */
  allowHosts: readonly string[];
  userAgent: string;
  /** Covers every lookup, connection, redirect and the body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
};

export type SafeFetchResult = {
  url: string;
  finalUrl: string;
  httpStatus: number | null;
  bytes: number;
  contentSha256: string | null;
  contentType: string | null;
  /** The body decoded to text; null when it was not read (refused, error, too large). */
  body: string | null;
  error: string | null;
};

/** The media types we read: HTML and plain text. Anything else is not an article. */
const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A step's answer: the response to read, or a redirect to follow, or a refusal. */
type Hop =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'done'; result: Omit<SafeFetchResult, 'url' | 'finalUrl'> };

class FetchAborted extends Error {}

export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchAborted('TIMEOUT')), options.timeoutMs);
  const onOuterAbort = () => controller.abort(new FetchAborted('ABORTED'));
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) onOuterAbort();
  let current = url;
  try {
    for (let redirects = 0; ; redirects++) {
      // Nothing is looked up or opened once the caller has given up (the gather's deadline).
      if (controller.signal.aborted) throw controller.signal.reason;
      const hop = await fetchOnce(current, options, controller.signal);
      if (hop.kind === 'done') return { url, finalUrl: current, ...hop.result };
      if (redirects >= options.maxRedirects) {
        return { url, finalUrl: current, ...nothing(hop.status, 'TOO_MANY_REDIRECTS') };
      }
      let next: URL;
      try {
        next = new URL(hop.location, current);
      } catch {
        return { url, finalUrl: current, ...nothing(hop.status, 'REDIRECT_INVALID') };
      }
      next.hash = '';
      current = next.href;
    }
  } catch (error) {
    const reason = controller.signal.aborted ? abortReason(controller.signal) : networkError(error);
    return { url, finalUrl: current, ...nothing(null, reason) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

function nothing(httpStatus: number | null, error: string): Omit<SafeFetchResult, 'url' | 'finalUrl'> {
  return { httpStatus, bytes: 0, contentSha256: null, contentType: null, body: null, error };
}

function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof FetchAborted ? signal.reason.message : 'ABORTED';
}

function networkError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  return `NETWORK: ${code ?? (error instanceof Error ? error.message : String(error))}`;
}

/** Rejects when the signal aborts, so a lookup that never answers still ends with the page's time. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function fetchOnce(raw: string, options: SafeFetchOptions, signal: AbortSignal): Promise<Hop> {
  const verdict = checkUrl(raw, options.allowHosts);
  if (!verdict.ok) return { kind: 'done', result: nothing(null, verdict.error) };
  const { url, hostname, port, allowListed } = verdict;

  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await untilAborted(options.lookup(hostname), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return { kind: 'done', result: nothing(null, `DNS_FAILED: ${hostname}`) };
    }
  }
  const refusal = addressesRefusal(addresses, allowListed);
  if (refusal !== null) return { kind: 'done', result: nothing(null, refusal) };
  // Every address passed; we connect to the first, and only to it.
  const address = addresses[0] as string;
  const family = isIP(address) === 6 ? 6 : 4;

  const response = await untilAborted(
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        agent: false,
        signal,
        // The checked address, never a fresh lookup. Node asks with all: true when it may try several
        // families (autoSelectFamily); both shapes answer with the one address.
        lookup: (_host, lookupOptions, callback) => {
          if (lookupOptions.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        },
        ...(isIP(hostname) ? {} : { servername: hostname }),
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9',
          // We hash the bytes as received and cap them; a compressed body would need a second cap.
          'accept-encoding': 'identity',
        },
      });
      request.once('response', resolve);
      request.once('error', reject);
      request.end();
    }),
    signal,
  );

  const status = response.statusCode ?? 0;
  if (REDIRECTS.has(status)) {
    response.destroy();
    const location = response.headers.location;
    if (!location) return { kind: 'done', result: nothing(status, 'REDIRECT_INVALID') };
    return { kind: 'redirect', status, location };
  }
  if (status < 200 || status > 299) {
    response.destroy();
    return { kind: 'done', result: nothing(status, `HTTP_${status}`) };
  }
  const contentType = response.headers['content-type'] ?? null;
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!READABLE_TYPES.has(mediaType)) {
    response.destroy();
    return { kind: 'done', result: { ...nothing(status, `NOT_HTML: ${mediaType || 'none'}`), contentType } };
  }
  const encoding = (response.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    response.destroy();
    return { kind: 'done', result: { ...nothing(status, `ENCODING_REFUSED: ${encoding}`), contentType } };
  }
  return { kind: 'done', result: await readBody(response, status, contentType, options.maxBytes) };
}

/** Streams the body, hashing as it comes, and stops reading (closing the socket) past the cap. */
function readBody(
  response: http.IncomingMessage,
  status: number,
  contentType: string | null,
  maxBytes: number,
): Promise<Omit<SafeFetchResult, 'url' | 'finalUrl'>> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (body: string | null, error: string | null) => {
      done = true;
      resolve({ httpStatus: status, bytes, contentSha256: hash.digest('hex'), contentType, body, error });
    };
    response.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - bytes;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      hash.update(kept);
      chunks.push(kept);
      bytes += kept.length;
      if (chunk.length > room) {
        response.destroy();
        // A page cut in the middle is not what its site published: recorded and hashed, not read.
        finish(null, 'TOO_LARGE');
      }
    });
    response.once('end', () => {
      if (!done) finish(decode(Buffer.concat(chunks), contentType), null);
    });
    response.once('error', (error) => {
      if (!done) reject(error);
    });
    response.once('close', () => {
      if (!done) reject(new Error('closed before the end of the body'));
    });
  });
}

/**
 * The charset the server named, else the one an HTML page declares in a <meta> of its first 1024
 * bytes (as browsers look for it: many Chinese sites serve GBK that way), else UTF-8; UTF-8 too for a
 * label TextDecoder does not know.
 */
function decode(body: Buffer, contentType: string | null): string {
  const charset =
    /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
