import { and, eq } from 'drizzle-orm';
import { groupPermissions, groups, permissions, settings } from '../../db/schema';
import type { ClubDb } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { PASSWORD_MIN_LENGTH } from '../../core/credential-rules';
import { AppError } from '../../core/errors';
import { PERMISSIONS } from '../auth/permission-keys';
import { actsAsAdmin, requireAdmin, requirePermission, type HasUser } from '../auth/permissions';
import { BUILT_IN_SETTINGS, BUILT_IN_SETTING_KEYS, type BuiltInSettingKey } from './settings.defaults';
import { auditIfChanged } from '../audit/audit';
import type { SettingRow, SettingsCache } from '../../platform/settings-cache';
import { openSettingPassword, sealSettingPassword } from './setting-passwords';
import type { SettingInput, SettingType, SettingVisibility } from './settings.schemas';
import { settingValueProblem } from './setting-rules';

export interface SettingsCtx extends HasUser {
  db: ClubDb;
  clock: Clock;
  settingsCache: SettingsCache;
  /** Encrypts the values of password-type settings (setting-passwords.ts). */
  secretKey: string;
}

/** A write also names the address it came from, for the audit log. */
export type SettingsWriteCtx = SettingsCtx & { ip: string };

export type SettingValue = string | number | boolean;

/** What the audit log keeps of a value: a password setting's value never, only that it changed. */
const auditedValue = (type: SettingType, value: string) => (type === 'password' ? '(hidden)' : value);

/** A setting as the API shows it (docs/architecture.md §4): booleans and integers typed, password values never sent. */
export interface SettingView {
  key: string;
  value: SettingValue;
  type: SettingType;
  description: string;
  visibility: SettingVisibility;
  deletable: boolean;
  min_value: number | null;
  max_value: number | null;
  group_name: string;
}

export function typedValue(type: SettingType, raw: string): SettingValue {
  switch (type) {
    case 'boolean':
      return raw === 'true';
    case 'integer':
      return Number.parseInt(raw, 10) || 0;
    case 'password':
      return '';
    default:
      return raw;
  }
}

export function toSettingView(row: SettingRow): SettingView {
  return {
    key: row.key,
    value: typedValue(row.type, row.value),
    type: row.type,
    description: row.description,
    visibility: row.visibility,
    deletable: row.deletable,
    min_value: row.minValue,
    max_value: row.maxValue,
    group_name: row.groupName,
  };
}

type Audience = 'public' | 'private' | 'admin';

function audienceOf(ctx: HasUser): Audience {
  if (!ctx.user) return 'public';
  return actsAsAdmin(ctx) ? 'admin' : 'private';
}

const VISIBLE_TO: Record<Audience, ReadonlySet<SettingVisibility>> = {
  public: new Set(['public']),
  private: new Set(['public', 'private']),
  admin: new Set(['public', 'private', 'admin']),
};

/**
 * Keys and group names are ASCII identifiers, so code-unit order is their order. Not localeCompare: its
 * first call loads the ICU collator, ~10 ms that the first request of every new Worker isolate paid.
 */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** docs/product.md §3 / docs/architecture.md §3 visibility: public to all, private to signed-in users, admin to admin.access holders. */
export async function listSettings(ctx: SettingsCtx): Promise<SettingView[]> {
  const audience = audienceOf(ctx);
  return ctx.settingsCache.derive(ctx.db, `list:${audience}`, (rows) =>
    [...rows.values()]
      .filter((row) => VISIBLE_TO[audience].has(row.visibility))
      .sort((a, b) => byCodeUnits(a.groupName, b.groupName) || byCodeUnits(a.key, b.key))
      .map(toSettingView),
  );
}

/**
 * The `{settings:[…]}` answer as UTF-8 JSON bytes, memoised per audience: GET /api/settings is the
 * hottest call, and encoding the text anew for every response was most of its cost.
 */
export async function listSettingsJson(ctx: SettingsCtx): Promise<Uint8Array> {
  const audience = audienceOf(ctx);
  const list = await listSettings(ctx);
  return ctx.settingsCache.derive(ctx.db, `json:${audience}`, () => new TextEncoder().encode(JSON.stringify({ settings: list })));
}

/** What reading a setting needs; a password setting also needs the secret key that decrypts it. */
export type SettingReader = Pick<SettingsCtx, 'db' | 'settingsCache'> & { secretKey?: string };

/**
 * Reads one setting's typed value for server use (any visibility). A missing setting falls back to
 * its built-in default; without one it is an error (docs/product.md §3, §8 'Missing required setting <key>').
 */
export async function getSetting(ctx: SettingReader, key: string): Promise<SettingValue> {
  const rows = await ctx.settingsCache.all(ctx.db);
  const row = rows.get(key);
  if (row?.type === 'password') {
    if (ctx.secretKey === undefined) throw new AppError('SECRET_KEY_MISSING', `Setting ${key} is a password and needs the secret key to be read.`, { key });
    return openSettingPassword(ctx.secretKey, key, row.value);
  }
  if (row) return typedValue(row.type, row.value);
  const builtIn = BUILT_IN_SETTINGS.find((s) => s.key === key);
  if (builtIn && key !== 'default_user_group_id') return typedValue(builtIn.type, builtIn.value);
  throw new AppError('SETTING_MISSING', `Missing required setting ${key}`, { key });
}

// The typed readers take only built-in keys of their type (settings.defaults.ts is the registry); a setting an
// admin added is read by key with getSetting.

export async function getBooleanSetting(ctx: SettingReader, key: BuiltInSettingKey<'boolean'>): Promise<boolean> {
  return (await getSetting(ctx, key)) === true;
}

export async function getIntegerSetting(ctx: SettingReader, key: BuiltInSettingKey<'integer'>): Promise<number> {
  const value = await getSetting(ctx, key);
  return typeof value === 'number' ? value : Number.parseInt(String(value), 10) || 0;
}

export async function getStringSetting(ctx: SettingReader, key: BuiltInSettingKey<'string'>): Promise<string> {
  return String(await getSetting(ctx, key));
}

/** Checks a value against its type and bounds and returns the text to store. */
function normaliseValue(type: SettingType, value: string, min: number | null, max: number | null): string {
  switch (type) {
    case 'boolean': {
      const v = value.trim().toLowerCase();
      if (v !== 'true' && v !== 'false') throw new AppError('SETTING_NOT_BOOLEAN', 'Value must be true or false.');
      return v;
    }
    case 'integer': {
      const v = value.trim();
      if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new AppError('SETTING_NOT_INTEGER', 'Value must be a whole number.');
      const n = Number(v);
      if (min !== null && n < min) throw new AppError('SETTING_TOO_SMALL', `Value must be at least ${min}.`, { minimum: min });
      if (max !== null && n > max) throw new AppError('SETTING_TOO_BIG', `Value must be at most ${max}.`, { maximum: max });
      return String(n);
    }
    case 'json':
      try {
        JSON.parse(value);
      } catch {
        throw new AppError('SETTING_NOT_JSON', 'Value must be valid JSON.');
      }
      return value;
    default:
      return value;
  }
}

/** Rules that tie a built-in setting to the rest of the data. */
async function checkSpecialSetting(ctx: SettingsCtx, key: string, stored: string, previous: string | null = null): Promise<void> {
  // docs/product.md §9: no password may be shorter than 6 characters, whatever the bounds say.
  if (key === 'password_min_length' && Number(stored) < PASSWORD_MIN_LENGTH)
    throw new AppError('SETTING_TOO_SMALL', `Value must be at least ${PASSWORD_MIN_LENGTH}.`, { minimum: PASSWORD_MIN_LENGTH });
  // docs/decisions/003 and 019: a bad VAT split, provider, IBAN, KvK number or VAT id is refused here, not at the next invoice.
  // A value kept as it was passes: the seeded placeholders stay editable in their other fields.
  const problem = stored === previous ? null : settingValueProblem(key, stored);
  if (problem) throw problem;
  if (key === 'default_user_group_id') {
    const [group] = await ctx.db
      .select({ id: groups.id })
      .from(groups)
      .where(eq(groups.id, Number(stored)))
      .limit(1);
    if (!group) throw new AppError('DEFAULT_GROUP_UNKNOWN', 'The default user group must be an existing group.');
    // docs/decisions/008: otherwise everyone who registers would be an administrator.
    const [adminGrant] = await ctx.db
      .select({ groupId: groupPermissions.groupId })
      .from(groupPermissions)
      .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
      .where(and(eq(groupPermissions.groupId, group.id), eq(permissions.key, PERMISSIONS.adminAccess)))
      .limit(1);
    if (adminGrant)
      throw new AppError('DEFAULT_GROUP_ADMIN', 'The default user group cannot hold admin.access: everyone who registers would be an administrator.');
  }
  // docs/architecture.md §5: an admin cannot require what they have not done themselves (nor lock themselves out).
  if (key === 'require_2fa_for_admins' && stored === 'true' && !ctx.user?.two_factor_enabled) {
    throw new AppError('TWO_FACTOR_FIRST', 'Turn on two-factor authentication for your own account before requiring it for admins.');
  }
}

/** The text a checked value is kept as: password values encrypted (setting-passwords.ts), others as they are. */
async function toStored(ctx: SettingsCtx, type: SettingType, value: string): Promise<string> {
  return type === 'password' ? sealSettingPassword(ctx.secretKey, value) : value;
}

async function findRow(ctx: SettingsCtx, key: string): Promise<SettingRow | undefined> {
  const [row] = await ctx.db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row;
}

function checkBounds(type: SettingType, min: number | null | undefined, max: number | null | undefined): { min: number | null; max: number | null } {
  // docs/product.md §5: min and max exist only for integer settings.
  if (type !== 'integer') return { min: null, max: null };
  min ??= null;
  max ??= null;
  if (min !== null && max !== null && min > max) throw new AppError('SETTING_MIN_ABOVE_MAX', 'Minimum cannot be greater than maximum.');
  return { min, max };
}

export async function addSetting(ctx: SettingsWriteCtx, input: SettingInput): Promise<SettingView> {
  requireAdmin(ctx);
  if (await findRow(ctx, input.key)) throw new AppError('SETTING_KEY_TAKEN', 'A setting with this key already exists.');
  if (input.value === '' && input.type !== 'string') throw new AppError('SETTING_VALUE_REQUIRED', 'Key, value and type are required.');
  const { min, max } = checkBounds(input.type, input.min_value, input.max_value);
  const stored = normaliseValue(input.type, input.value, min, max);
  await checkSpecialSetting(ctx, input.key, stored);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(settings)
      .values({
        key: input.key,
        value: await toStored(ctx, input.type, stored),
        type: input.type,
        description: input.description,
        visibility: input.visibility,
        // docs/product.md §5: the deletable choice is made on create only.
        deletable: input.deletable ?? true,
        minValue: min,
        maxValue: max,
        groupName: input.group_name,
        updatedAt: ctx.clock.now().toISOString(),
      })
      .onConflictDoNothing()
      .returning(),
    auditIfChanged(ctx, { action: 'setting.created', target: `setting:${input.key}`, details: { type: input.type, value: auditedValue(input.type, stored) } }),
  ]);
  ctx.settingsCache.invalidate(ctx.db);
  if (!row) throw new AppError('SETTING_KEY_TAKEN', 'A setting with this key already exists.');
  return toSettingView(row);
}

/** docs/product.md §5: the key identifies the setting and cannot change; `deletable` is not editable. */
export async function editSetting(ctx: SettingsWriteCtx, input: SettingInput): Promise<SettingView> {
  requireAdmin(ctx);
  const existing = await findRow(ctx, input.key);
  if (!existing) throw new AppError('SETTING_NOT_FOUND', 'Setting not found.');
  if (BUILT_IN_SETTING_KEYS.has(existing.key) && input.type !== existing.type) {
    throw new AppError('SETTING_TYPE_LOCKED', 'The type of a built-in setting cannot be changed.');
  }
  // Bounds left out of an edit stay as they are.
  const { min, max } = checkBounds(
    input.type,
    input.min_value === undefined ? existing.minValue : input.min_value,
    input.max_value === undefined ? existing.maxValue : input.max_value,
  );
  // A password setting's value is never sent to the browser, so an empty value keeps the stored one.
  const keepPassword = input.type === 'password' && existing.type === 'password' && input.value === '';
  const value = keepPassword ? existing.value : normaliseValue(input.type, input.value, min, max);
  await checkSpecialSetting(ctx, existing.key, value, existing.value);
  const stored = keepPassword ? existing.value : await toStored(ctx, input.type, value);
  const changes = settingChanges(existing, {
    value: keepPassword ? null : value,
    type: input.type,
    description: input.description,
    visibility: input.visibility,
    min_value: min,
    max_value: max,
    group_name: input.group_name,
  });
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(settings)
      .set({
        value: stored,
        type: input.type,
        description: input.description,
        visibility: input.visibility,
        minValue: min,
        maxValue: max,
        groupName: input.group_name,
        updatedAt: ctx.clock.now().toISOString(),
      })
      .where(eq(settings.key, existing.key))
      .returning(),
    auditIfChanged(ctx, { action: 'setting.updated', target: `setting:${existing.key}`, details: changes }),
  ]);
  ctx.settingsCache.invalidate(ctx.db);
  return toSettingView(row!);
}

/** Sets one setting's value, checked against its type and min/max (inline editing). */
export async function updateSettingValue(ctx: SettingsWriteCtx, key: string, value: string): Promise<SettingView> {
  requireAdmin(ctx);
  const existing = await findRow(ctx, key);
  if (!existing) throw new AppError('SETTING_NOT_FOUND', 'Setting not found.');
  const stored = normaliseValue(existing.type, value, existing.minValue, existing.maxValue);
  await checkSpecialSetting(ctx, key, stored, existing.value);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(settings)
      .set({ value: await toStored(ctx, existing.type, stored), updatedAt: ctx.clock.now().toISOString() })
      .where(eq(settings.key, key))
      .returning(),
    auditIfChanged(ctx, { action: 'setting.updated', target: `setting:${key}`, details: settingChanges(existing, { value: stored }) }),
  ]);
  ctx.settingsCache.invalidate(ctx.db);
  return toSettingView(row!);
}

/** docs/product.md §6: deleting needs settings.delete, and only deletable settings can go. */
export async function deleteSetting(ctx: SettingsWriteCtx, key: string): Promise<void> {
  requireAdmin(ctx);
  requirePermission(ctx, PERMISSIONS.settingsDelete);
  const existing = await findRow(ctx, key);
  if (!existing) throw new AppError('SETTING_NOT_FOUND', 'Setting not found.');
  if (!existing.deletable) throw new AppError('SETTING_NOT_DELETABLE', 'This setting cannot be deleted.');
  await ctx.db.batch([
    ctx.db.delete(settings).where(eq(settings.key, key)),
    auditIfChanged(ctx, {
      action: 'setting.deleted',
      target: `setting:${key}`,
      details: { value: auditedValue(existing.type, existing.type === 'password' ? '' : existing.value) },
    }),
  ]);
  ctx.settingsCache.invalidate(ctx.db);
}

/**
 * Old → new of what an edit changes, for the audit log. A password setting's value is never kept
 * (stored values are encrypted anyway): only the fact that it changed. `value: null` = value kept.
 */
function settingChanges(
  existing: SettingRow,
  next: {
    value: string | null;
    type?: SettingType;
    description?: string;
    visibility?: SettingVisibility;
    min_value?: number | null;
    max_value?: number | null;
    group_name?: string;
  },
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (next.value !== null) {
    if (existing.type === 'password' || next.type === 'password') changes.value = 'changed';
    else if (next.value !== existing.value) changes.value = [existing.value, next.value];
  }
  const pairs: [string, unknown, unknown][] = [
    ['type', existing.type, next.type],
    ['description', existing.description, next.description],
    ['visibility', existing.visibility, next.visibility],
    ['min_value', existing.minValue, next.min_value],
    ['max_value', existing.maxValue, next.max_value],
    ['group_name', existing.groupName, next.group_name],
  ];
  for (const [field, before, after] of pairs) if (after !== undefined && after !== before) changes[field] = [before, after];
  return changes;
}
