import { useQuery } from "@tanstack/react-query";

import { toSettingsLookup } from "@/lib/settings";
import { DEFAULT_SITE, type SiteIdentity, siteFromSettings } from "@/lib/site";
import { useTrpcOptions } from "@/lib/trpc-context";

/**
 * The club identity from the public settings, for the SPA's root to provide. The root route already
 * loaded them, so this reads the cache; the defaults show only while they load or when the call failed.
 */
export function useSettingsSiteIdentity(): SiteIdentity {
  const trpc = useTrpcOptions();
  const { data } = useQuery({
    ...trpc.settings.list.queryOptions(),
    select: (answer) => siteFromSettings(toSettingsLookup(answer.settings)),
  });
  return data ?? DEFAULT_SITE;
}
