import { describe, expect, it } from 'vitest';
import { forwardedClientIp, inRange, parseAddressRange, rateLimitAddress } from './client-address';

describe('rateLimitAddress', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitAddress('203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    for (const ip of ['2001:db8:1:2::1', '2001:0db8:0001:0002:abcd:ef01:2345:6789', '2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::1%eth0']) {
      expect(rateLimitAddress(ip), ip).toBe('2001:db8:1:2::/64');
    }
    expect(rateLimitAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('fe80::1:2')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(rateLimitAddress('::ffff:192.0.2.10')).toBe('192.0.2.10');
    expect(rateLimitAddress('::ffff:c000:020a')).toBe('192.0.2.10');
  });

  it('leaves anything that is no address as it is', () => {
    for (const text of ['unknown', '1:2:3', '1::2::3', '12345::1', '::ffff:300.1.1.1', '']) expect(rateLimitAddress(text), text).toBe(text);
  });
});

describe('trusted proxies (TRUSTED_PROXIES)', () => {
  const trusted = ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'].map((entry) => parseAddressRange(entry)!);

  it('parses addresses and CIDR ranges of both families, and refuses anything else', () => {
    expect(inRange('10.200.3.4', parseAddressRange('10.0.0.0/8')!)).toBe(true);
    expect(inRange('11.0.0.1', parseAddressRange('10.0.0.0/8')!)).toBe(false);
    expect(inRange('fd12::5', parseAddressRange('fd00::/8')!)).toBe(true);
    expect(inRange('::ffff:127.0.0.1', parseAddressRange('127.0.0.1')!)).toBe(true);
    expect(inRange('0.0.0.0', parseAddressRange('0.0.0.0/0')!)).toBe(true);
    for (const bad of ['10.0.0.0/33', '10.0.0.0/x', 'proxy.local', '::1/129', '10.0.0.0/8/8', '']) expect(parseAddressRange(bad), bad).toBeNull();
  });

  it('believes X-Forwarded-For only from a trusted peer, read from the right to the first untrusted hop', () => {
    expect(forwardedClientIp('127.0.0.1', '198.51.100.9', trusted)).toBe('198.51.100.9');
    // A client that sends its own X-Forwarded-For cannot choose its address: the proxy appends the real one.
    expect(forwardedClientIp('127.0.0.1', '1.2.3.4, 198.51.100.9', trusted)).toBe('198.51.100.9');
    expect(forwardedClientIp('::1', '2001:db8::7, 10.1.1.1', trusted)).toBe('2001:db8::7');
    // From an untrusted peer, or without any trusted proxy configured, the header is ignored.
    expect(forwardedClientIp('203.0.113.5', '198.51.100.9', trusted)).toBe('203.0.113.5');
    expect(forwardedClientIp('127.0.0.1', '198.51.100.9', [])).toBe('127.0.0.1');
    expect(forwardedClientIp('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(forwardedClientIp('127.0.0.1', 'not-an-address', trusted)).toBe('127.0.0.1');
    expect(forwardedClientIp('127.0.0.1', '10.0.0.2, 10.0.0.3', trusted)).toBe('10.0.0.2');
  });
});
