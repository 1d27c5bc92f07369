import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

/** docs/decisions/037 inside workerd: IPv6 clients count for per-address limits by their /64. */
describe('per-address limits on the Worker', () => {
  const match = (ip: string) =>
    SELF.fetch('https://kerst.example/tablers/match', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
      body: JSON.stringify({ password: 'niemand-bekend' }),
    });

  it('groups IPv6 addresses by their /64: rotating inside it does not escape the gate limit', async () => {
    for (let i = 1; i <= 9; i++) expect((await match(`2001:db8:5:6::${i.toString(16)}`)).status, `try ${i}`).toBe(400);
    const rotated = await match('2001:db8:5:6:ffff:1:2:3');
    expect(rotated.status).toBe(429);
    // Another household's /64, and an IPv4 client, still have their own tries.
    expect((await match('2001:db8:5:7::1')).status).toBe(400);
    expect((await match('192.0.2.77')).status).toBe(400);
  });
});
