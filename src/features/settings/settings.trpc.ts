import { adminProcedure, publicProcedure, router } from '../../trpc/init';
import { settingInputSchema, settingKeySchema, settingUpdateSchema } from './settings.schemas';
import { addSetting, deleteSetting, editSetting, listSettings, updateSettingValue } from './settings.service';

export const settingsRouter = router({
  list: publicProcedure.query(async ({ ctx }) => ({ settings: await listSettings(ctx) })),
  add: adminProcedure.input(settingInputSchema).mutation(async ({ ctx, input }) => ({ success: true as const, setting: await addSetting(ctx, input) })),
  edit: adminProcedure.input(settingInputSchema).mutation(async ({ ctx, input }) => ({ success: true as const, setting: await editSetting(ctx, input) })),
  update: adminProcedure
    .input(settingUpdateSchema)
    .mutation(async ({ ctx, input }) => ({ success: true as const, setting: await updateSettingValue(ctx, input.key, input.value) })),
  delete: adminProcedure.input(settingKeySchema).mutation(async ({ ctx, input }) => {
    await deleteSetting(ctx, input.key);
    return { success: true as const };
  }),
});
