import * as z from 'zod';
import { CONTACT_LABELS, CONTACT_MAX_LENGTHS } from '../../core/public-form-rules';
import { requiredText } from '../../core/public-form-schemas';

// docs/product.md §3 contact message; §5: all four fields required. `website` is a honeypot that people never see.
export const contactSchema = z.object({
  name: requiredText(CONTACT_LABELS.name, CONTACT_MAX_LENGTHS.name),
  email: requiredText(CONTACT_LABELS.email, CONTACT_MAX_LENGTHS.email),
  // One line: it becomes part of a mail subject.
  subject: requiredText(CONTACT_LABELS.subject, CONTACT_MAX_LENGTHS.subject).transform((s) => s.replace(/\s+/g, ' ')),
  message: requiredText(CONTACT_LABELS.message, CONTACT_MAX_LENGTHS.message),
  website: z.string().max(500).optional().default(''),
});
export type ContactInput = z.output<typeof contactSchema>;
