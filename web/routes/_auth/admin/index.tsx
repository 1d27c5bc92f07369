import { createFileRoute } from "@tanstack/react-router";
import ShieldIcon from "lucide-react/icons/shield";

import { PageContainer } from "@/components/layout/site-layout";

export const Route = createFileRoute("/_auth/admin/")({
  component: AdminHomePage,
});

// Placeholder admin home; the tiles of spec §2 "Admin home and toolbar" come in a later issue.
function AdminHomePage() {
  return (
    <PageContainer className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-full bg-accent text-primary">
          <ShieldIcon aria-hidden="true" className="size-5" />
        </span>
        <h1 className="text-3xl font-bold tracking-tight">Admin</h1>
      </div>
      <p className="text-muted-foreground">
        The admin screens (users, groups, permissions, settings, versions and management) follow here.
      </p>
    </PageContainer>
  );
}
