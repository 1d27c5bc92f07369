import { createFileRoute, Link } from "@tanstack/react-router";
import ChevronRightIcon from "lucide-react/icons/chevron-right";
import ShieldIcon from "lucide-react/icons/shield";

import { PageContainer } from "@/components/layout/site-layout";
import { useMessages } from "@/i18n/use-messages";
import { useSession } from "@/lib/auth";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";
import { sectionsFor } from "./-components/admin-sections";

// docs/product.md §2 "Admin home and toolbar": /admin is a grid of the six tiles (icon, title, one line), of which
// a user sees those they may open (docs/decisions/026: a treasurer only Management).
export const Route = createFileRoute("/_auth/admin/")({
  component: AdminHomePage,
});

function AdminHomePage() {
  const { user } = useSession();
  const t = useMessages();
  return (
    <PageContainer className="flex flex-col gap-6">
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <ShieldIcon aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{t.shell.home.title}</h1>
          <p className="text-sm text-muted-foreground">
            {hasPermission(user, PERMISSIONS.adminAccess) ? t.shell.home.adminDescription : t.shell.home.managementDescription}
          </p>
        </div>
      </div>
      <nav aria-label={t.shell.home.nav}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sectionsFor(user).map(({ to, key, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                data-slot="admin-tile"
                className="group flex h-full items-center gap-4 rounded-xl border bg-card p-5 text-card-foreground shadow-sm transition-[box-shadow,border-color] outline-none hover:border-primary/40 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-accent text-primary transition-colors group-hover:bg-primary group-hover:text-primary-foreground">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <span className="grid min-w-0 flex-1 gap-1">
                  <span className="text-lg leading-tight font-semibold">{t.shell.sections[key].title}</span>
                  <span className="text-sm text-muted-foreground">{t.shell.sections[key].description}</span>
                </span>
                <ChevronRightIcon
                  aria-hidden="true"
                  className="size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
                />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </PageContainer>
  );
}
