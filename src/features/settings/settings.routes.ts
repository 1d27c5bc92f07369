import { readJsonBody, parseInput } from '../../http/validate';
import { adminOnly, restRouter, type CtxOf } from '../../http/rest';
import { settingInputSchema, settingKeySchema, settingUpdateSchema } from './settings.schemas';
import { addSetting, deleteSetting, editSetting, listSettingsJson, updateSettingValue } from './settings.service';

/** docs/architecture.md §4 /api/settings*: thin adapters over the settings service. */
export function settingsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get('/api/settings', async (c) => {
    const json = await listSettingsJson(await ctxOf(c));
    return c.body(json as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' });
  });
  r.post('/api/settings/add', admin, async (c) => {
    const ctx = await ctxOf(c);
    await addSetting(ctx, parseInput(settingInputSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/settings/edit', admin, async (c) => {
    const ctx = await ctxOf(c);
    await editSetting(ctx, parseInput(settingInputSchema, await readJsonBody(c.req.raw)));
    return c.json({ success: true });
  });
  r.post('/api/settings/update', admin, async (c) => {
    const ctx = await ctxOf(c);
    const input = parseInput(settingUpdateSchema, await readJsonBody(c.req.raw));
    await updateSettingValue(ctx, input.key, input.value);
    return c.json({ success: true });
  });
  r.post('/api/settings/delete', admin, async (c) => {
    const ctx = await ctxOf(c);
    const input = parseInput(settingKeySchema, await readJsonBody(c.req.raw));
    await deleteSetting(ctx, input.key);
    return c.json({ success: true });
  });
  return r;
}
