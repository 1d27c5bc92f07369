import type { Locale } from '../../core/locales';

/**
 * The mails the site sends to a user about their account, in the language the user chose for the
 * back-office (docs/decisions/058): the password reset and the set-password link of an invitation.
 * The sign-in page is in English whatever the language (the specification's texts), so the Dutch
 * texts name its link as it reads there.
 */
export interface AccountMail {
  subject: string;
  text: string;
}

interface PasswordLinkMail {
  username: string;
  clubName: string;
  link: string;
}

const resetTexts: Record<Locale, (m: PasswordLinkMail) => AccountMail> = {
  en: ({ username, clubName, link }) => ({
    subject: `Choose a new password – ${clubName}`,
    text: [
      `Hello ${username},`,
      '',
      `Someone asked to choose a new password for your account on the site of ${clubName}. Open this link to do so:`,
      '',
      link,
      '',
      'The link works once and is valid for 1 hour. If you did not ask for this, ignore this mail: your password stays as it is.',
      '',
      clubName,
    ].join('\n'),
  }),
  nl: ({ username, clubName, link }) => ({
    subject: `Kies een nieuw wachtwoord – ${clubName}`,
    text: [
      `Hallo ${username},`,
      '',
      `Er is gevraagd om een nieuw wachtwoord voor je account op de site van ${clubName}. Open deze link om er een te kiezen:`,
      '',
      link,
      '',
      'De link werkt één keer en is 1 uur geldig. Heb je hier niet om gevraagd? Dan kun je deze mail negeren: je wachtwoord blijft zoals het is.',
      '',
      clubName,
    ].join('\n'),
  }),
};

const inviteTexts: Record<Locale, (m: PasswordLinkMail & { invitedBy: string }) => AccountMail> = {
  en: ({ username, clubName, link, invitedBy }) => ({
    subject: `Your account on the site of ${clubName}`,
    text: [
      `Hello ${username},`,
      '',
      `${invitedBy} has made an account for you on the site of ${clubName}. Your username is ${username}. Open this link to choose your password:`,
      '',
      link,
      '',
      `The link works once and is valid for 7 days. Once it has expired, ask for a new one with "Forgot password?" on the sign-in page, or ask ${invitedBy}.`,
      '',
      clubName,
    ].join('\n'),
  }),
  nl: ({ username, clubName, link, invitedBy }) => ({
    subject: `Je account op de site van ${clubName}`,
    text: [
      `Hallo ${username},`,
      '',
      `${invitedBy} heeft een account voor je aangemaakt op de site van ${clubName}. Je gebruikersnaam is ${username}. Open deze link om je wachtwoord te kiezen:`,
      '',
      link,
      '',
      `De link werkt één keer en is 7 dagen geldig. Is hij verlopen? Vraag dan een nieuwe aan met "Forgot password?" op de inlogpagina, of vraag het ${invitedBy}.`,
      '',
      clubName,
    ].join('\n'),
  }),
};

/** POST /api/account/forgot's mail: a link valid 1 hour. */
export function passwordResetMail(locale: Locale, mail: PasswordLinkMail): AccountMail {
  return resetTexts[locale](mail);
}

/** POST /api/users/invite's mail: a link to choose a first password, valid 7 days. */
export function invitationMail(locale: Locale, mail: PasswordLinkMail & { invitedBy: string }): AccountMail {
  return inviteTexts[locale](mail);
}
