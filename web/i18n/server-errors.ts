import type { ErrorCode } from "#src/core/error-codes";
import type { Locale } from "#src/core/locales";

// docs/decisions/011 and 062: the server answers the accounts and admin calls in the REST contract's English, and
// every refusal carries a stable code with the values its text names. A Dutch back-office shows each refusal by its
// code; a code without a Dutch text here (the campaign's, whose texts are Dutch already) shows as the server sent it.

/** A refusal as the browser receives it: the server's text, its code and the values in the text. */
export interface Refusal {
  code: string | undefined;
  message: string;
  values: Readonly<Record<string, unknown>>;
}

type Values = Readonly<Record<string, unknown>>;
type Dutch = string | ((values: Values) => string);

/** The words zod's readable defaults (src/core/input-issues.ts) use for an expected type. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "tekst",
  number: "een getal",
  int: "een geheel getal",
  boolean: "true of false",
  object: "een object",
  array: "een lijst",
  date: "een datum",
  bigint: "een geheel getal",
};

/** Request fields by their Dutch name; any other field is named as the server names it. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  username: "Gebruikersnaam",
  password: "Wachtwoord",
  old_password: "Je huidige wachtwoord",
  new_password: "Het nieuwe wachtwoord",
  email: "E-mailadres",
  login: "Gebruikersnaam of e-mailadres",
  name: "Naam",
  description: "Omschrijving",
  key: "Sleutel",
  value: "Waarde",
  code: "Code",
  locale: "De taal",
  group_name: "Groep",
  visibility: "De zichtbaarheid",
};

const text = (value: unknown) => String(value ?? "");
const list = (value: unknown) => (Array.isArray(value) ? value.map(String).join(", ") : text(value));
const field = (values: Values) => FIELD_NAMES[text(values.field)] ?? text(values.field);

const DUTCH: { readonly [Code in ErrorCode]?: Dutch } = {
  // Transport, sessions and permissions.
  NOT_LOGGED_IN: "Je bent niet ingelogd",
  FORBIDDEN: "Geen toegang",
  ADMIN_TWO_FACTOR_REQUIRED: "Tweestapsverificatie is verplicht voor beheerders",
  CROSS_SITE_REFUSED: "Verzoek vanaf een andere site geweigerd",
  NOT_FOUND: "Niet gevonden",
  METHOD_NOT_ALLOWED: "Methode niet toegestaan",
  BODY_TOO_LARGE: "Het verzoek is te groot",
  UNSUPPORTED_MEDIA_TYPE: "Het verzoek moet als application/json worden verstuurd",
  MALFORMED_JSON: "Het verzoek bevat geen geldige JSON",
  NOT_MULTIPART: "Het verzoek moet multipart/form-data zijn",
  MALFORMED_MULTIPART: "Het multipart-verzoek is ongeldig",
  TOO_MANY_REQUESTS: "Te veel verzoeken. Wacht even en probeer het opnieuw.",
  MAINTENANCE: "Er wordt onderhoud uitgevoerd",
  SERVER_MISCONFIGURED: "De server is verkeerd ingesteld",
  SERVER_ERROR: "Serverfout",

  // A field that fails its rule.
  INVALID_INPUT: "Ongeldige invoer",
  FIELD_REQUIRED: (v) => `${field(v)} is verplicht`,
  FIELD_WRONG_TYPE: (v) => `${field(v)} moet ${TYPE_NAMES[text(v.expected)] ?? text(v.expected)} zijn`,
  FIELD_TOO_LONG: (v) => `${field(v)} is te lang (hoogstens ${text(v.maximum)} tekens)`,
  FIELD_TOO_SHORT: (v) =>
    Number(v.minimum) <= 1 ? `${field(v)} is verplicht` : `${field(v)} is te kort (minstens ${text(v.minimum)} tekens)`,
  FIELD_TOO_MANY: (v) => `${field(v)} bevat te veel elementen (hoogstens ${text(v.maximum)})`,
  FIELD_TOO_FEW: (v) => `${field(v)} heeft minstens ${text(v.minimum)} elementen nodig`,
  FIELD_TOO_BIG: (v) => `${field(v)} mag hoogstens ${text(v.maximum)} zijn`,
  FIELD_TOO_SMALL: (v) => `${field(v)} moet minstens ${text(v.minimum)} zijn`,
  FIELD_NOT_ALLOWED: (v) => `${field(v)} moet een van deze zijn: ${list(v.values)}`,
  FIELD_INVALID: (v) => `${field(v)} is ongeldig`,
  UNKNOWN_FIELD: (v) => `Onbekend veld: ${list(v.keys)}`,

  // Sign-in, registration, account, password reset, two-factor.
  INVALID_CREDENTIALS: "Gebruikersnaam of wachtwoord is onjuist",
  TWO_FACTOR_REQUIRED: "Tweestapsverificatie vereist",
  LOGIN_BLOCKED: "Te veel mislukte inlogpogingen. Wacht 15 minuten en probeer het opnieuw.",
  ACCOUNT_INACTIVE: "Dit account is niet actief",
  REGISTRATION_DISABLED: "Registreren is op dit moment uitgeschakeld.",
  USERNAME_INVALID: "Een gebruikersnaam heeft 3-32 tekens: letters, cijfers, _ . -",
  USERNAME_TAKEN: "Deze gebruikersnaam is al in gebruik",
  EMAIL_EMPTY: "Het e-mailadres mag niet leeg zijn",
  EMAIL_INVALID: "Ongeldig e-mailadres",
  EMAIL_TAKEN: "Dit e-mailadres is al in gebruik",
  PASSWORD_TOO_SHORT: (v) => `Het wachtwoord moet minstens ${text(v.min_length)} tekens lang zijn.`,
  OLD_PASSWORD_REQUIRED: "Je huidige wachtwoord is verplicht",
  OLD_PASSWORD_INCORRECT: "Je huidige wachtwoord is onjuist",
  RESET_LINK_INVALID: "Deze link om je wachtwoord opnieuw in te stellen is ongeldig of verlopen. Vraag een nieuwe aan.",
  SESSION_NOT_FOUND: "Sessie niet gevonden",
  TWO_FACTOR_ALREADY_ENABLED: "Tweestapsverificatie staat al aan",
  TWO_FACTOR_NOT_ENABLED: "Tweestapsverificatie staat niet aan",
  TWO_FACTOR_NOT_STARTED: "Begin eerst met het instellen van tweestapsverificatie",
  TWO_FACTOR_CODE_INVALID: "Ongeldige verificatiecode",

  // Users, groups, permissions.
  USER_NOT_FOUND: "Gebruiker niet gevonden",
  USER_NOT_DELETABLE: "Deze gebruiker kan niet worden verwijderd",
  USER_GROUPS_LOCKED: "De groepen van deze gebruiker kunnen niet worden gewijzigd",
  NOTHING_TO_CHANGE: "Er is niets te wijzigen",
  CANNOT_DEACTIVATE_SELF: "Je kunt jezelf niet deactiveren",
  CANNOT_DELETE_SELF: "Je kunt jezelf niet verwijderen",
  LAST_ADMIN: "Er moet minstens één actieve beheerder overblijven",
  GROUP_NOT_FOUND: "Groep niet gevonden",
  GROUP_NAME_TAKEN: "Er bestaat al een groep met deze naam",
  GROUP_NOT_DELETABLE: "Deze groep kan niet worden verwijderd",
  DEFAULT_GROUP_NOT_DELETABLE: "De standaardgroep voor nieuwe gebruikers kan niet worden verwijderd",
  DEFAULT_GROUP_ADMIN:
    "De standaardgroep voor nieuwe gebruikers mag admin.access niet hebben: iedereen die zich registreert zou dan beheerder zijn.",
  PERMISSION_NOT_FOUND: "Recht niet gevonden",
  PERMISSION_KEY_INVALID: "De sleutel van een recht heeft de vorm prefix.action",
  PERMISSION_KEY_TAKEN: "Er bestaat al een recht met deze sleutel",
  PERMISSION_NOT_DELETABLE: "Dit recht kan niet worden verwijderd",

  // Settings.
  SETTING_NOT_FOUND: "Instelling niet gevonden.",
  SETTING_KEY_TAKEN: "Er bestaat al een instelling met deze sleutel.",
  SETTING_VALUE_REQUIRED: "Sleutel, waarde en type zijn verplicht.",
  SETTING_NOT_BOOLEAN: "De waarde moet true of false zijn.",
  SETTING_NOT_INTEGER: "De waarde moet een geheel getal zijn.",
  SETTING_TOO_SMALL: (v) => `De waarde moet minstens ${text(v.minimum)} zijn.`,
  SETTING_TOO_BIG: (v) => `De waarde mag hoogstens ${text(v.maximum)} zijn.`,
  SETTING_NOT_JSON: "De waarde moet geldige JSON zijn.",
  SETTING_NOT_ONE_OF: (v) => `De waarde moet een van deze zijn: ${list(v.values)}.`,
  SETTING_URL_INVALID: "De waarde moet een http://- of https://-adres zijn (bijv. https://www.example.nl/).",
  IBAN_INVALID: "De waarde moet een geldig IBAN zijn (bijv. NL91ABNA0417164300): de controlecijfers kloppen niet.",
  IDEMPOTENCY_KEY_REUSED: "Deze Idempotency-Key is al gebruikt voor een ander verzoek.",
  MOLLIE_KEY_INVALID: "De waarde moet een Mollie-API-sleutel zijn: test_ of live_ gevolgd door minstens 30 letters en cijfers (of leeg).",
  KVK_NUMBER_INVALID: "De waarde moet een KvK-nummer van 8 cijfers zijn.",
  LEDGER_ACCOUNT_INVALID: "De waarde moet een grootboekrekening zijn: 1 tot 20 letters, cijfers, punten of streepjes (bijv. 8000).",
  VAT_ID_INVALID: "De waarde moet een Nederlands btw-nummer zijn: NL, 9 cijfers, B, 2 cijfers (bijv. NL123456789B01).",
  VAT_SPLIT_LABEL_MISSING: "Elk deel van de btw-verdeling heeft een label nodig.",
  VAT_SPLIT_SHARE_INVALID: "Elke share_percent moet een getal boven 0 en hoogstens 100 zijn.",
  VAT_SPLIT_RATE_INVALID: (v) => `Elke vat_rate moet een van deze zijn: ${list(v.values)}.`,
  VAT_SPLIT_TOTAL_WRONG: (v) => `De aandelen in de btw-verdeling moeten samen 100 zijn (nu ${text(v.total)}).`,
  SETTING_MIN_ABOVE_MAX: "Het minimum mag niet groter zijn dan het maximum.",
  SETTING_TYPE_LOCKED: "Het type van een ingebouwde instelling kan niet worden gewijzigd.",
  SETTING_NOT_DELETABLE: "Deze instelling kan niet worden verwijderd.",
  SETTING_MISSING: (v) => `Verplichte instelling ${text(v.key)} ontbreekt`,
  SECRET_KEY_MISSING: (v) => `Instelling ${text(v.key)} is een wachtwoord en kan alleen met de geheime sleutel worden gelezen.`,
  SETTING_UNREADABLE: (v) => `Instelling ${text(v.key)} kan met deze SECRET_KEY niet worden gelezen; vul de waarde opnieuw in.`,
  DEFAULT_GROUP_UNKNOWN: "De standaardgroep voor nieuwe gebruikers moet een bestaande groep zijn.",
  TWO_FACTOR_FIRST: "Zet eerst tweestapsverificatie aan voor je eigen account voordat je het verplicht maakt voor beheerders.",

  // App versions.
  UPLOAD_INCOMPLETE: "Vul alle velden in en kies een APK-bestand",
  UPLOAD_FIELD_TOO_LONG: "Een formulierveld is te lang",
  UPLOAD_TOO_LARGE: (v) => `De APK is groter dan de uploadlimiet van ${text(v.max_mb)} MB (MAX_UPLOAD_MB).`,
  APK_INVALID: "Kies een geldig APK-bestand",
  VERSION_CODE_INVALID: "De versiecode moet een geheel getal van 1 tot en met 2147483647 zijn",
  VERSION_CODE_TAKEN: (v) => `Versiecode ${text(v.version_code)} bestaat al`,
  VERSION_NAME_TOO_LONG: "De versienaam is te lang (hoogstens 100 tekens)",
  VERSION_NOT_FOUND: "Versie niet gevonden",
  NO_VERSION: "Er is nog geen versie geüpload",
  FILE_MISSING: "Het APK-bestand van deze versie ontbreekt",
  STORAGE_FAILED: "Het opslaan van de APK is mislukt; er is niets bewaard. Probeer het opnieuw.",
  BACKUP_NOT_FOUND: "Back-up niet gevonden",

  // The platform's clubs (the admin calls answer in English).
  CLUB_NOT_FOUND: "Club niet gevonden",
  CLUB_SLUG_TAKEN: "Deze slug is al van een andere club.",
  CLUB_HOST_TAKEN: "Deze host is al van een andere club.",
  CLUB_HOST_REQUIRED: "Geef de club een eigen host: deze installatie heeft geen CLUBS_DOMAIN voor <slug>-adressen.",
  FIRST_CLUB_NOT_SUSPENDABLE: "De eerste club draait deze installatie en kan niet worden opgeschort.",
  CLUB_SIGNUP_CLOSED: "Aanmelden is op dit moment niet mogelijk.",
};

/**
 * The codes whose server text is Dutch already (the campaign's: orders, invoices, payments, tablers, mail), so a
 * Dutch back-office shows them as sent. Exported for the test that every other code has a Dutch text.
 */
export const SENT_IN_DUTCH: readonly ErrorCode[] = [
  "GATE_INPUT_INVALID",
  "GATE_NO_MATCH",
  "TABLER_NOT_FOUND",
  "TABLER_NAME_REQUIRED",
  "TABLER_NAME_INVALID",
  "TABLER_NAME_TAKEN",
  "TABLER_NAME_TOO_SIMILAR",
  "TABLER_REQUIRED",
  "UNKNOWN_TABLER",
  "ORDER_NOT_FOUND",
  "ORDER_NOT_STORED",
  "PHONE_INVALID",
  "NAME_HAS_LINK",
  "QUANTITY_INVALID",
  "QUANTITY_NOT_WHOLE",
  "POSTCODE_INVALID",
  "AMOUNT_OUT_OF_RANGE",
  "INVOICE_LOCKED",
  "VAT_RATE_WITHOUT_LEDGER",
  "INVOICED_ORDER_NOT_DELETABLE",
  "CREDITED_NOT_PAYABLE",
  "PAID_BY_PART_PAYMENTS",
  "INVOICE_SETTINGS_INCOMPLETE",
  "VAT_SPLIT_INVALID",
  "PACKAGE_PRICE_INVALID",
  "ORDER_CREDITED",
  "REMINDER_NEEDS_INVOICE",
  "ALREADY_PAID",
  "REMINDER_NOT_DUE",
  "REMINDER_JUST_SENT",
  "NOTHING_TO_CREDIT",
  "ALREADY_CREDITED",
  "DOCUMENT_NOT_FOUND",
  "STATEMENT_TOO_LARGE",
  "NOT_A_FORM_UPLOAD",
  "NO_STATEMENT_FILE",
  "STATEMENT_EMPTY",
  "NOT_CAMT053",
  "IS_CAMT052",
  "IS_CAMT054",
  "NO_STATEMENT",
  "IMPORT_NOT_FOUND",
  "ENTRY_NOT_FOUND",
  "NOT_A_FOLLOW_UP",
  "FOLLOW_UP_RESOLVED",
  "ENTRY_ALREADY_BOOKED",
  "PAID_BY_BANK",
  "REASON_REQUIRED",
  "ORDER_REQUIRED",
  "REFERENCE_INVALID",
  "CHANGED_MEANWHILE",
  "ORDER_PAGE_NOT_FOUND",
  "ONLINE_PAYMENTS_OFF",
  "PAYMENT_PROVIDER_FAILED",
  "PAYMENT_PROVIDER_UNAVAILABLE",
  "PAYMENT_ID_INVALID",
  "NO_ONLINE_PAYMENT",
  "NOTHING_TO_REFUND",
  "REFUND_TOO_LARGE",
  "REFUND_REFUSED",
  "SELLER_LINK_INVALID",
  "SELLER_NOT_FOUND",
  "MAIL_NOT_FOUND",
  "MAIL_ALREADY_SENT",
  "MAIL_BUSY",
  "CLUB_SIGNUP_LINK_INVALID",
];

/** The refusal's text in `locale`: by its code, else as the server sent it. */
export function translateRefusal(refusal: Refusal, locale: Locale): string {
  if (locale === "en" || refusal.code === undefined) return refusal.message;
  const dutch = DUTCH[refusal.code as ErrorCode];
  if (dutch === undefined) return refusal.message;
  return typeof dutch === "string" ? dutch : dutch(refusal.values);
}

/** Whether the Dutch back-office has a text of its own for `code` (for the test of the catalogue). */
export const hasDutchText = (code: ErrorCode) => DUTCH[code] !== undefined;
