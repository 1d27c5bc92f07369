import * as z from 'zod';
import { requiredMessage, tooLongMessage } from './public-form-rules';

// The server's half of the public forms' rules (public-form-rules.ts), kept apart so the browser's
// checks import no zod.

/** A required text field of a public form (docs/product.md §5): trimmed, not empty, at most `max` characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: requiredMessage(label) })
    .trim()
    .min(1, { error: requiredMessage(label) })
    .max(max, { error: tooLongMessage(label, max) });
