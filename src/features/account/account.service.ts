import { isUniqueViolation } from '../../db/unique-violation';
import { ownerValue } from '../../db/club-db';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import type { Locale } from '../../core/locales';
import { groups, sessions, twoFactorSecrets, userGroups, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { enforceRateLimit, hitRateLimit, refundRateLimit, resetRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { auditInsert, writeAudit } from '../audit/audit';
import { requireUser, type HasUser } from '../auth/permissions';
import { createSession, endOtherSessions, invalidateSession } from '../auth/session';
import { loadUserProfile, type UserProfile } from '../auth/user-profile';
import { refuseDuringMaintenance } from '../settings/maintenance';
import { getBooleanSetting, getIntegerSetting, type SettingReader } from '../settings/settings.service';
import { isValidEmail } from '../../core/public-form-rules';
import { PASSWORD_MIN_LENGTH } from '../../core/credential-rules';
import { USERNAME_PATTERN } from '../../core/credential-rules';
import { USERNAME_RULE_MESSAGE } from './account.schemas';
import { voidResetLinks } from './reset-links';
import { LOCKED_NAME_TRIES_PER_ADDRESS, LOGIN_LIMIT_PER_ADDRESS, LOGIN_LIMIT_PER_PAIR, LOGIN_LIMIT_PER_USERNAME } from './sign-in-limits';

/** `two_factor_setup_required` (docs/architecture.md §5): the SPA sends such an admin to set up two-factor first. */
export type MeAnswer = { loggedIn: false } | { loggedIn: true; user: UserProfile; two_factor_setup_required: boolean };

/** docs/architecture.md §4 GET /api/account/me. */
export function me(ctx: HasUser): MeAnswer {
  return ctx.user ? { loggedIn: true, user: ctx.user, two_factor_setup_required: ctx.twoFactorSetupRequired === true } : { loggedIn: false };
}

export const TWO_FACTOR_REQUIRED = 'Two-factor authentication required';
const INVALID_CREDENTIALS = 'Invalid username or password';

const REGISTER_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 10, windowMs: 60 * 60 * 1000 };
const PASSWORD_CHANGE_LIMIT_PER_USER: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };
/** docs/architecture.md §3: the e-mail change answers whether an address is taken, so it must not serve as a probe. */
const EMAIL_CHANGE_LIMIT_PER_USER: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };
const LOGIN_BLOCKED = 'Too many failed login attempts. Please wait 15 minutes and try again.';

const pairKey = (username: string, ip: string) => `login:pair:${username.toLowerCase()}:${ip}`;
const addressKey = (ip: string) => `login:ip:${ip}`;
const usernameKey = (username: string) => `login:user:${username.toLowerCase()}`;

// A hash to check the password against when the username does not exist, so both cases take as long.
let dummyHash: Promise<string> | null = null;
function timingDummy(ctx: RequestCtx): Promise<string> {
  dummyHash ??= ctx.passwords.hash('timing-equaliser-not-a-real-password');
  return dummyHash;
}

async function findUserByName(ctx: RequestCtx, username: string) {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return row;
}

async function hasTwoFactor(ctx: RequestCtx, userId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ userId: twoFactorSecrets.userId })
    .from(twoFactorSecrets)
    .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)))
    .limit(1);
  return !!row;
}

/** Replaces the request's session (if any) by a new one and sends its cookie. */
async function startSession(ctx: RequestCtx, userId: number, twoFactorPending: boolean): Promise<void> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  const { token, session } = await createSession(ctx.db, ctx.clock, userId, { twoFactorPending, userAgent: ctx.userAgent, ip: ctx.ip });
  ctx.session = session;
  ctx.cookies.set(token, session.expiresAt);
}

/**
 * docs/product.md §4 sign-in, docs/architecture.md §3–5. A 2FA user gets a pending session and the answer
 * 'Two-factor authentication required'; only /api/twofactor/completelogin upgrades it.
 */
export async function login(ctx: RequestCtx, input: { username: string; password: string }): Promise<UserProfile> {
  const keys = { pair: pairKey(input.username, ctx.rateLimitAddress), address: addressKey(ctx.rateLimitAddress), name: usernameKey(input.username) };
  // Every attempt is counted before the password is checked (one atomic write each), so guesses sent
  // in parallel cannot slip past a limit; a success hands the counts back.
  const pair = await hitRateLimit(ctx.db, ctx.clock, keys.pair, LOGIN_LIMIT_PER_PAIR);
  const address = await hitRateLimit(ctx.db, ctx.clock, keys.address, LOGIN_LIMIT_PER_ADDRESS);
  if (!pair.allowed || !address.allowed) throw new AppError('LOGIN_BLOCKED', LOGIN_BLOCKED);
  const byName = await hitRateLimit(ctx.db, ctx.clock, keys.name, LOGIN_LIMIT_PER_USERNAME);
  // While a username is under attack from many addresses, an address gets a few tries of its own for it
  // and then no more answers: the owner's typo from a new address does not lock them out as well
  // (docs/decisions/055), and an attacker gains only those few guesses per address.
  const nameLocked = !byName.allowed && pair.count > LOCKED_NAME_TRIES_PER_ADDRESS;
  const user = await findUserByName(ctx, input.username);
  const valid = await ctx.passwords.verify(user?.passwordHash ?? (await timingDummy(ctx)), input.password);
  if (!user || !valid || nameLocked) {
    const failed = auditInsert(ctx, { action: 'auth.login_failed', target: input.username.slice(0, 64), actor: null });
    if (byName.allowed) {
      await failed;
      throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    }
    // The lockout is written once, by the attempt that went over the limit.
    if (byName.count === LOGIN_LIMIT_PER_USERNAME.limit + 1) {
      await ctx.db.batch([
        failed,
        auditInsert(ctx, { action: 'auth.lockout', target: input.username.slice(0, 64), actor: null, details: { failures: byName.count } }),
      ]);
    } else {
      await failed;
    }
    throw new AppError('LOGIN_BLOCKED', LOGIN_BLOCKED);
  }
  await Promise.all([resetRateLimit(ctx.db, keys.pair), refundRateLimit(ctx.db, keys.address), refundRateLimit(ctx.db, keys.name)]);
  // Said only after the right password, so it does not reveal which accounts exist.
  if (user.status !== 'active') throw new AppError('ACCOUNT_INACTIVE', 'Account is not active');
  if (ctx.passwords.needsRehash(user.passwordHash)) {
    await ctx.db
      .update(users)
      .set({ passwordHash: await ctx.passwords.hash(input.password) })
      .where(eq(users.id, user.id));
  }
  if (await hasTwoFactor(ctx, user.id)) {
    // Not yet a sign-in: auth.login is written when the second step succeeds.
    await startSession(ctx, user.id, true);
    throw new AppError('TWO_FACTOR_REQUIRED', TWO_FACTOR_REQUIRED);
  }
  await startSession(ctx, user.id, false);
  const profile = await loadUserProfile(ctx.db, user.id);
  ctx.user = profile;
  await writeAudit(ctx, { action: 'auth.login' });
  return profile!;
}

export async function logout(ctx: RequestCtx): Promise<void> {
  if (ctx.session) {
    await ctx.db.batch([ctx.db.delete(sessions).where(eq(sessions.id, ctx.session.id)), ...(ctx.user ? [auditInsert(ctx, { action: 'auth.logout' })] : [])]);
  }
  ctx.session = null;
  ctx.user = null;
  ctx.cookies.clear();
}

/** The length rule for new passwords: the setting, never below the account minimum (docs/product.md §9, docs/decisions/007). */
export async function minimumPasswordLength(ctx: SettingReader): Promise<number> {
  return Math.max(PASSWORD_MIN_LENGTH, await getIntegerSetting(ctx, 'password_min_length'));
}

export interface RegisterResult {
  user: UserProfile | null;
  activation_required: boolean;
}

/** docs/product.md §5 registration; docs/architecture.md §3 username/e-mail rules; new users join default_user_group_id. */
export async function register(ctx: RequestCtx, input: { username: string; email: string | null; password: string }): Promise<RegisterResult> {
  await refuseDuringMaintenance(ctx);
  if (!(await getBooleanSetting(ctx, 'allow_registration'))) throw new AppError('REGISTRATION_DISABLED', 'Registration is currently disabled.');
  await enforceRateLimit(
    ctx.db,
    ctx.clock,
    `register:ip:${ctx.rateLimitAddress}`,
    REGISTER_LIMIT_PER_ADDRESS,
    'Too many registrations from this address. Please try again later.',
  );
  if (!USERNAME_PATTERN.test(input.username)) throw new AppError('USERNAME_INVALID', USERNAME_RULE_MESSAGE);
  if (input.email !== null && !isValidEmail(input.email)) throw new AppError('EMAIL_INVALID', 'Invalid email address');
  const min = await minimumPasswordLength(ctx);
  if (input.password.length < min) throw new AppError('PASSWORD_TOO_SHORT', `Password must be at least ${min} characters.`, { min_length: min });
  if (await findUserByName(ctx, input.username)) throw new AppError('USERNAME_TAKEN', 'Username is already taken');
  if (input.email !== null && (await emailInUse(ctx, input.email))) throw new AppError('EMAIL_TAKEN', 'Email is already in use');

  const activationRequired = await getBooleanSetting(ctx, 'registration_requires_activation');
  const defaultGroupId = await getIntegerSetting(ctx, 'default_user_group_id');
  const hash = await ctx.passwords.hash(input.password);
  const now = ctx.clock.now().toISOString();
  try {
    // One batch: the account and its default group arrive together (D1 has no interactive transactions).
    await ctx.db.batch([
      ctx.db.insert(users).values({
        username: input.username,
        email: input.email,
        passwordHash: hash,
        status: activationRequired ? 'inactive' : 'active',
        deletable: true,
        createdAt: now,
        updatedAt: now,
      }),
      ctx.db.insert(userGroups).select(
        ctx.db
          .select({ clubId: ownerValue(ctx.db), userId: users.id, groupId: groups.id })
          .from(users)
          .innerJoin(groups, eq(groups.id, defaultGroupId))
          .where(eq(sql`lower(${users.username})`, input.username.toLowerCase())),
      ),
    ]);
  } catch (error) {
    // Two registrations racing for one name or address: the unique indexes decide.
    if (isUniqueViolation(error)) {
      throw (await findUserByName(ctx, input.username))
        ? new AppError('USERNAME_TAKEN', 'Username is already taken')
        : new AppError('EMAIL_TAKEN', 'Email is already in use');
    }
    throw error;
  }
  const created = await findUserByName(ctx, input.username);
  await writeAudit(ctx, {
    action: 'auth.registered',
    actor: { id: created!.id, username: created!.username },
    target: `user:${created!.id} (${created!.username})`,
    details: { status: created!.status },
  });
  if (activationRequired) return { user: null, activation_required: true };
  await startSession(ctx, created!.id, false);
  const profile = await loadUserProfile(ctx.db, created!.id);
  ctx.user = profile;
  return { user: profile, activation_required: false };
}

async function emailInUse(ctx: RequestCtx, email: string, exceptUserId?: number): Promise<boolean> {
  const condition = eq(sql`lower(${users.email})`, email.toLowerCase());
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId === undefined ? condition : and(condition, ne(users.id, exceptUserId)))
    .limit(1);
  return !!row;
}

/** The refusal once a user changed their e-mail address or password too often (docs/architecture.md §3). */
const TOO_MANY_CHANGES = 'Too many attempts. Please wait 15 minutes and try again.';

/** docs/product.md §5 update e-mail; docs/architecture.md §3: rate-limited, and the user's other sessions end. */
export async function editEmail(ctx: RequestCtx, input: { email: string }): Promise<void> {
  const user = requireUser(ctx);
  const email = input.email.trim();
  if (email === '') throw new AppError('EMAIL_EMPTY', 'Email cannot be empty');
  if (!isValidEmail(email)) throw new AppError('EMAIL_INVALID', 'Invalid email address');
  await enforceRateLimit(ctx.db, ctx.clock, `email-change:user:${user.id}`, EMAIL_CHANGE_LIMIT_PER_USER, TOO_MANY_CHANGES);
  if (await emailInUse(ctx, email, user.id)) throw new AppError('EMAIL_TAKEN', 'Email is already in use');
  await ctx.db.batch([
    ctx.db.update(users).set({ email, updatedAt: ctx.clock.now().toISOString() }).where(eq(users.id, user.id)),
    endOtherSessions(ctx, user.id),
    // A link mailed to the old address must not outlive the change.
    voidResetLinks(ctx, user.id),
    auditInsert(ctx, { action: 'auth.email_changed', target: `user:${user.id} (${user.username})`, details: { email: [user.email, email] } }),
  ]);
}

/**
 * docs/decisions/011: the signed-in user's back-office language. A preference, not a credential: no audit entry,
 * no rate limit, and `updated_at` stays (it dates changes an admin cares about).
 */
export async function setLocale(ctx: RequestCtx, input: { locale: Locale }): Promise<void> {
  const user = requireUser(ctx);
  await ctx.db.update(users).set({ locale: input.locale }).where(eq(users.id, user.id));
}

/** docs/product.md §5 change password; docs/architecture.md §3: the user's other sessions end. */
export async function changePassword(ctx: RequestCtx, input: { old_password: string; new_password: string }): Promise<void> {
  const user = requireUser(ctx);
  if (input.old_password === '') throw new AppError('OLD_PASSWORD_REQUIRED', 'Old password is required');
  const min = await minimumPasswordLength(ctx);
  if (input.new_password.length < min) throw new AppError('PASSWORD_TOO_SHORT', `Password must be at least ${min} characters`, { min_length: min });
  await enforceRateLimit(ctx.db, ctx.clock, `password-change:user:${user.id}`, PASSWORD_CHANGE_LIMIT_PER_USER, TOO_MANY_CHANGES);
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).limit(1);
  if (!row || !(await ctx.passwords.verify(row.passwordHash, input.old_password))) throw new AppError('OLD_PASSWORD_INCORRECT', 'Old password is incorrect');
  await ctx.db.batch([
    ctx.db
      .update(users)
      .set({ passwordHash: await ctx.passwords.hash(input.new_password), updatedAt: ctx.clock.now().toISOString() })
      .where(eq(users.id, user.id)),
    endOtherSessions(ctx, user.id),
    // docs/decisions/055: a reset link asked for before the change no longer sets a password.
    voidResetLinks(ctx, user.id),
    auditInsert(ctx, { action: 'auth.password_changed', target: `user:${user.id} (${user.username})` }),
  ]);
}
