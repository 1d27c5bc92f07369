import { refusalText } from '../../core/input-issues';
import * as z from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../core/credential-rules';
import { localeSchema } from '../../core/locales';

// docs/product.md §5 sign-in: both required.
export const loginSchema = z.object({
  username: z
    .string({ error: 'Username and password are required' })
    .trim()
    .min(1, { error: 'Username and password are required' })
    .max(64, { error: refusalText('INVALID_CREDENTIALS', 'Invalid username or password') }),
  password: z
    .string({ error: 'Username and password are required' })
    .min(1, { error: 'Username and password are required' })
    .max(MAX_PASSWORD_LENGTH, { error: refusalText('INVALID_CREDENTIALS', 'Invalid username or password') }),
});

const optionalEmail = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim()));

export const USERNAME_RULE_MESSAGE = refusalText('USERNAME_INVALID', 'Username must be 3-32 characters: letters, digits, _ . -');

// docs/product.md §3 registration payload: username, email (optional), password. The length rule needs a setting,
// so it is checked in the service.
export const registerSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(64, { error: USERNAME_RULE_MESSAGE }),
  email: optionalEmail,
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
});

/** docs/decisions/011: the back-office language of the signed-in user. */
export const setLocaleSchema = z.object({ locale: localeSchema });

export const editEmailSchema = z.object({
  email: z.string({ error: refusalText('EMAIL_EMPTY', 'Email cannot be empty') }).max(254, { error: refusalText('EMAIL_INVALID', 'Invalid email address') }),
});

// docs/product.md §3 password change payload.
export const changePasswordSchema = z.object({
  old_password: z
    .string()
    .max(MAX_PASSWORD_LENGTH, { error: refusalText('OLD_PASSWORD_INCORRECT', 'Old password is incorrect') })
    .optional()
    .default(''),
  new_password: z
    .string()
    .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` })
    .optional()
    .default(''),
});

/** docs/architecture.md §5 POST /api/account/forgot: a username or an e-mail address. */
export const forgotPasswordSchema = z.object({
  login: z
    .string({ error: 'Username or email is required' })
    .trim()
    .min(1, { error: 'Username or email is required' })
    .max(254, { error: 'Username or email is too long' }),
});

/** docs/architecture.md §5 POST /api/account/reset; the length rule needs a setting, so the service checks it. */
export const resetPasswordSchema = z.object({
  token: z.string({ error: refusalText('RESET_LINK_INVALID', 'This password reset link is invalid or has expired. Request a new one.') }).max(100),
  new_password: z.string({ error: 'Password is required' }).max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
});

/** docs/architecture.md §5 POST /api/account/sessions/revoke. */
export const revokeSessionSchema = z.object({
  id: z.string({ error: refusalText('SESSION_NOT_FOUND', 'Session not found') }).max(64, { error: refusalText('SESSION_NOT_FOUND', 'Session not found') }),
});
