import * as z from 'zod';
import { MAX_PASSWORD_LENGTH, USERNAME_PATTERN } from './credential-rules';
import { EMAIL_MAX_LENGTH, isValidEmail } from './public-form-rules';

// docs/decisions/071: one module for the rules of clubs, their hosts and sign-ups, for the server and the SPA.

/** A club's slug: its name in `<slug>.<CLUBS_DOMAIN>` and in the platform's lists. */
export const CLUB_SLUG_PATTERN = /^[a-z0-9-]{3,40}$/;
export const CLUB_SLUG_RULE = 'Use 3 to 40 characters: lower-case letters, digits and dashes.';

/** A host name as a browser sends it, without a port: labels of letters, digits and dashes. */
const HOST_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const clubName = z.string().trim().min(1).max(100);
const slug = z.string().trim().regex(CLUB_SLUG_PATTERN, CLUB_SLUG_RULE);
const host = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .refine((value) => HOST_PATTERN.test(value), 'Enter a host name without scheme or port, e.g. kerst.example.nl.');
const hosts = z
  .array(host)
  .max(10)
  .transform((list) => [...new Set(list)]);
const email = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .refine((value) => isValidEmail(value), 'Invalid email address');

export const clubIdQuerySchema = z.object({ id: z.coerce.number().int().positive() });

export const createClubSchema = z.object({ name: clubName, slug, hosts: hosts.optional(), admin_email: email });
export type CreateClubInput = z.infer<typeof createClubSchema>;

export const updateClubSchema = z.object({
  name: clubName.optional(),
  status: z.enum(['active', 'suspended']).optional(),
  hosts: hosts.optional(),
});
export type UpdateClubInput = z.infer<typeof updateClubSchema>;

export const clubSignupSchema = z.object({
  club_name: clubName,
  slug,
  email,
  username: z.string().trim().regex(USERNAME_PATTERN, 'Username must be 3-32 characters: letters, digits, _ . -'),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});
export type ClubSignupInput = z.infer<typeof clubSignupSchema>;

export const clubVerifySchema = z.object({ token: z.string().trim().min(1).max(200) });
export type ClubVerifyInput = z.infer<typeof clubVerifySchema>;

/** A club as GET /api/platform/clubs lists it (DESIGN §6). */
export interface ClubView {
  id: number;
  slug: string;
  name: string;
  status: 'active' | 'suspended';
  hosts: string[];
  created_at: string;
  orders: number;
  users: number;
}
