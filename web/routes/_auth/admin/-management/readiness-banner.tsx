import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import TriangleAlertIcon from "lucide-react/icons/triangle-alert";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { useSession, useTrpc } from "@/lib/auth";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";

// docs/decisions/019: invoices cannot go out while the club's IBAN, KvK number or VAT id still holds its seeded
// placeholder (or is invalid), and the server refuses each send. Saying so at the top of the dashboard,
// with the server's own Dutch reasons, spares a treasurer a series of refusals. Only an admin can edit
// settings, so a treasurer is told whom to ask instead of getting a link that would turn them away.

export function ReadinessBanner() {
  const trpc = useTrpc();
  const { user } = useSession();
  // Always asked again when the dashboard opens: the settings may have been fixed a moment ago.
  const readiness = useQuery({ ...trpc.invoices.readiness.queryOptions(), staleTime: 0 });
  if (!readiness.data || readiness.data.ready) return null;
  const isAdmin = hasPermission(user, PERMISSIONS.adminAccess);
  return (
    <Alert data-slot="readiness-banner" className="border-amber-300 bg-amber-50 text-amber-950">
      <TriangleAlertIcon aria-hidden="true" className="text-amber-700" />
      <AlertTitle className="line-clamp-none">Facturen kunnen nog niet worden verstuurd</AlertTitle>
      <AlertDescription className="text-amber-950">
        <ul className="list-disc pl-5">
          {readiness.data.problems.map((problem) => (
            <li key={problem.key}>{problem.message}</li>
          ))}
        </ul>
        {isAdmin ? (
          <Link to="/admin/settings" className="font-medium text-amber-950 underline underline-offset-4 hover:no-underline">
            Naar de instellingen
          </Link>
        ) : (
          <p>Vraag een beheerder om deze instellingen in te vullen.</p>
        )}
      </AlertDescription>
    </Alert>
  );
}
