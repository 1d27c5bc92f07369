import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';

/** The site the workerd tests address; the Worker answers for any host. */
export const SITE = 'https://kerst.example';

/**
 * Signs in as the admin the Worker creates on its first request (ADMIN_PASSWORD of the test configs) and
 * answers the session cookie. Each suite signs in from its own address, so the per-address sign-in limit
 * of one suite never touches another.
 */
export async function adminCookie(ip: string): Promise<string> {
  const login = await SELF.fetch(`${SITE}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: JSON.stringify({ username: 'admin', password: 'worker-admin-password' }),
  });
  expect(login.status).toBe(200);
  return (login.headers.get('set-cookie') ?? '').split(';')[0]!;
}
