import { describe, expectTypeOf, it } from 'vitest';
import type { BuiltInSettingKey } from './settings.defaults';
import type { getBooleanSetting, getIntegerSetting, getStringSetting } from './settings.service';

// The registry's keys are checked by the compiler (npm run typecheck covers this file): each typed reader
// takes only the built-in keys of its type.
describe('the typed setting readers', () => {
  it('take only built-in keys of their own type', () => {
    expectTypeOf<'club_name'>().toExtend<BuiltInSettingKey<'string'>>();
    expectTypeOf<'package_price'>().toExtend<BuiltInSettingKey<'integer'>>();
    expectTypeOf<'maintenance_mode'>().toExtend<BuiltInSettingKey<'boolean'>>();
    expectTypeOf<'club_name'>().not.toExtend<BuiltInSettingKey<'integer'>>();
    expectTypeOf<'club_nmae'>().not.toExtend<BuiltInSettingKey>();
    expectTypeOf<Parameters<typeof getIntegerSetting>[1]>().toEqualTypeOf<BuiltInSettingKey<'integer'>>();
    expectTypeOf<Parameters<typeof getBooleanSetting>[1]>().toEqualTypeOf<BuiltInSettingKey<'boolean'>>();
    expectTypeOf<Parameters<typeof getStringSetting>[1]>().toEqualTypeOf<BuiltInSettingKey<'string'>>();
  });
});
