import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import ConstructionIcon from "lucide-react/icons/construction";

import { CONTENT_COLUMN } from "@/components/layout/content-column";
import { catalogues } from "@/i18n/catalogue";
import { useLocale } from "@/i18n/use-messages";
import { useSession, useTrpc } from "@/lib/auth";
import { isMaintenanceOn, MAINTENANCE_MODE } from "@/lib/maintenance";
import { hasPermission, PERMISSIONS } from "#src/features/auth/permission-keys";
import { toSettingsLookup } from "@/lib/settings";
import { cn } from "@/lib/utils";
import type { Locale } from "#src/core/locales";
import { settingAnchor } from "../-settings/setting-utils";

// Maintenance mode lets admins through, so without this strip nothing tells them that everyone
// else gets the maintenance page. It shows under the admin toolbar while the setting is on, with a link to
// the setting itself. Only holders of admin.access get past maintenance (and may change settings).

// Its texts are in the catalogue (t.shell.maintenance): in the user's language, or in `language` when the
// page has one of its own (the Management page is in Dutch).
export function MaintenanceBanner({ language }: { language?: Locale }) {
  const trpc = useTrpc();
  const { user } = useSession();
  const locale = useLocale();
  // The settings the root route loaded; a save on the settings page updates them, so the strip follows at once.
  const { data: on = false } = useQuery({
    ...trpc.settings.list.queryOptions(),
    select: (answer) => isMaintenanceOn(toSettingsLookup(answer.settings)),
  });
  if (!on || !hasPermission(user, PERMISSIONS.adminAccess)) return null;
  const text = catalogues[language ?? locale].shell.maintenance;
  return (
    <div data-slot="maintenance-banner" role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950">
      <p data-slot="maintenance-banner-text" className={cn(CONTENT_COLUMN, "flex flex-wrap items-center gap-x-2 gap-y-1 py-2.5 text-sm")}>
        <ConstructionIcon aria-hidden="true" className="size-4 shrink-0 text-amber-700" />
        <strong className="font-semibold">{text.title}</strong>
        <span>{text.text}</span>
        <Link
          to="/admin/settings"
          hash={settingAnchor(MAINTENANCE_MODE)}
          className="font-medium underline underline-offset-4 hover:no-underline"
        >
          {text.link}
        </Link>
      </p>
    </div>
  );
}
