import * as z from 'zod';

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht.` })
    .trim()
    .min(1, { error: `${label} is verplicht.` })
    .max(max, { error: `${label} is te lang (maximaal ${max} tekens).` });

// spec §3 contact message; §5: all four fields required. `website` is a honeypot that people never see.
export const contactSchema = z.object({
  name: required('Naam', 100),
  email: required('Email', 254),
  // One line: it becomes part of a mail subject.
  subject: required('Onderwerp', 200).transform((s) => s.replace(/\s+/g, ' ')),
  message: required('Bericht', 5000),
  website: z.string().max(500).optional().default(''),
});
export type ContactInput = z.output<typeof contactSchema>;
