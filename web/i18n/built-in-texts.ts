import type { Locale } from "#src/core/locales";
import { BUILT_IN_SETTINGS } from "#src/features/settings/settings.defaults";
import { PLATFORM_PERMISSION, SEED_GROUPS, SEED_PERMISSIONS } from "#src/features/setup/seed-data";

// docs/decisions/041: the descriptions of the built-in settings, permissions and groups are stored in English, the
// seed's words. A Dutch back-office shows them in Dutch while they are still those words; a description an
// admin typed is data and shows as typed. Setting groups are identifiers with a Dutch title here.

const SETTINGS: Readonly<Record<string, string>> = {
  allow_registration: "Bezoekers mogen een account aanmaken op /register.",
  password_min_length: "Minimale lengte van een wachtwoord bij registratie en bij een nieuw wachtwoord door een beheerder.",
  registration_requires_activation: "Nieuwe accounts blijven inactief tot een beheerder ze activeert.",
  default_user_group_id: "De groep waar nieuwe gebruikers in komen.",
  require_2fa_for_admins: "Wie admin.access heeft, moet eerst tweestapsverificatie aanzetten voordat een beheeractie werkt.",
  session_max_age_days: "Een sessie eindigt zoveel dagen na het inloggen, hoe vaak ze ook gebruikt wordt.",
  audit_retention_days: "Regels in het auditlog ouder dan zoveel dagen worden verwijderd.",
  maintenance_mode: "Toon iedereen zonder beheerderstoegang de onderhoudspagina en weiger wijzigingen van buitenaf.",
  club_name: "Naam van de club, op de site en op facturen.",
  club_town: "Plaats van de club.",
  club_address: "Postadres van de club, in de voettekst en op facturen.",
  club_email: "E-mailadres van de club; berichten van het contactformulier gaan hierheen.",
  club_facebook_url: "Link naar de socialemediapagina van de club.",
  club_website_url: "Link naar de eigen site van de organisatie.",
  package_price: "Prijs van één kerstpakket in euro, zonder btw.",
  vat_split:
    "Hoe de pakketprijs over de btw-tarieven verdeeld is: een lijst van {label, share_percent, vat_rate}; de aandelen tellen op tot 100.",
  club_iban: "IBAN op de facturen, voor de betaling.",
  club_kvk_number: "KvK-nummer op de facturen.",
  club_vat_id: "Btw-identificatienummer op de facturen.",
  invoice_payment_term_days: "Aantal dagen waarbinnen een factuur betaald moet zijn.",
  reminder_auto_days: "Stuur zoveel dagen nadat een factuur vervallen is vanzelf een eerste betalingsherinnering; 0 = uit.",
  geocoder_provider: "Dienst voor het zoeken van adressen: pdok (de Nederlandse PDOK Locatieserver) of nominatim (een Nominatim-server).",
  geocoder_url: "Basis-URL van de dienst voor het zoeken van adressen.",
  online_payments:
    "Klanten kunnen online betalen vanaf hun bestelpagina (iDEAL en de andere methodes die in het Mollie-account van de club aan staan).",
  mollie_api_key:
    "De API-sleutel van het Mollie-account van de club (test_… om te proberen, live_… voor echte betalingen); leeg = niet gekoppeld.",
  ledger_revenue_21: "Grootboekrekening voor de omzet tegen 21 % btw in het journaal voor de boekhouder.",
  ledger_revenue_9: "Grootboekrekening voor de omzet tegen 9 % btw in het journaal voor de boekhouder.",
  ledger_revenue_0: "Grootboekrekening voor de omzet tegen 0 % btw in het journaal voor de boekhouder.",
  ledger_vat_21: "Grootboekrekening voor af te dragen btw tegen 21 % in het journaal voor de boekhouder.",
  ledger_vat_9: "Grootboekrekening voor af te dragen btw tegen 9 % in het journaal voor de boekhouder.",
  ledger_debtors: "Grootboekrekening voor debiteuren (wat klanten nog moeten betalen) in het journaal voor de boekhouder.",
  ledger_bank:
    "Grootboekrekening voor de bankrekening van de club in het journaal voor de boekhouder (overboekingen, en betalingen die met de hand zijn afgevinkt).",
  ledger_payment_provider:
    "Grootboekrekening voor de betaaldienst (Mollie) in het journaal voor de boekhouder: online betalingen erin, terugbetalingen en terugboekingen eruit.",
  club_signup:
    "Andere clubs kunnen zich aanmelden op /aanmelden (van de eerste club) en, na bevestiging van hun e-mailadres, hun eigen actie op deze installatie draaien.",
  club_setup_pending:
    "De beheerders van de club zien bij het inloggen nog de korte inrichting (naam, plaats, bank, prijs, eerste tablers).",
};

const PERMISSIONS: Readonly<Record<string, string>> = {
  "admin.access": "Toegang tot het beheer; slaagt voor elke rechtencontrole en werkt ook tijdens onderhoud.",
  "premium.aiusage": "Toegang tot het premiumgedeelte (/protected).",
  "users.assign": "De groepen van een gebruiker wijzigen.",
  "users.delete": "Gebruikers verwijderen.",
  "settings.delete": "Verwijderbare instellingen verwijderen.",
  "management.access":
    "Het Management-dashboard: tablers, bestellingen, facturen, betalingen en de CSV-export, zonder de rest van het beheer.",
  "platform.access": "Het platform: de clubs van deze installatie (overzicht, aanmaken, schorsen, adressen). Alleen in de eerste club.",
};

const GROUPS: Readonly<Record<string, string>> = {
  Administrators: "Beheerders van de club, met volledige toegang.",
  Users: "Geregistreerde gebruikers (standaardgroep).",
  Penningmeesters: "Penningmeesters: het Management-dashboard (bestellingen, facturen, betalingen), verder niets van het beheer.",
};

const SETTING_GROUPS: Readonly<Record<string, string>> = {
  general: "Algemeen",
  auth: "Inloggen en accounts",
  club: "Club",
  invoice: "Facturen",
  geocoder: "Adressen zoeken",
  payments: "Online betalen",
  books: "Boekhouding",
  platform: "Platform",
};

/** The Dutch texts, for the test that every built-in thing has one. */
export const DUTCH_BUILT_IN_TEXTS = { settings: SETTINGS, permissions: PERMISSIONS, groups: GROUPS, settingGroups: SETTING_GROUPS };

const english = {
  settings: new Map(BUILT_IN_SETTINGS.map((s) => [s.key, s.description])),
  permissions: new Map<string, string>([...SEED_PERMISSIONS, PLATFORM_PERMISSION].map((p) => [p.key, p.description])),
  groups: new Map(SEED_GROUPS.map((g) => [g.name, g.description])),
};

function builtIn(kind: keyof typeof english, id: string, stored: string, locale: Locale): string {
  if (locale === "en" || english[kind].get(id) !== stored) return stored;
  return DUTCH_BUILT_IN_TEXTS[kind][id] ?? stored;
}

export const settingDescription = (key: string, stored: string, locale: Locale) => builtIn("settings", key, stored, locale);
export const permissionDescription = (key: string, stored: string, locale: Locale) => builtIn("permissions", key, stored, locale);
export const groupDescription = (name: string, stored: string, locale: Locale) => builtIn("groups", name, stored, locale);

/** A settings group's heading: 'Invoice' for `invoice`, or its Dutch title. */
export function settingGroupTitle(name: string, locale: Locale): string {
  const dutch = locale === "nl" ? SETTING_GROUPS[name] : undefined;
  if (dutch) return dutch;
  const text = name.replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
