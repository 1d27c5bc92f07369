import { isUniqueViolation } from '../../db/unique-violation';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { AppDeps, PlatformOps, RequestCtx } from '../../context';
import { DEFAULT_LOCALE } from '../../core/locales';
import { AppError } from '../../core/errors';
import { asClubId, type ClubDb, clubDb, FIRST_CLUB_ID, ownerValue } from '../../db/club-db';
import { clubHosts, clubSignups, clubs, groups, orders, passwordResets, sessions, settings, userGroups, users } from '../../db/schema';
import { randomBytes, sha256Hex } from '../../platform/crypto';
import { enqueueMailStatement } from '../../platform/mail';
import { enforceRateLimit } from '../../platform/rate-limit';
import { invitationMail } from '../account/account-mails';
import { minimumPasswordLength } from '../account/account.service';
import { INVITE_LINK_TTL_MS, newPasswordLink, PASSWORD_RESET_MAIL_KIND } from '../account/password-reset.service';
import { auditInsert } from '../audit/audit';
import { requireUser } from '../auth/permissions';
import { PLATFORM_ACCESS } from '../auth/permission-keys';
import { deliverSoon } from '../mail/mail-delivery';
import { getBooleanSetting } from '../settings/settings.service';
import { ADMIN_GROUP } from '../setup/seed-data';
import { seedStatements } from '../setup/seed';
import { type Club, normalHost } from '../../platform/club-directory';
import { clubSignupMail } from './club-mails';
import type { ClubSignupInput, ClubVerifyInput, ClubView, CreateClubInput, UpdateClubInput } from '../../core/club-schemas';

/** A sign-up's link works this long (DESIGN §6). */
export const SIGNUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const SIGNUPS_PER_ADDRESS = { limit: 5, windowMs: 60 * 60 * 1000 };

export const SLUG_TAKEN = 'This slug is taken by another club.';
export const HOST_TAKEN = 'This host belongs to another club.';
const SIGNUP_SLUG_TAKEN = 'Dit adres is al van een andere club; kies een ander.';
const SIGNUP_LINK_INVALID = 'Deze bevestigingslink is ongeldig of verlopen. Meld je club opnieuw aan.';

/**
 * The platform's own screen and calls (docs/decisions/071): only in the first club, and only for a user who holds
 * platform.access itself (admin.access, which passes every other check, does not pass this one).
 */
function requirePlatform(ctx: RequestCtx) {
  const user = requireUser(ctx);
  const holds = user.permissions.some((permission) => permission.key === PLATFORM_ACCESS);
  if (ctx.club.id !== FIRST_CLUB_ID || !holds) throw new AppError('FORBIDDEN', 'Forbidden');
  if (ctx.twoFactorSetupRequired) throw new AppError('ADMIN_TWO_FACTOR_REQUIRED', 'Set up two-factor authentication first');
  return user;
}

/** Refuses a slug or host that another club has (409); the first club's configured host counts as its own. */
async function assertFree(app: AppDeps, slug: string | null, hosts: readonly string[], except: number | null): Promise<void> {
  if (slug !== null) {
    const [taken] = await app.database.select({ id: clubs.id }).from(clubs).where(eq(clubs.slug, slug)).limit(1);
    if (taken && taken.id !== except) throw new AppError('CLUB_SLUG_TAKEN', SLUG_TAKEN);
  }
  const firstHost = new URL(app.config.origin).hostname;
  for (const host of hosts) {
    if (host === firstHost && except !== FIRST_CLUB_ID) throw new AppError('CLUB_HOST_TAKEN', HOST_TAKEN);
    const [owner] = await app.database.select({ clubId: clubHosts.clubId }).from(clubHosts).where(eq(clubHosts.host, host)).limit(1);
    if (owner && owner.clubId !== except) throw new AppError('CLUB_HOST_TAKEN', HOST_TAKEN);
  }
}

/**
 * The identity a new club starts with (docs/decisions/073): its own name, and its first admin's address for
 * customers' mail until the set-up asks for the club's; the first club's address and links are the seed
 * values, so they are emptied rather than shown in another club's footer and on its invoices.
 */
function newClubIdentity(name: string, email: string): Record<string, string> {
  return { club_name: name, club_town: '', club_address: '', club_email: email, club_facebook_url: '', club_website_url: '' };
}

interface NewClub {
  slug: string;
  name: string;
  hosts: string[];
  /** The club's first admin: invited by mail (a set-password link), or signed up with a password of their own. */
  admin: { username: string; email: string; passwordHash: string; locale: (typeof users.locale.enumValues)[number]; invitedBy: string | null };
}

/**
 * Makes a club whole in one batch: its row and hosts, its built-in groups, permissions and settings, its first
 * admin, and (invited) the set-password link and its mail in the club's own outbox. The id is taken up front so
 * every statement can name it; two clubs made at once collide on it (or on the slug) and one batch fails whole.
 */
async function makeClub(app: AppDeps, made: NewClub, extra: (db: ClubDb) => BatchItem<'sqlite'>[]) {
  const [next] = await app.database.select({ id: sql<number>`coalesce(max(${clubs.id}), 0) + 1` }).from(clubs);
  const now = app.clock.now();
  const club: Club = { id: asClubId(next!.id), slug: made.slug, name: made.name, status: 'active', hosts: made.hosts, createdAt: now.toISOString() };
  const db = clubDb(app.database, club.id);
  const siteOrigin = app.clubs.originOf(club);
  const newUserId = sql<number>`${db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, made.admin.username.toLowerCase()))}`;
  const invite = made.admin.invitedBy === null ? null : newPasswordLink({ clock: app.clock, siteOrigin }, newUserId, INVITE_LINK_TTL_MS);
  const statements: BatchItem<'sqlite'>[] = [
    app.database.insert(clubs).values({ id: club.id, slug: club.slug, name: club.name, status: 'active', createdAt: club.createdAt }),
    ...made.hosts.map((host, position) => app.database.insert(clubHosts).values({ host, clubId: club.id, position })),
    ...seedStatements(db, app.clock),
    ...Object.entries(newClubIdentity(club.name, made.admin.email)).map(([key, value]) => db.update(settings).set({ value }).where(eq(settings.key, key))),
    // The new club's admins get the short set-up at their first sign-in (docs/decisions/071).
    db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'club_setup_pending')),
    db.insert(users).values({
      username: made.admin.username,
      email: made.admin.email,
      passwordHash: made.admin.passwordHash,
      status: 'active',
      deletable: false,
      locale: made.admin.locale,
      createdAt: club.createdAt,
      updatedAt: club.createdAt,
    }),
    db.insert(userGroups).select(
      db
        .select({ clubId: ownerValue(db), userId: sql<number>`${newUserId}`.as('user_id'), groupId: groups.id })
        .from(groups)
        .where(eq(sql`lower(${groups.name})`, ADMIN_GROUP.toLowerCase())),
    ),
    ...extra(db),
  ];
  let mailIndex = -1;
  if (invite && made.admin.invitedBy !== null) {
    statements.push(db.insert(passwordResets).values(invite.row));
    mailIndex = statements.length;
    statements.push(
      enqueueMailStatement(db, app.clock, {
        kind: PASSWORD_RESET_MAIL_KIND,
        to: made.admin.email,
        relatedRef: sql`'user:' || ${newUserId}`,
        ...invitationMail(made.admin.locale, { username: made.admin.username, clubName: club.name, link: invite.link, invitedBy: made.admin.invitedBy }),
      }),
    );
  }
  const [first, ...rest] = statements;
  const results = await app.database.batch([first!, ...rest]);
  app.clubs.invalidate();
  const queued = mailIndex >= 0 ? (results[mailIndex] as unknown as { id: number }[]).map((row) => row.id) : [];
  return { club, siteOrigin, queued };
}

/** Makes the club, and when two requests raced for its id, tries once more (a slug or host taken is 409). */
async function makeClubOnce(app: AppDeps, made: NewClub, extra: (db: ClubDb) => BatchItem<'sqlite'>[]) {
  try {
    return await makeClub(app, made, extra);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await assertFree(app, made.slug, made.hosts, null);
    return makeClub(app, made, extra);
  }
}

/** `GET /api/platform/clubs`: every club with its hosts, and how many orders and users it has. */
async function listClubs(ctx: RequestCtx, app: AppDeps): Promise<{ clubs: ClubView[] }> {
  requirePlatform(ctx);
  const [orderCounts, userCounts] = await app.database.batch([
    app.database.select({ clubId: orders.clubId, n: count() }).from(orders).groupBy(orders.clubId),
    app.database.select({ clubId: users.clubId, n: count() }).from(users).groupBy(users.clubId),
  ]);
  const countOf = (rows: { clubId: number; n: number }[], id: number) => rows.find((row) => row.clubId === id)?.n ?? 0;
  const list = await app.clubs.list();
  return {
    clubs: list.map((club) => ({
      id: club.id,
      slug: club.slug,
      name: club.name,
      status: club.status,
      hosts: club.hosts,
      created_at: club.createdAt,
      orders: countOf(orderCounts, club.id),
      users: countOf(userCounts, club.id),
    })),
  };
}

/** `POST /api/platform/clubs`: a club with its defaults and a first admin `admin`, who gets a set-password link. */
async function createClub(ctx: RequestCtx, app: AppDeps, input: CreateClubInput): Promise<{ success: true; club_id: number }> {
  const operator = requirePlatform(ctx);
  const hosts = (input.hosts ?? []).map(normalHost);
  if (hosts.length === 0 && !app.config.clubsDomain) {
    throw new AppError('CLUB_HOST_REQUIRED', 'Give the club a host of its own: this deployment has no CLUBS_DOMAIN for <slug> addresses.');
  }
  await assertFree(app, input.slug, hosts, null);
  // Nobody knows this password: the account opens only through the link.
  const passwordHash = await app.passwords.hash(encodeBase64urlNoPadding(randomBytes(32)));
  const audit = auditInsert(ctx, {
    action: 'club.created',
    target: `club (${input.slug})`,
    details: { name: input.name, hosts, admin_email: input.admin_email },
  });
  const made = await makeClubOnce(
    app,
    {
      slug: input.slug,
      name: input.name,
      hosts,
      admin: { username: 'admin', email: input.admin_email, passwordHash, locale: operator.locale, invitedBy: operator.username },
    },
    () => [audit],
  );
  if (made.queued.length > 0) {
    const clubDeps = { ...app, db: clubDb(app.database, made.club.id), background: ctx.background, requestId: ctx.requestId };
    deliverSoon(clubDeps, made.queued);
  }
  return { success: true, club_id: made.club.id };
}

/**
 * `POST /api/platform/clubs/update?id=`: its name, status and hosts. Suspending ends its sessions; from then on its
 * hosts answer 503 (http/club-pages.ts). The first club runs the deployment and is never suspended.
 */
async function updateClub(ctx: RequestCtx, app: AppDeps, id: number, input: UpdateClubInput): Promise<{ success: true }> {
  requirePlatform(ctx);
  app.clubs.invalidate();
  const club = await app.clubs.get(asClubId(id));
  if (!club) throw new AppError('CLUB_NOT_FOUND', 'Club not found');
  if (input.status === 'suspended' && club.id === FIRST_CLUB_ID) {
    throw new AppError('FIRST_CLUB_NOT_SUSPENDABLE', 'The first club runs this deployment and cannot be suspended.');
  }
  const hosts = input.hosts?.map(normalHost);
  if (hosts) {
    if (hosts.length === 0 && !app.config.clubsDomain && club.id !== FIRST_CLUB_ID) {
      throw new AppError('CLUB_HOST_REQUIRED', 'Give the club a host of its own: this deployment has no CLUBS_DOMAIN for <slug> addresses.');
    }
    await assertFree(app, null, hosts, club.id);
  }
  const db = clubDb(app.database, club.id);
  const changes: Record<string, unknown> = {};
  if (input.name !== undefined && input.name !== club.name) changes.name = [club.name, input.name];
  if (input.status !== undefined && input.status !== club.status) changes.status = [club.status, input.status];
  if (hosts && hosts.join(' ') !== club.hosts.join(' ')) changes.hosts = [club.hosts, hosts];
  const row = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.status !== undefined ? { status: input.status } : {}) };
  const statements: BatchItem<'sqlite'>[] = [
    auditInsert(ctx, { action: 'club.updated', target: `club:${club.id} (${club.slug})`, details: changes }),
    ...(Object.keys(row).length > 0 ? [app.database.update(clubs).set(row).where(eq(clubs.id, club.id))] : []),
    ...(hosts
      ? [
          app.database.delete(clubHosts).where(eq(clubHosts.clubId, club.id)),
          ...hosts.map((host, position) => app.database.insert(clubHosts).values({ host, clubId: club.id, position })),
        ]
      : []),
    ...(input.status === 'suspended' ? [db.delete(sessions)] : []),
  ];
  const [first, ...rest] = statements;
  try {
    await app.database.batch([first!, ...rest]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CLUB_HOST_TAKEN', HOST_TAKEN);
    throw error;
  } finally {
    app.clubs.invalidate();
  }
  return { success: true };
}

/**
 * `POST /api/clubs/signup` on the first club's host, while its `club_signup` is on (else 404, as when the
 * deployment has no CLUBS_DOMAIN to give the new club an address): keeps the sign-up and mails a link to verify the
 * address. Nothing else exists until the link is used.
 */
async function signUpClub(ctx: RequestCtx, app: AppDeps, input: ClubSignupInput): Promise<{ success: true }> {
  if (ctx.club.id !== FIRST_CLUB_ID || !app.config.clubsDomain || !(await getBooleanSetting(ctx, 'club_signup'))) {
    throw new AppError('CLUB_SIGNUP_CLOSED', 'Not found');
  }
  await enforceRateLimit(
    ctx.db,
    ctx.clock,
    `club-signup:${ctx.rateLimitAddress}`,
    SIGNUPS_PER_ADDRESS,
    'Te veel aanmeldingen vanaf dit adres. Probeer het over een uur opnieuw.',
  );
  const min = await minimumPasswordLength(ctx);
  if (input.password.length < min) throw new AppError('PASSWORD_TOO_SHORT', `Het wachtwoord moet minstens ${min} tekens hebben.`, { min_length: min });
  const [taken] = await app.database.select({ id: clubs.id }).from(clubs).where(eq(clubs.slug, input.slug)).limit(1);
  if (taken) throw new AppError('CLUB_SLUG_TAKEN', SIGNUP_SLUG_TAKEN);

  const token = encodeBase64urlNoPadding(randomBytes(32));
  const now = ctx.clock.now();
  const link = `${ctx.siteOrigin}/clubs/verify?token=${token}`;
  const origin = app.clubs.originOf({ id: asClubId(0), slug: input.slug, name: input.club_name, status: 'active', hosts: [], createdAt: '' });
  const [, queued] = await ctx.db.batch([
    app.database.insert(clubSignups).values({
      tokenHash: sha256Hex(token),
      clubName: input.club_name,
      slug: input.slug,
      email: input.email,
      username: input.username,
      passwordHash: await ctx.passwords.hash(input.password),
      expiresAt: now.getTime() + SIGNUP_LINK_TTL_MS,
      createdAt: now.toISOString(),
    }),
    enqueueMailStatement(ctx.db, ctx.clock, {
      kind: 'club_signup',
      to: input.email,
      ...clubSignupMail({ clubName: input.club_name, username: input.username, link, origin }),
    }),
  ]);
  deliverSoon(
    ctx,
    queued.map((row) => row.id),
  );
  return { success: true };
}

/** `POST /api/clubs/verify`: the sign-up's club becomes active with its user as admin (single use, 24 h). */
async function verifyClubSignup(ctx: RequestCtx, app: AppDeps, input: ClubVerifyInput): Promise<{ success: true; url: string }> {
  const tokenHash = sha256Hex(input.token);
  const now = ctx.clock.now();
  const [signup] = await app.database
    .select()
    .from(clubSignups)
    .where(and(eq(clubSignups.tokenHash, tokenHash), isNull(clubSignups.usedAt), gt(clubSignups.expiresAt, now.getTime())))
    .limit(1);
  if (!signup) throw new AppError('CLUB_SIGNUP_LINK_INVALID', SIGNUP_LINK_INVALID);
  const [taken] = await app.database.select({ id: clubs.id }).from(clubs).where(eq(clubs.slug, signup.slug)).limit(1);
  if (taken) throw new AppError('CLUB_SLUG_TAKEN', SIGNUP_SLUG_TAKEN);
  const claim = app.database
    .update(clubSignups)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(clubSignups.tokenHash, tokenHash), isNull(clubSignups.usedAt)));
  const made = await makeClubOnce(
    app,
    {
      slug: signup.slug,
      name: signup.clubName,
      hosts: [],
      admin: { username: signup.username, email: signup.email, passwordHash: signup.passwordHash, locale: DEFAULT_LOCALE, invitedBy: null },
    },
    (db) => [
      claim,
      auditInsert(
        { db, clock: app.clock, ip: ctx.ip, user: null },
        { action: 'club.signed_up', target: `club (${signup.slug})`, details: { email: signup.email } },
      ),
    ],
  );
  return { success: true, url: made.siteOrigin };
}

/** Drops sign-ups whose link has run out: the deployment's housekeeping, beside each club's. */
export async function deleteExpiredSignups(app: Pick<AppDeps, 'database' | 'clock'>): Promise<void> {
  await app.database.delete(clubSignups).where(lt(clubSignups.expiresAt, app.clock.now().getTime()));
}

/** The platform's operations as a request reaches them (docs/decisions/071): the whole database stays out of its reach. */
export function platformOps(app: AppDeps): PlatformOps {
  return {
    list: (ctx) => listClubs(ctx, app),
    create: (ctx, input) => createClub(ctx, app, input),
    update: (ctx, id, input) => updateClub(ctx, app, id, input),
    signup: (ctx, input) => signUpClub(ctx, app, input),
    verify: (ctx, input) => verifyClubSignup(ctx, app, input),
  };
}
