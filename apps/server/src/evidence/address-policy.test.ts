import { describe, expect, it } from 'vitest';
import { addressesRefusal, addressRefusal, checkUrl } from './address-policy.ts';

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'ipv4Compatible'],
    ['::', 'ipv4Compatible'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    // ipaddr.js reads the dotted IPv4-compatible spelling as mapped: judged as 10.0.0.1, refused all the same.
    ['::10.0.0.1', 'private'],
    ['::a00:1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['2002:c0a8:101::1', '6to4'],
    ['2001::1', 'teredo'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'deprecatedSiteLocal'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressRefusal(address, false)).toBe(`ADDRESS_REFUSED: ${address} (${range})`);
  });

  it.each(['93.184.216.34', '1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public unicast address %s',
    (address) => {
      expect(addressRefusal(address, false)).toBeNull();
    },
  );

  it('refuses what is not an address at all', () => {
    expect(addressRefusal('example.com', false)).toMatch(/^ADDRESS_REFUSED/);
  });

  it('lets an allow-listed pair reach loopback, and nothing else', () => {
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('10.0.0.1', true)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', true)).toMatch(/linkLocal/);
    expect(addressRefusal('8.8.8.8', true)).toMatch(/unicast/);
  });

  it('refuses a name when any one of its addresses is refused', () => {
    expect(addressesRefusal(['93.184.216.34', '10.0.0.1'], false)).toMatch(/10\.0\.0\.1 \(private\)/);
    expect(addressesRefusal(['93.184.216.34', '2606:4700::1'], false)).toBeNull();
    expect(addressesRefusal([], false)).toMatch(/^DNS_FAILED/);
  });
});

describe('URL checks', () => {
  it('turns decimal, octal and hex IPv4 spellings into a dotted quad (WHATWG URL) before the check', () => {
    for (const spelling of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/']) {
      const verdict = checkUrl(spelling, []);
      expect(verdict.ok && verdict.hostname).toBe('127.0.0.1');
      expect(addressRefusal(verdict.ok ? verdict.hostname : '', false)).toMatch(/loopback/);
    }
    const mapped = checkUrl('http://[::ffff:10.0.0.1]/', []);
    expect(mapped.ok && mapped.hostname).toBe('::ffff:a00:1');
    expect(addressRefusal(mapped.ok ? mapped.hostname : '', false)).toMatch(/private/);
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/x',
    'gopher://example.com/',
    'data:text/html,hi',
    'javascript:alert(1)',
  ])('refuses the scheme of %s', (url) => {
    expect(checkUrl(url, [])).toEqual({ ok: false, error: expect.stringMatching(/^SCHEME_REFUSED/) });
  });

  it('allows ports 80 and 443 only, explicit or default', () => {
    expect(checkUrl('http://example.com/', []).ok).toBe(true);
    expect(checkUrl('https://example.com:443/', []).ok).toBe(true);
    expect(checkUrl('http://example.com:80/', []).ok).toBe(true);
    expect(checkUrl('https://example.com:80/', []).ok).toBe(true);
    expect(checkUrl('http://example.com:8080/', [])).toEqual({ ok: false, error: 'PORT_REFUSED: 8080' });
    expect(checkUrl('https://example.com:22/', [])).toEqual({ ok: false, error: 'PORT_REFUSED: 22' });
  });

  it('refuses credentials in the URL', () => {
    expect(checkUrl('http://user:secret@example.com/', [])).toEqual({
      ok: false,
      error: 'CREDENTIALS_REFUSED',
    });
    expect(checkUrl('http://user@example.com/', [])).toEqual({ ok: false, error: 'CREDENTIALS_REFUSED' });
  });

  it('refuses what is not a URL', () => {
    expect(checkUrl('not a url', [])).toEqual({ ok: false, error: 'URL_INVALID' });
  });

  it('lets an exact allow-listed host:port through on any port, and no other port of that host', () => {
    const allowed = checkUrl('http://127.0.0.1:43123/page', ['127.0.0.1:43123']);
    expect(allowed.ok && allowed.allowListed).toBe(true);
    expect(checkUrl('http://127.0.0.1:43124/page', ['127.0.0.1:43123'])).toEqual({
      ok: false,
      error: 'PORT_REFUSED: 43124',
    });
    const defaultPort = checkUrl('http://127.0.0.1/', ['127.0.0.1:43123']);
    expect(defaultPort.ok && defaultPort.allowListed).toBe(false);
  });
});
