import type { Locale } from "../../src/core/locales";
// Message constants from small modules only (zod schemas, plain constants): the service modules pull in
// drizzle and the database, so their texts are copied below instead.
import { USERNAME_RULE_MESSAGE } from "../../src/features/account/account.schemas";
import { ADMIN_TWO_FACTOR_REQUIRED } from "../../src/features/auth/permissions";
import { GROUP_NAME_REQUIRED } from "../../src/features/groups/groups.schemas";
import { PERMISSION_KEY_REQUIRED, PERMISSION_KEY_RULE } from "../../src/features/permissions/permissions.schemas";
import { STORAGE_FAILED } from "../../src/features/versions/upload-limit";

// docs/decisions/011: the server answers in the REST contract's English (its texts are exact, and outside clients
// test against them). A Dutch back-office shows them in Dutch: each known text, or pattern for texts
// with values in them, maps to its translation. A text not listed shows as the server sent it.

type Translation = readonly [pattern: string | RegExp, dutch: string | ((...groups: string[]) => string)];

/** The words zod's readable defaults (src/http/validate.ts) use for an expected type. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "tekst",
  number: "een getal",
  boolean: "true of false",
  object: "een object",
  array: "een lijst",
  date: "een datum",
  bigint: "een geheel getal",
};

/** A field path as src/http/validate.ts names it: `input`, `email`, `permission_ids.3`. */
const FIELD = "([A-Za-z0-9_.]+)";
const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;
const field = (rest: string) => new RegExp(`^${FIELD} ${rest}$`);

/**
 * Exact texts first (any order), then patterns, tried in order: a specific pattern must come before a
 * generic one that would match the same text. Exported for the test that checks the texts still exist.
 */
export const DUTCH: readonly Translation[] = [
  // Transport and permission checks (src/http, src/trpc, src/features/auth).
  ["Not logged in", "Je bent niet ingelogd"],
  ["Forbidden", "Geen toegang"],
  [ADMIN_TWO_FACTOR_REQUIRED, "Tweestapsverificatie is verplicht voor beheerders"],
  ["Maintenance", "Er wordt onderhoud uitgevoerd"],
  ["Not found", "Niet gevonden"],
  ["Too many requests. Please wait a moment and try again.", "Te veel verzoeken. Wacht even en probeer het opnieuw."],
  ["Server error", "Serverfout"],
  ["Invalid input", "Ongeldige invoer"],
  ["Invalid id", "Ongeldig id"],
  ["Malformed JSON body", "Het verzoek bevat geen geldige JSON"],
  ["Request body too large", "Het verzoek is te groot"],
  ["Expected a multipart/form-data body", "Het verzoek moet multipart/form-data zijn"],
  ["Malformed multipart body", "Het multipart-verzoek is ongeldig"],
  ["Cross-site request refused", "Verzoek vanaf een andere site geweigerd"],
  ["Method not allowed", "Methode niet toegestaan"],

  // Sign-in, registration, password reset.
  ["Username and password are required", "Gebruikersnaam en wachtwoord zijn verplicht"],
  ["Invalid username or password", "Gebruikersnaam of wachtwoord is onjuist"],
  ["Two-factor authentication required", "Tweestapsverificatie vereist"],
  [
    "Too many failed login attempts. Please wait 15 minutes and try again.",
    "Te veel mislukte inlogpogingen. Wacht 15 minuten en probeer het opnieuw.",
  ],
  ["Account is not active", "Dit account is niet actief"],
  ["Registration is currently disabled.", "Registreren is op dit moment uitgeschakeld."],
  ["Too many registrations from this address. Please try again later.", "Te veel registraties vanaf dit adres. Probeer het later opnieuw."],
  ["Username is required", "Gebruikersnaam is verplicht"],
  [USERNAME_RULE_MESSAGE, "Een gebruikersnaam heeft 3-32 tekens: letters, cijfers, _ . -"],
  ["Username is already taken", "Deze gebruikersnaam is al in gebruik"],
  ["Password is required", "Wachtwoord is verplicht"],
  ["Username or email is required", "Gebruikersnaam of e-mailadres is verplicht"],
  ["Username or email is too long", "Gebruikersnaam of e-mailadres is te lang"],
  ["Too many requests. Please wait 15 minutes and try again.", "Te veel verzoeken. Wacht 15 minuten en probeer het opnieuw."],
  [
    "This password reset link is invalid or has expired. Request a new one.",
    "Deze link om je wachtwoord opnieuw in te stellen is ongeldig of verlopen. Vraag een nieuwe aan.",
  ],

  // Account page: e-mail, password, sessions.
  ["Email cannot be empty", "Het e-mailadres mag niet leeg zijn"],
  ["Invalid email address", "Ongeldig e-mailadres"],
  ["Email is already in use", "Dit e-mailadres is al in gebruik"],
  ["Too many attempts. Please wait 15 minutes and try again.", "Te veel pogingen. Wacht 15 minuten en probeer het opnieuw."],
  ["Old password is required", "Je huidige wachtwoord is verplicht"],
  ["Old password is incorrect", "Je huidige wachtwoord is onjuist"],
  ["Session not found", "Sessie niet gevonden"],

  // Two-factor authentication.
  ["Code is required", "Code is verplicht"],
  ["Invalid 2FA code", "Ongeldige verificatiecode"],
  ["Too many invalid codes. Please wait 15 minutes and try again.", "Te veel ongeldige codes. Wacht 15 minuten en probeer het opnieuw."],
  ["Two-factor authentication is already enabled", "Tweestapsverificatie staat al aan"],
  ["Two-factor authentication is not enabled", "Tweestapsverificatie staat niet aan"],
  ["Start the two-factor set-up first", "Begin eerst met het instellen van tweestapsverificatie"],
  ["2FA enabled successfully", "Tweestapsverificatie is ingeschakeld"],
  ["Two-factor authentication completed", "Tweestapsverificatie voltooid"],
  ["2FA code is valid", "De verificatiecode is geldig"],
  ["2FA disabled", "Tweestapsverificatie is uitgeschakeld"],

  // Users.
  ["User not found", "Gebruiker niet gevonden"],
  ["Invalid user_id", "Ongeldig user_id"],
  ["Invalid group_id", "Ongeldig group_id"],
  ["Password must be text", "Het wachtwoord moet tekst zijn"],
  ["Status must be active or inactive", "De status moet actief of inactief zijn"],
  ["Nothing to change", "Er is niets te wijzigen"],
  ["You cannot deactivate yourself", "Je kunt jezelf niet deactiveren"],
  ["You cannot delete yourself", "Je kunt jezelf niet verwijderen"],
  ["This user cannot be deleted", "Deze gebruiker kan niet worden verwijderd"],
  ["This user's groups cannot be changed", "De groepen van deze gebruiker kunnen niet worden gewijzigd"],
  ["At least one active administrator must remain", "Er moet minstens één actieve beheerder overblijven"],

  // Groups.
  ["Group not found", "Groep niet gevonden"],
  [GROUP_NAME_REQUIRED, "Groepsnaam is verplicht"],
  ["Group name must be text", "De groepsnaam moet tekst zijn"],
  ["Group name is too long (at most 64 characters)", "De groepsnaam is te lang (hoogstens 64 tekens)"],
  ["Description must be text", "De omschrijving moet tekst zijn"],
  ["Description is too long (at most 500 characters)", "De omschrijving is te lang (hoogstens 500 tekens)"],
  ["permission_ids must be a list of permission ids", "permission_ids moet een lijst met id's van rechten zijn"],
  ["A group with this name already exists", "Er bestaat al een groep met deze naam"],
  ["This group cannot be deleted", "Deze groep kan niet worden verwijderd"],
  ["The default user group cannot be deleted", "De standaardgroep voor nieuwe gebruikers kan niet worden verwijderd"],
  [
    "The default user group cannot hold admin.access: everyone who registers would be an administrator.",
    "De standaardgroep voor nieuwe gebruikers mag admin.access niet hebben: iedereen die zich registreert zou dan beheerder zijn.",
  ],

  // Permissions.
  ["Permission not found", "Recht niet gevonden"],
  [PERMISSION_KEY_REQUIRED, "De sleutel van het recht is verplicht"],
  [PERMISSION_KEY_RULE, "De sleutel van een recht heeft de vorm prefix.action"],
  ["Permission key is too long (at most 64 characters)", "De sleutel van het recht is te lang (hoogstens 64 tekens)"],
  ["A permission with this key already exists", "Er bestaat al een recht met deze sleutel"],
  ["This permission cannot be deleted", "Dit recht kan niet worden verwijderd"],

  // Settings.
  ["Key, value and type are required.", "Sleutel, waarde en type zijn verplicht."],
  ["Key is too long (at most 64 characters).", "De sleutel is te lang (hoogstens 64 tekens)."],
  [
    "Key must start with a lowercase letter and contain only a-z, 0-9, _ . -",
    "Een sleutel begint met een kleine letter en bevat alleen a-z, 0-9, _ . -",
  ],
  ["Minimum and maximum must be whole numbers.", "Minimum en maximum moeten gehele getallen zijn."],
  ["Description is too long (at most 500 characters).", "De omschrijving is te lang (hoogstens 500 tekens)."],
  ["Visibility must be public, private or admin.", "De zichtbaarheid moet public, private of admin zijn."],
  ["deletable must be true or false.", "deletable moet true of false zijn."],
  ["Group is too long (at most 64 characters).", "De groep is te lang (hoogstens 64 tekens)."],
  ["Value must be true or false.", "De waarde moet true of false zijn."],
  ["Value must be a whole number.", "De waarde moet een geheel getal zijn."],
  ["Value must be valid JSON.", "De waarde moet geldige JSON zijn."],
  ["Minimum cannot be greater than maximum.", "Het minimum mag niet groter zijn dan het maximum."],
  ["A setting with this key already exists.", "Er bestaat al een instelling met deze sleutel."],
  ["Setting not found.", "Instelling niet gevonden."],
  ["The type of a built-in setting cannot be changed.", "Het type van een ingebouwde instelling kan niet worden gewijzigd."],
  ["This setting cannot be deleted.", "Deze instelling kan niet worden verwijderd."],
  ["The default user group must be an existing group.", "De standaardgroep voor nieuwe gebruikers moet een bestaande groep zijn."],
  [
    "Turn on two-factor authentication for your own account before requiring it for admins.",
    "Zet eerst tweestapsverificatie aan voor je eigen account voordat je het verplicht maakt voor beheerders.",
  ],
  [
    "The VAT split must be a list of {label, share_percent, vat_rate}.",
    "De btw-verdeling moet een lijst van {label, share_percent, vat_rate} zijn.",
  ],
  ["Every part of the VAT split needs a label.", "Elk deel van de btw-verdeling heeft een label nodig."],
  ["Every share_percent must be a number above 0 and at most 100.", "Elke share_percent moet een getal boven 0 en hoogstens 100 zijn."],
  [
    "Value must be a valid IBAN (e.g. NL91ABNA0417164300): the check digits do not match.",
    "De waarde moet een geldig IBAN zijn (bijv. NL91ABNA0417164300): de controlecijfers kloppen niet.",
  ],
  ["Value must be a KvK number of 8 digits.", "De waarde moet een KvK-nummer van 8 cijfers zijn."],
  [
    "Value must be a Dutch VAT id: NL, 9 digits, B, 2 digits (e.g. NL123456789B01).",
    "De waarde moet een Nederlands btw-nummer zijn: NL, 9 cijfers, B, 2 cijfers (bijv. NL123456789B01).",
  ],

  // Versions (APK upload).
  ["Please fill all fields and select an APK file", "Vul alle velden in en kies een APK-bestand"],
  ["Please select a valid APK file", "Kies een geldig APK-bestand"],
  [STORAGE_FAILED, "Het opslaan van de APK is mislukt; er is niets bewaard. Probeer het opnieuw."],
  ["A form field is too long", "Een formulierveld is te lang"],
  ["The version code must be a whole number from 1 to 2147483647", "De versiecode moet een geheel getal van 1 tot en met 2147483647 zijn"],
  ["The version name is too long (at most 100 characters)", "De versienaam is te lang (hoogstens 100 tekens)"],
  ["Version not found", "Versie niet gevonden"],
  ["The APK file of this version is missing", "Het APK-bestand van deze versie ontbreekt"],
  ["No version has been uploaded yet", "Er is nog geen versie geüpload"],

  // Audit log filters.
  ["Dates are YYYY-MM-DD", "Datums hebben de vorm JJJJ-MM-DD"],
  ["page and per_page are whole numbers from 1", "page en per_page zijn gehele getallen vanaf 1"],
  ["actor is too long", "actor is te lang"],
  ["Unknown action", "Onbekende actie"],

  // Texts with values: specific patterns first.
  [/^Password must be at least (\d+) characters(\.?)$/, (min, stop) => `Het wachtwoord moet minstens ${min} tekens lang zijn${stop}`],
  [/^Password must be at most (\d+) characters\.$/, (max) => `Het wachtwoord mag hoogstens ${max} tekens lang zijn.`],
  [/^Locale must be one of: (.+)$/, (list) => `De taal moet een van deze zijn: ${list}`],
  [/^Value is too long \(at most (\d+) characters\)\.$/, (max) => `De waarde is te lang (hoogstens ${max} tekens).`],
  [/^Value must be at least (-?\d+)\.$/, (min) => `De waarde moet minstens ${min} zijn.`],
  [/^Value must be at most (-?\d+)\.$/, (max) => `De waarde mag hoogstens ${max} zijn.`],
  [/^Value must be one of: (.+)\.$/, (list) => `De waarde moet een van deze zijn: ${list}.`],
  [/^Every vat_rate must be one of (.+)\.$/, (list) => `Elke vat_rate moet een van deze zijn: ${list}.`],
  [
    /^The shares of the VAT split must add up to 100 \(now (.+)\)\.$/,
    (total) => `De aandelen in de btw-verdeling moeten samen 100 zijn (nu ${total}).`,
  ],
  [
    /^Setting (\S+) is a password and needs the secret key to be read\.$/,
    (key) => `Instelling ${key} is een wachtwoord en kan alleen met de geheime sleutel worden gelezen.`,
  ],
  [
    /^Setting (\S+) cannot be read with this SECRET_KEY; enter its value again\.$/,
    (key) => `Instelling ${key} kan met deze SECRET_KEY niet worden gelezen; vul de waarde opnieuw in.`,
  ],
  [/^Missing required setting (\S+)$/, (key) => `Verplichte instelling ${key} ontbreekt`],
  [
    /^The APK is larger than the upload limit of (\d+) MB \(MAX_UPLOAD_MB\)\.$/,
    (mb) => `De APK is groter dan de uploadlimiet van ${mb} MB (MAX_UPLOAD_MB).`,
  ],
  [/^Version code (\d+) already exists$/, (code) => `Versiecode ${code} bestaat al`],

  // zod's readable defaults (src/http/validate.ts describeIssue), naming the field as it is.
  [field("is required"), (name) => `${name} is verplicht`],
  [field("must be an integer"), (name) => `${name} moet een geheel getal zijn`],
  [field(String.raw`must be an? (\w+)`), (name, type) => `${name} moet ${TYPE_NAMES[type] ?? type} zijn`],
  [field(String.raw`is too long \(at most (\d+) characters\)`), (name, max) => `${name} is te lang (hoogstens ${max} tekens)`],
  [field(String.raw`has too many items \(at most (\d+)\)`), (name, max) => `${name} bevat te veel elementen (hoogstens ${max})`],
  [field(`must be at most ${NUMBER}`), (name, max) => `${name} mag hoogstens ${max} zijn`],
  [field(String.raw`is too short \(at least (\d+) characters\)`), (name, min) => `${name} is te kort (minstens ${min} tekens)`],
  [field(String.raw`needs at least (\d+) items`), (name, min) => `${name} heeft minstens ${min} elementen nodig`],
  [field(`must be at least ${NUMBER}`), (name, min) => `${name} moet minstens ${min} zijn`],
  [field("must be one of: (.+)"), (name, list) => `${name} moet een van deze zijn: ${list}`],
  [field("has an invalid format"), (name) => `${name} heeft een ongeldige vorm`],
  [/^Unknown field: (.+)$/, (names) => `Onbekend veld: ${names}`],
  [field("is invalid"), (name) => `${name} is ongeldig`],
];

const exact = new Map(
  DUTCH.filter((entry): entry is readonly [string, string] => typeof entry[0] === "string" && typeof entry[1] === "string"),
);
const patterns = DUTCH.filter((entry) => entry[0] instanceof RegExp) as readonly (readonly [
  RegExp,
  string | ((...groups: string[]) => string),
])[];

/** The server's text in `locale`. */
export function translateServerText(text: string, locale: Locale): string {
  if (locale === "en") return text;
  const known = exact.get(text);
  if (known !== undefined) return known;
  for (const [pattern, dutch] of patterns) {
    const match = pattern.exec(text);
    if (match && match[0] === text) return typeof dutch === "string" ? dutch : dutch(...match.slice(1));
  }
  return text;
}
