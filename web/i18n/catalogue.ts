import type { Locale } from "#src/core/locales";
import { account } from "./messages/account";
import { audit } from "./messages/audit";
import { backups } from "./messages/backups";
import { clubs, setup } from "./messages/clubs";
import { common } from "./messages/common";
import { groups } from "./messages/groups";
import { language } from "./messages/language";
import { permissions } from "./messages/permissions";
import { settings } from "./messages/settings";
import { shell } from "./messages/shell";
import { users } from "./messages/users";
import { versions } from "./messages/versions";

// docs/decisions/041: every area's texts, by language. An area is added here once; its screens read it through
// useMessages().
const areas = { common, language, account, shell, users, groups, permissions, settings, versions, audit, backups, clubs, setup };

export type Messages = { [A in keyof typeof areas]: (typeof areas)[A]["en"] };

function catalogueFor(locale: Locale): Messages {
  return Object.fromEntries(Object.entries(areas).map(([area, texts]) => [area, texts[locale]])) as Messages;
}

export const catalogues: Record<Locale, Messages> = { en: catalogueFor("en"), nl: catalogueFor("nl") };

/** Each language's name in itself, for the choice on the account page. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", nl: "Nederlands" };
