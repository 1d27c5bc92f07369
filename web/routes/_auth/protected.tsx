import { createFileRoute } from "@tanstack/react-router";
import LogOutIcon from "lucide-react/icons/log-out";
import SparklesIcon from "lucide-react/icons/sparkles";

import { PageContainer } from "@/components/layout/site-layout";
import { Button } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { useLogout, useSession } from "@/lib/auth";
import { requirePermission } from "@/lib/guards";
import { PERMISSIONS } from "#src/features/auth/permission-keys";

// docs/product.md §2 route table and "Guards", premium guard: /protected redirects to / unless the user holds
// premium.aiusage (admin.access passes every check).
export const Route = createFileRoute("/_auth/protected")({
  beforeLoad: ({ context }) => {
    requirePermission(context.user, PERMISSIONS.premiumAiUsage);
  },
  pendingComponent: () => <PageSpinner />,
  component: ProtectedPage,
});

function ProtectedPage() {
  const { user, isPending } = useSession();
  const { logout, isPending: loggingOut } = useLogout();
  if (isPending) return <PageSpinner />;
  return (
    <PageContainer className="flex flex-col items-start gap-4">
      <span className="flex size-12 items-center justify-center rounded-full bg-accent text-primary">
        <SparklesIcon aria-hidden="true" className="size-6" />
      </span>
      <h1 className="text-3xl font-bold tracking-tight">Welcome, {user?.username ?? "guest"}!</h1>
      <p className="text-muted-foreground">This area is for premium members.</p>
      <Button variant="outline" onClick={() => void logout()} disabled={loggingOut}>
        <LogOutIcon aria-hidden="true" />
        Logout
      </Button>
    </PageContainer>
  );
}
