import { createFileRoute, Outlet } from "@tanstack/react-router";

import { PageSpinner } from "@/components/ui/spinner";
import { useLocale } from "@/i18n/use-messages";
import { requireUser } from "@/lib/guards";

// docs/product.md §2 "Guards", logged-in guard: the pathless layout of every page that needs a signed-in user
// (/account, /admin/*, /protected). A visitor who is not logged in goes to /login; a centred
// spinner shows while the session check runs. Children read the user from the route context.
export const Route = createFileRoute("/_auth")({
  beforeLoad: async ({ context }) => ({ user: await requireUser(context) }),
  pendingComponent: () => <PageSpinner />,
  component: AuthLayout,
});

// docs/decisions/011: the signed-in screens are in the user's language; `lang` tells screen readers and the
// browser's hyphenation which one (the document itself is lang="nl" for the public site).
function AuthLayout() {
  return (
    <div lang={useLocale()} className="contents">
      <Outlet />
    </div>
  );
}
