import { refusalText } from '../../core/input-issues';
import * as z from 'zod';
import { GATE_MESSAGES } from './tabler-gate';

export const matchSchema = z.object({
  password: z.string({ error: GATE_MESSAGES.empty }).max(100, { error: GATE_MESSAGES.noMatch }),
});

export const tablerNameSchema = z.object({
  name: z
    .string({ error: refusalText('TABLER_NAME_REQUIRED', 'Naam is verplicht.') })
    .trim()
    .max(100, { error: 'Naam is te lang (maximaal 100 tekens).' }),
});

/** POST /tablers/link's optional body (docs/decisions/070): `renew` makes a new link and stops the old one. */
export const sellerLinkSchema = z.object({
  renew: z.boolean({ error: 'renew moet true of false zijn.' }).optional(),
});
