import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouteContext } from "@tanstack/react-router";

import { serverRefusal } from "@/lib/errors";
import { type Session, type SessionUser, sessionQueryOptions } from "@/lib/session";
import type { Trpc } from "@/lib/trpc";
import type { Locale } from "#src/core/locales";

// docs/product.md §4 "Session": the session mutations in one place, so every screen refreshes the cache the
// same way:
// - after login, two-factor completion and registration the session and the settings are refetched
//   (private settings become visible to a signed-in user);
// - logout clears the cached user even when the server call fails;
// - a successful e-mail update changes the e-mail in the cached user;
// - two-factor verification and disabling refetch the user.

/** The tRPC options proxy from the router context (see router.tsx). */
export function useTrpc(): Trpc {
  return useRouteContext({ from: "__root__", select: (context) => context.trpc });
}

/**
 * The signed-in user, or null; `isPending` while the session check runs; `twoFactorSetupRequired`
 * for an admin who must turn on two-factor first (docs/architecture.md §5).
 */
export function useSession(): { user: SessionUser | null; isPending: boolean; twoFactorSetupRequired: boolean } {
  const trpc = useTrpc();
  const query = useQuery(sessionQueryOptions(trpc));
  const session = query.data?.loggedIn ? query.data : null;
  return { user: session?.user ?? null, isPending: query.isPending, twoFactorSetupRequired: session?.two_factor_setup_required ?? false };
}

/**
 * Refetches the session and the settings, also when nothing on screen watches them, so the next
 * route guard reads fresh data. Never throws: a failed refetch keeps the previous data.
 */
export async function refreshSessionAndSettings(queryClient: QueryClient, trpc: Trpc): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey(), refetchType: "all" }),
    queryClient.invalidateQueries({ queryKey: trpc.settings.list.queryKey(), refetchType: "all" }),
  ]);
}

function refreshUser(queryClient: QueryClient, trpc: Trpc): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey(), refetchType: "all" });
}

/** Sign-in with username and password. A two-factor user gets an error naming two-factor. */
export function useLogin() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.account.login.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.account.me.queryKey(), { loggedIn: true, user: result.user } as Session);
        await refreshSessionAndSettings(queryClient, trpc);
      },
    }),
  );
}

/**
 * Where a fresh sign-in lands: /, or /account when the club requires two-factor for admins and this
 * admin has not turned it on yet (docs/architecture.md §5). Reads the session the sign-in just refetched.
 */
export function pathAfterSignIn(queryClient: QueryClient, trpc: Trpc): "/" | "/account" {
  const session = queryClient.getQueryData(trpc.account.me.queryKey());
  return session?.loggedIn && session.two_factor_setup_required ? "/account" : "/";
}

/** docs/product.md §4 "Sign-in modes": true when a failed login asks for the second factor. */
export function isTwoFactorRequired(error: unknown): boolean {
  return serverRefusal(error)?.code === "TWO_FACTOR_REQUIRED";
}

/** The second step of a two-factor sign-in: a 6-digit code or a recovery code. */
export function useCompleteTwoFactorLogin() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.twoFactor.completeLogin.mutationOptions({
      onSuccess: () => refreshSessionAndSettings(queryClient, trpc),
    }),
  );
}

export function useRegister() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.account.register.mutationOptions({
      onSuccess: () => refreshSessionAndSettings(queryClient, trpc),
    }),
  );
}

/**
 * Logs out and goes to /login. The cached user is cleared whatever the server answers (docs/product.md §4),
 * then the session and settings are fetched again, and data cached for the signed-in user is
 * dropped. Never throws.
 */
export function useLogout(): { logout: () => Promise<void>; isPending: boolean } {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = useMutation(trpc.account.logout.mutationOptions());

  async function logout() {
    try {
      await mutation.mutateAsync();
    } catch (error) {
      console.warn("Logout failed; clearing the local session anyway", error);
    }
    queryClient.setQueryData(trpc.account.me.queryKey(), { loggedIn: false } as Session);
    await navigate({ to: "/login" });
    const meKey = JSON.stringify(trpc.account.me.queryKey());
    const settingsKey = JSON.stringify(trpc.settings.list.queryKey());
    queryClient.removeQueries({
      predicate: (query) => {
        const key = JSON.stringify(query.queryKey);
        return key !== meKey && key !== settingsKey;
      },
    });
    await refreshSessionAndSettings(queryClient, trpc);
  }

  return { logout, isPending: mutation.isPending };
}

export function useUpdateEmail() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.account.editEmail.mutationOptions({
      onSuccess: (_result, { email }) => {
        queryClient.setQueryData(trpc.account.me.queryKey(), (session) =>
          session?.loggedIn ? { ...session, user: { ...session.user, email } } : session,
        );
      },
    }),
  );
}

export function useChangePassword() {
  const trpc = useTrpc();
  return useMutation(trpc.account.changePassword.mutationOptions());
}

export function useTwoFactorSetup() {
  const trpc = useTrpc();
  return useMutation(trpc.twoFactor.setup.mutationOptions());
}

export function useTwoFactorVerify() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.twoFactor.verify.mutationOptions({
      onSuccess: () => refreshUser(queryClient, trpc),
    }),
  );
}

export function useTwoFactorDisable() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.twoFactor.disable.mutationOptions({
      onSuccess: () => refreshUser(queryClient, trpc),
    }),
  );
}

/**
 * docs/decisions/011: the back-office language. The cached user changes at once (every screen follows before the
 * server answers), and changes back when the server refuses.
 */
export function useSetLocale() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const withLocale = (locale: Locale) => (session: Session | undefined) =>
    session?.loggedIn ? { ...session, user: { ...session.user, locale } } : session;
  return useMutation(
    trpc.account.setLocale.mutationOptions({
      onMutate: async ({ locale }) => {
        await queryClient.cancelQueries({ queryKey: trpc.account.me.queryKey() });
        const previous = queryClient.getQueryData(trpc.account.me.queryKey());
        queryClient.setQueryData(trpc.account.me.queryKey(), withLocale(locale));
        return { previous: previous?.loggedIn ? previous.user.locale : null };
      },
      onError: (_error, _input, context) => {
        if (context?.previous) queryClient.setQueryData(trpc.account.me.queryKey(), withLocale(context.previous));
      },
    }),
  );
}
