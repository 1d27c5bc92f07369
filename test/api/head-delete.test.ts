import { it, expect } from 'vitest';
import { createTestApp } from '../support/test-app';
it('HEAD on a GET delete never deletes', async () => {
  const t = await createTestApp();
  const u = await t.createUser('victim');
  const cookie = await t.cookieFor('admin');
  const r = await t.app.request(`http://127.0.0.1/api/users/deleteuser?id=${u.id}`, { method: 'HEAD', headers: { cookie } });
  expect(r.status).toBe(405);
  const list = await t.request('/api/users', { cookie });
  expect(list.json.users.some((x: { username: string }) => x.username === 'victim')).toBe(true);
  await t.close();
});
