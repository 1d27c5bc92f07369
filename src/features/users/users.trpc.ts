import { adminProcedure, router } from '../../trpc/init';
import { idSchema } from '../../core/record-id';
import { inviteUser } from './invite.service';
import { editUserInputSchema, inviteUserSchema, userGroupSchema } from './users.schemas';
import { assignGroup, deleteUser, editUser, listUsers, removeGroup } from './users.service';

export const usersRouter = router({
  list: adminProcedure.query(async ({ ctx }) => ({ users: await listUsers(ctx) })),
  assignGroup: adminProcedure.input(userGroupSchema).mutation(async ({ ctx, input }) => {
    await assignGroup(ctx, input);
    return { success: true as const };
  }),
  removeGroup: adminProcedure.input(userGroupSchema).mutation(async ({ ctx, input }) => {
    await removeGroup(ctx, input);
    return { success: true as const };
  }),
  invite: adminProcedure.input(inviteUserSchema).mutation(async ({ ctx, input }) => {
    const { user_id } = await inviteUser(ctx, input);
    return { success: true as const, user_id };
  }),
  edit: adminProcedure.input(editUserInputSchema).mutation(async ({ ctx, input }) => {
    const { id, ...changes } = input;
    await editUser(ctx, id, changes);
    return { success: true as const };
  }),
  delete: adminProcedure.input(idSchema).mutation(async ({ ctx, input }) => {
    await deleteUser(ctx, input.id);
    return { success: true as const };
  }),
});
