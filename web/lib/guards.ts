import { redirect } from "@tanstack/react-router";

import { mayOpenAdminArea } from "@/lib/permissions";
import { hasPermission, type PermissionKey } from "#src/features/auth/permission-keys";
import { type SessionUser, sessionQueryOptions } from "@/lib/session";
import type { RouterContext } from "@/routes/__root";

// docs/product.md §2 "Guards", for the routes' beforeLoad. They read the cached session (the root route has
// already loaded it), so after the first navigation they cost nothing. A session check that fails
// (server unreachable) counts as signed out: the guarded page would fail anyway.

type GuardContext = Pick<RouterContext, "queryClient" | "trpc">;

export async function getSessionUser({ queryClient, trpc }: GuardContext): Promise<SessionUser | null> {
  try {
    const session = await queryClient.ensureQueryData(sessionQueryOptions(trpc));
    return session.loggedIn ? session.user : null;
  } catch {
    return null;
  }
}

/** Logged-in guard: a visitor who is not logged in goes to /login. */
export async function requireUser(context: GuardContext): Promise<SessionUser> {
  const user = await getSessionUser(context);
  if (!user) throw redirect({ to: "/login", replace: true });
  return user;
}

/**
 * Admin and premium guards: a user without the permission goes to `otherwise` (/ unless told; the
 * admin pages send a treasurer back to /admin, where their own tiles are). admin.access passes all.
 */
export function requirePermission(user: SessionUser, key: PermissionKey, otherwise: "/" | "/admin" = "/"): SessionUser {
  if (!hasPermission(user, key)) throw redirect({ to: otherwise, replace: true });
  return user;
}

/** The admin area's outer guard (docs/decisions/026): admin.access or management.access, else /. */
export function requireAdminArea(user: SessionUser): SessionUser {
  if (!mayOpenAdminArea(user)) throw redirect({ to: "/", replace: true });
  return user;
}

/** /login (and /register) send a signed-in visitor to /. */
export async function requireAnonymous(context: GuardContext): Promise<void> {
  if (await getSessionUser(context)) throw redirect({ to: "/", replace: true });
}

/**
 * docs/architecture.md §5 `require_2fa_for_admins`: an admin who must first turn on two-factor goes to /account,
 * whose two-factor card asks for it (the server refuses their admin calls until then).
 */
export async function requireTwoFactorWhenRequired({ queryClient, trpc }: GuardContext): Promise<void> {
  const session = await queryClient.ensureQueryData(sessionQueryOptions(trpc));
  if (session.loggedIn && session.two_factor_setup_required) throw redirect({ to: "/account", replace: true });
}
