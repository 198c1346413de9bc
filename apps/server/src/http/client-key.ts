import ipaddr from 'ipaddr.js';

/**
 * The key a per-client limit counts under: an IPv4 address as it is, an
 * IPv6 address by its /64 network. One household or one server is handed a whole /64 (2^64
 * addresses), so counting each address apart lets one client rotate through as many buckets as it
 * likes. @fastify/rate-limit groups the same way by default; the WebSocket cap and the Analyze
 * budget use this. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, a dual-stack socket) counts as
 * its IPv4 address; anything unparsable counts as itself.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}
