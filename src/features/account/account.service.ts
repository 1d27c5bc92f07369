import type { HasUser } from '../auth/permissions';
import type { UserProfile } from '../auth/user-profile';

export type MeAnswer = { loggedIn: false } | { loggedIn: true; user: UserProfile };

/** DESIGN §4 GET /api/account/me. */
export function me(ctx: HasUser): MeAnswer {
  return ctx.user ? { loggedIn: true, user: ctx.user } : { loggedIn: false };
}
