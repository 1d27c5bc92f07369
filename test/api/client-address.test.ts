import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startNodeServer } from '../../src/node';
import { ADMIN_PASSWORD } from '../support/test-app';

/**
 * docs/decisions/037 on the real Node entry: behind a reverse proxy the client's address comes from
 * X-Forwarded-For only when the connection is from a TRUSTED_PROXIES address; otherwise the header is
 * ignored. What the server took as the address shows in the account's sessions list.
 */
async function sessionIpSeenBy(env: Record<string, string>, forwardedFor: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kerstactie-proxy-'));
  const server = await startNodeServer({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD, ...env });
  try {
    const url = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${url}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const sessions = (await (await fetch(`${url}/api/account/sessions`, { headers: { cookie } })).json()) as { sessions: { ip: string }[] };
    return sessions.sessions[0]!.ip;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('client addresses behind a reverse proxy (TRUSTED_PROXIES)', () => {
  it('takes the address from X-Forwarded-For when the proxy (here: loopback) is trusted', async () => {
    expect(await sessionIpSeenBy({ TRUSTED_PROXIES: '127.0.0.1, ::1' }, '6.6.6.6, 198.51.100.9')).toBe('198.51.100.9');
  });

  it('ignores the header when the peer is not a trusted proxy, or none is configured', async () => {
    expect(await sessionIpSeenBy({ TRUSTED_PROXIES: '10.0.0.0/8' }, '198.51.100.9')).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
    expect(await sessionIpSeenBy({}, '198.51.100.9')).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
  });
});
