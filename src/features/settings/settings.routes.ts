import { describeRoute, SUCCESS } from '../../http/openapi';
import { adminOnly, jsonBody, restRouter, type CtxOf } from '../../http/rest';
import { settingInputSchema, settingKeySchema, settingUpdateSchema } from './settings.schemas';
import { addSetting, deleteSetting, editSetting, listSettingsJson, updateSettingValue } from './settings.service';

/** /api/settings*: thin adapters over the settings service. */
export function settingsRoutes(ctxOf: CtxOf) {
  const r = restRouter();
  const admin = adminOnly(ctxOf);
  r.get(
    '/api/settings',
    describeRoute({
      access: 'public',
      answer: '{settings:[{key,value,type,description,visibility,deletable,min_value,max_value,group_name}]}',
    }),
    async (c) => {
      const json = await listSettingsJson(await ctxOf(c));
      return c.body(json as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' });
    },
  );
  r.post('/api/settings/add', describeRoute({ answer: SUCCESS }), admin, jsonBody(settingInputSchema), async (c) => {
    await addSetting(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/settings/edit', describeRoute({ answer: SUCCESS }), admin, jsonBody(settingInputSchema), async (c) => {
    await editSetting(await ctxOf(c), c.req.valid('json'));
    return c.json({ success: true });
  });
  r.post('/api/settings/update', describeRoute({ answer: SUCCESS }), admin, jsonBody(settingUpdateSchema), async (c) => {
    const input = c.req.valid('json');
    await updateSettingValue(await ctxOf(c), input.key, input.value);
    return c.json({ success: true });
  });
  r.post('/api/settings/delete', describeRoute({ answer: SUCCESS }), admin, jsonBody(settingKeySchema), async (c) => {
    await deleteSetting(await ctxOf(c), c.req.valid('json').key);
    return c.json({ success: true });
  });
  return r;
}
