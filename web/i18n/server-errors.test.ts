import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

import { DUTCH, translateServerText } from "./server-errors";

/** Every non-test source file of the server, as one text. */
function serverSource(): string {
  const root = fileURLToPath(new URL("../../src", import.meta.url));
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) texts.push(readFileSync(path, "utf8"));
    }
  };
  walk(root);
  return texts.join("\n");
}

// English as the server sends it → the Dutch the back-office shows. Every pattern entry has a sample here.
const SAMPLES: readonly (readonly [string, string])[] = [
  ["Forbidden", "Geen toegang"],
  ["Not logged in", "Je bent niet ingelogd"],
  ["Two-factor authentication is required for admins", "Tweestapsverificatie is verplicht voor beheerders"],
  ["Invalid username or password", "Gebruikersnaam of wachtwoord is onjuist"],
  [
    "Too many failed login attempts. Please wait 15 minutes and try again.",
    "Te veel mislukte inlogpogingen. Wacht 15 minuten en probeer het opnieuw.",
  ],
  ["Email is already in use", "Dit e-mailadres is al in gebruik"],
  ["Old password is incorrect", "Je huidige wachtwoord is onjuist"],
  ["Username must be 3-32 characters: letters, digits, _ . -", "Een gebruikersnaam heeft 3-32 tekens: letters, cijfers, _ . -"],
  ["Invalid 2FA code", "Ongeldige verificatiecode"],
  ["At least one active administrator must remain", "Er moet minstens één actieve beheerder overblijven"],
  ["This user's groups cannot be changed", "De groepen van deze gebruiker kunnen niet worden gewijzigd"],
  ["Group name is required", "Groepsnaam is verplicht"],
  ["Permission key must look like prefix.action", "De sleutel van een recht heeft de vorm prefix.action"],
  ["A setting with this key already exists.", "Er bestaat al een instelling met deze sleutel."],
  ["Storing the APK failed; nothing was saved. Try again.", "Het opslaan van de APK is mislukt; er is niets bewaard. Probeer het opnieuw."],
  ["Dates are YYYY-MM-DD", "Datums hebben de vorm JJJJ-MM-DD"],
  // Patterns.
  ["Password must be at least 8 characters.", "Het wachtwoord moet minstens 8 tekens lang zijn."],
  ["Password must be at least 12 characters", "Het wachtwoord moet minstens 12 tekens lang zijn"],
  ["Password must be at most 256 characters.", "Het wachtwoord mag hoogstens 256 tekens lang zijn."],
  ["Locale must be one of: en, nl", "De taal moet een van deze zijn: en, nl"],
  ["Value is too long (at most 10000 characters).", "De waarde is te lang (hoogstens 10000 tekens)."],
  ["Value must be at least 6.", "De waarde moet minstens 6 zijn."],
  ["Value must be at least -5.", "De waarde moet minstens -5 zijn."],
  ["Value must be at most 100.", "De waarde mag hoogstens 100 zijn."],
  ["Value must be one of: pdok, nominatim.", "De waarde moet een van deze zijn: pdok, nominatim."],
  ["Every vat_rate must be one of 0, 9, 21.", "Elke vat_rate moet een van deze zijn: 0, 9, 21."],
  ["The shares of the VAT split must add up to 100 (now 99.5).", "De aandelen in de btw-verdeling moeten samen 100 zijn (nu 99.5)."],
  [
    "Setting smtp_password is a password and needs the secret key to be read.",
    "Instelling smtp_password is een wachtwoord en kan alleen met de geheime sleutel worden gelezen.",
  ],
  [
    "Setting smtp_password cannot be read with this SECRET_KEY; enter its value again.",
    "Instelling smtp_password kan met deze SECRET_KEY niet worden gelezen; vul de waarde opnieuw in.",
  ],
  ["Missing required setting default_user_group_id", "Verplichte instelling default_user_group_id ontbreekt"],
  [
    "The APK is larger than the upload limit of 100 MB (MAX_UPLOAD_MB).",
    "De APK is groter dan de uploadlimiet van 100 MB (MAX_UPLOAD_MB).",
  ],
  ["Version code 42 already exists", "Versiecode 42 bestaat al"],
  // zod's readable defaults.
  ["locale is required", "locale is verplicht"],
  ["id must be an integer", "id moet een geheel getal zijn"],
  ["email must be a string", "email moet tekst zijn"],
  ["permission_ids must be an array", "permission_ids moet een lijst zijn"],
  ["note must be a symbol", "note moet symbol zijn"],
  ["name is too long (at most 64 characters)", "name is te lang (hoogstens 64 tekens)"],
  ["permission_ids has too many items (at most 1000)", "permission_ids bevat te veel elementen (hoogstens 1000)"],
  ["page must be at most 200", "page mag hoogstens 200 zijn"],
  ["code is too short (at least 6 characters)", "code is te kort (minstens 6 tekens)"],
  ["permission_ids needs at least 1 items", "permission_ids heeft minstens 1 elementen nodig"],
  ["per_page must be at least 1", "per_page moet minstens 1 zijn"],
  [
    "type must be one of: string, integer, boolean, json, password",
    "type moet een van deze zijn: string, integer, boolean, json, password",
  ],
  ["input.email has an invalid format", "input.email heeft een ongeldige vorm"],
  ["Unknown field: colour, size", "Onbekend veld: colour, size"],
  ["input is invalid", "input is ongeldig"],
];

describe("translateServerText", () => {
  it.each(SAMPLES)("translates %j", (english, dutch) => {
    expect(translateServerText(english, "nl")).toBe(dutch);
  });

  it("has a sample for every pattern", () => {
    for (const [pattern] of DUTCH) {
      if (!(pattern instanceof RegExp)) continue;
      expect(
        SAMPLES.some(([english]) => pattern.test(english)),
        `no sample for ${String(pattern)}`,
      ).toBe(true);
    }
  });

  it("returns the English unchanged for 'en'", () => {
    for (const [english] of SAMPLES) expect(translateServerText(english, "en")).toBe(english);
  });

  it("returns an unknown text unchanged", () => {
    expect(translateServerText("Something the catalogue has never heard of", "nl")).toBe("Something the catalogue has never heard of");
    // Already Dutch (the Management screens' texts) stays as it is.
    expect(translateServerText("Bestelling niet gevonden.", "nl")).toBe("Bestelling niet gevonden.");
  });

  it("translates only the whole text, not a part of it", () => {
    expect(translateServerText("Forbidden!", "nl")).toBe("Forbidden!");
    expect(translateServerText("Error: Version code 42 already exists", "nl")).toBe("Error: Version code 42 already exists");
  });

  it("lists each English text once", () => {
    const texts = DUTCH.map(([english]) => String(english));
    expect(texts.filter((text, i) => texts.indexOf(text) !== i)).toEqual([]);
  });

  it("translates every text the server still sends (a renamed server message fails here)", () => {
    const source = serverSource();
    const missing = DUTCH.filter(([english]) => typeof english === "string" && !source.includes(english)).map(([english]) => english);
    expect(missing).toEqual([]);
  });
});
