import { adminProcedure, router } from '../../trpc/init';
import { addPermissionSchema } from './permissions.schemas';
import { addPermission, deletePermission, listPermissions } from './permissions.service';
import { idSchema } from '../../core/record-id';

export const permissionsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => ({ permissions: await listPermissions(ctx) })),
  add: adminProcedure.input(addPermissionSchema).mutation(async ({ ctx, input }) => ({ success: true as const, permission: await addPermission(ctx, input) })),
  delete: adminProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deletePermission(ctx, input.id);
    return { success: true as const };
  }),
});
