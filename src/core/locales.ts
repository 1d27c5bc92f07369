import * as z from 'zod';

/**
 * The languages of the back-office (docs/decisions/011): every admin and account screen in English (the
 * specification's texts) or Dutch, chosen per user and stored on the user. The public site is Dutch
 * for everyone and does not follow this choice.
 */
export const LOCALES = ['en', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];
/** A new user, and anyone not signed in, reads the specification's English. */
export const DEFAULT_LOCALE: Locale = 'en';
export const localeSchema = z.enum(LOCALES, { error: () => `Locale must be one of: ${LOCALES.join(', ')}` });
