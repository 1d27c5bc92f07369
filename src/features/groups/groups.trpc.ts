import { adminProcedure, router } from '../../trpc/init';
import { idSchema } from '../../core/record-id';
import { addGroupSchema, groupPermissionsSchema } from './groups.schemas';
import { addGroup, addGroupPermissions, deleteGroup, getGroup, listGroups, removeGroupPermissions } from './groups.service';

export const groupsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => ({ groups: await listGroups(ctx) })),
  get: adminProcedure.input(idSchema).query(async ({ ctx, input }) => ({ group: await getGroup(ctx, input.id) })),
  add: adminProcedure.input(addGroupSchema).mutation(async ({ ctx, input }) => ({ success: true as const, group: await addGroup(ctx, input) })),
  delete: adminProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deleteGroup(ctx, input.id);
    return { success: true as const };
  }),
  addPermissions: adminProcedure.input(groupPermissionsSchema).mutation(async ({ ctx, input }) => {
    await addGroupPermissions(ctx, input);
    return { success: true as const };
  }),
  removePermissions: adminProcedure.input(groupPermissionsSchema).mutation(async ({ ctx, input }) => {
    await removeGroupPermissions(ctx, input);
    return { success: true as const };
  }),
});
