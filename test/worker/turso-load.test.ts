import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

/**
 * docs/operations.md §6: the Worker under a burst of public orders. On Turso this once broke: one libSQL
 * client per isolate queued queries past 20 and ran them in another request's context, which workerd
 * cancels (23 of 50 answered 500). Runs on the worker (D1) and worker-turso projects alike.
 */
const mailSinkUrl = (env as unknown as { MAIL_SINK_URL: string }).MAIL_SINK_URL;

/** The recipients of the messages that reached the project's SMTP sink (test/support/mail-sink-http.ts). */
async function recipients(): Promise<string[]> {
  const messages = (await (await fetch(`${mailSinkUrl}/messages`)).json()) as { to: string[] }[];
  return messages.flatMap((m) => m.to);
}

describe('fifty public orders at the same moment', () => {
  const site = 'https://kerst.example';
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    SELF.fetch(`${site}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('all succeed, each with its own KP reference, and none answers 5xx', async () => {
    const login = await post('/api/account/login', { username: 'admin', password: 'worker-admin-password' }, { 'cf-connecting-ip': '198.51.100.70' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect((await post('/tablers/create', { name: 'Load Tabler' }, { cookie })).status).toBe(200);
    const ip = { 'cf-connecting-ip': '192.0.2.70' };
    const matched = (await (await post('/tablers/match', { password: 'load tabler' }, ip)).json()) as { tabler: { id: number }; gate_token: string };

    const order = (i: number) =>
      post(
        '/orders/create',
        {
          tabler_id: matched.tabler.id,
          gate_token: matched.gate_token,
          name: `Klant ${i}`,
          email: `klant${i}@example.nl`,
          phone: '0612345678',
          address: `Voorstraat ${i}`,
          postal_code: '8861 BK',
          city: 'Harlingen',
          amount: 1 + (i % 3),
        },
        ip,
      );
    // The D1 lane's files share one database (docs/decisions/063): count from what is there already.
    const totalNow = async () => ((await (await SELF.fetch(`${site}/orders?page=1&per_page=1`, { headers: { cookie } })).json()) as { total: number }).total;
    const before = await totalNow();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => order(i)));
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { success: boolean; order_reference: string }[];

    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const references = bodies.map((b) => b.order_reference);
    expect(references.every((r) => /^KP-\d{4}-\d{4}$/.test(r))).toBe(true);
    expect(new Set(references).size).toBe(50);

    // Every order is stored once, whatever database the Worker runs on.
    expect(await totalNow()).toBe(before + 50);

    // And each visitor's confirmation leaves (in the background of its own request).
    const expected = Array.from({ length: 50 }, (_, i) => `klant${i}@example.nl`);
    const deadline = Date.now() + 15_000;
    let missing = expected;
    while (missing.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const arrived = new Set(await recipients());
      missing = expected.filter((to) => !arrived.has(to));
    }
    expect(missing).toEqual([]);
  });
});
