import ipaddr from 'ipaddr.js';

// Which addresses the evidence gatherer may connect to (docs/security.md "Reading the web"):
// the creator's URLs and search results are untrusted, so a page must never make the server read its
// own network (cloud metadata at 169.254.169.254, an admin port on 127.0.0.1, a database on 10/8).
// The rule is an allow-list of one kind, "public unicast", decided by ipaddr.js's range table rather
// than by hand-written prefixes; the few loopback `host:port` pairs of a test or demo are the only
// exception, and they still never open a non-loopback address.

/** The schemes a page may be read over. */
const SCHEMES = new Set(['http:', 'https:']);
/** The ports a public page may be read on (the scheme's default ones). */
const PORTS = new Set([80, 443]);

export type UrlVerdict =
  | { ok: true; url: URL; hostname: string; port: number; allowListed: boolean }
  | { ok: false; error: string };

/**
 * The checks on the URL itself, before any lookup: scheme, credentials, port. `new URL()` (WHATWG)
 * has already turned decimal, octal and hex IPv4 spellings into a dotted quad, so the address check
 * sees the real address.
 */
export function checkUrl(raw: string | URL, allowHosts: readonly string[]): UrlVerdict {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    return { ok: false, error: 'URL_INVALID' };
  }
  if (!SCHEMES.has(url.protocol)) return { ok: false, error: `SCHEME_REFUSED: ${url.protocol}` };
  if (url.username !== '' || url.password !== '') return { ok: false, error: 'CREDENTIALS_REFUSED' };
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // IPv6 literals come bracketed from URL.hostname; lookups and address checks want them bare.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === '') return { ok: false, error: 'URL_INVALID' };
  const allowListed = allowHosts.includes(`${url.hostname}:${port}`);
  if (!allowListed && !PORTS.has(port)) return { ok: false, error: `PORT_REFUSED: ${port}` };
  return { ok: true, url, hostname, port, allowListed };
}

/**
 * Why an address may not be connected to, or null when it may. Every address a name resolves to is
 * checked: one private address among public ones refuses the name (the connection could go to it).
 */
export function addressRefusal(address: string, allowListed: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `ADDRESS_REFUSED: ${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::/96 holds ::, ::1 and the deprecated IPv4-compatible form (::10.0.0.1), which ipaddr.js
    // would otherwise call unicast: nothing public lives there.
    if (parts.slice(0, 6).every((part) => part === 0)) {
      if (allowListed && address === '::1') return null;
      return `ADDRESS_REFUSED: ${address} (ipv4Compatible)`;
    }
  }
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const normalised = ipaddr.process(address);
  const range = normalised.range();
  if (range === 'unicast' && !allowListed) return null;
  // An allow-listed test or demo server is on loopback, and only there.
  if (allowListed && range === 'loopback') return null;
  return `ADDRESS_REFUSED: ${address} (${range})`;
}

/** The first refusal among a name's addresses, or null when every one may be connected to. */
export function addressesRefusal(addresses: readonly string[], allowListed: boolean): string | null {
  if (addresses.length === 0) return 'DNS_FAILED: no address';
  for (const address of addresses) {
    const refusal = addressRefusal(address, allowListed);
    if (refusal !== null) return refusal;
  }
  return null;
}
