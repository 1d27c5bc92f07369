import { maintenance } from '../../core/errors';
import { actsAsAdmin } from '../auth/permissions';
import { getBooleanSetting, type SettingsCtx } from './settings.service';

/** docs/architecture.md §3: while maintenance_mode is on, public writes are refused to anyone without admin.access. */
export async function refuseDuringMaintenance(ctx: Pick<SettingsCtx, 'db' | 'settingsCache' | 'user' | 'twoFactorSetupRequired'>): Promise<void> {
  if (actsAsAdmin(ctx)) return;
  if (await getBooleanSetting(ctx, 'maintenance_mode')) throw maintenance();
}
