import { describe, expect, test } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  test('every address of one IPv6 /64, in any spelling, is one client', () => {
    const keys = new Set(
      [
        '2001:db8:1:2::1',
        '2001:db8:1:2:ffff:ffff:ffff:ffff',
        '2001:0db8:0001:0002:1234:5678:9abc:def0',
        '2001:DB8:1:2:AAAA::BBBB',
      ].map(clientKey),
    );
    expect([...keys]).toEqual(['2001:db8:1:2::/64']);
  });

  test('the next /64 is another client', () => {
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });

  test('IPv4 addresses count one by one, also when a dual-stack socket maps them into IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('203.0.113.8')).not.toBe(clientKey('203.0.113.7'));
  });

  test('loopback and unparsable values count as themselves', () => {
    expect(clientKey('127.0.0.1')).toBe('127.0.0.1');
    expect(clientKey('::1')).toBe('::/64');
    expect(clientKey('not an address')).toBe('not an address');
  });
});
