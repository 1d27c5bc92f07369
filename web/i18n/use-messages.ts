import { DEFAULT_LOCALE, type Locale } from "#src/core/locales";
import { useSession } from "@/lib/auth";
import { errorText, serverRefusal } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { catalogues, type Messages } from "./catalogue";
import { translateRefusal } from "./server-errors";

/** The signed-in user's back-office language; the default for anyone else. */
export function useLocale(): Locale {
  return useSession().user?.locale ?? DEFAULT_LOCALE;
}

/** The texts of the back-office in the signed-in user's language (docs/decisions/011). */
export function useMessages(): Messages {
  return catalogues[useLocale()];
}

/**
 * `errorText` (web/lib/errors.ts) with the server's text in the user's language: what back-office
 * screens use to show a failed call.
 */
export function useErrorText(): (error: unknown, fallback: string, unexpected?: string) => string {
  const locale = useLocale();
  return (error, fallback, unexpected) => {
    const refusal = serverRefusal(error);
    if (refusal !== null) return translateRefusal(refusal, locale);
    return errorText(error, fallback, unexpected);
  };
}

/** `formatDateTime` (web/lib/format.ts) in the user's language. */
export function useFormatDateTime(): (value: string | null | undefined) => string {
  const locale = useLocale();
  return (value) => formatDateTime(value, locale);
}
