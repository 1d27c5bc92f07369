/**
 * Client addresses that mean something (docs/decisions/037). Pure string work, so it runs on both runtimes.
 */

/** Expands an IPv6 address to its eight 16-bit groups, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '').toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(':')) return null;
  // An embedded IPv4 address (::ffff:192.0.2.1) is the last two groups.
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const bytes = v4.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    text = `${v4[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string) => (half === '' ? [] : half.split(':'));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The key per-address rate limits count a client under: an IPv4 address as it is, an IPv6 address by its
 * /64 — one household's or phone's network, inside which a client can pick any address, so rotating
 * addresses there must not escape a limit. An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function rateLimitAddress(ip: string): string {
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** An address range (a single address is a range of one), in 128-bit form: IPv4 as IPv4-mapped IPv6. */
export interface AddressRange {
  base: bigint;
  prefixBits: number;
}

const IPV4_MAPPED = 0xffffn << 32n;

function ipv4Bits(ip: string): bigint | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!match) return null;
  const bytes = match.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return null;
  return bytes.reduce((bits, b) => (bits << 8n) | BigInt(b), 0n);
}

/** An address as a 128-bit number (IPv4 mapped into ::ffff:0:0/96), or null when it is none. */
function addressBits(ip: string): bigint | null {
  const v4 = ipv4Bits(ip);
  if (v4 !== null) return IPV4_MAPPED | v4;
  const groups = ipv6Groups(ip);
  return groups ? groups.reduce((bits, g) => (bits << 16n) | BigInt(g), 0n) : null;
}

const maskOf = (prefixBits: number) => (prefixBits === 0 ? 0n : ((1n << BigInt(prefixBits)) - 1n) << BigInt(128 - prefixBits));

/** '10.0.0.1', '10.0.0.0/8', '2001:db8::/32' or '::1' as a range; null when it is not one. */
export function parseAddressRange(text: string): AddressRange | null {
  const [address = '', prefix, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const bits = addressBits(address);
  if (bits === null) return null;
  const isV4 = ipv4Bits(address) !== null;
  const width = isV4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return null;
  const length = prefix === undefined ? width : Number(prefix);
  if (length > width) return null;
  const prefixBits = isV4 ? 96 + length : length;
  return { base: bits & maskOf(prefixBits), prefixBits };
}

export function inRange(ip: string, range: AddressRange): boolean {
  const bits = addressBits(ip);
  return bits !== null && (bits & maskOf(range.prefixBits)) === range.base;
}

/**
 * The client's address behind reverse proxies (docs/decisions/037): only when the connection comes from a
 * trusted proxy is X-Forwarded-For believed, read from the right (the entries our own proxies added)
 * to the first address that is not a trusted proxy — anything left of it the client could have typed.
 */
export function forwardedClientIp(peer: string, forwardedFor: string | undefined, trusted: readonly AddressRange[]): string {
  const isTrusted = (ip: string) => trusted.some((range) => inRange(ip, range));
  if (trusted.length === 0 || !forwardedFor || !isTrusted(peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (addressBits(hop) === null) return peer;
    if (!isTrusted(hop)) return hop;
  }
  return hops[0] ?? peer;
}
