import { isUniqueViolation } from '../../db/unique-violation';
import { ownerValue } from '../../db/club-db';
import { eq, inArray, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { AppError } from '../../core/errors';
import { isValidEmail } from '../../core/public-form-rules';
import { groups, passwordResets, userGroups, users } from '../../db/schema';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { randomBytes } from '../../platform/crypto';
import { enqueueMailStatement } from '../../platform/mail';
import { isPlainAddress } from '../../platform/mime';
import { auditInsert } from '../audit/audit';
import { requireAdmin } from '../auth/permissions';
import { invitationMail } from '../account/account-mails';
import { USERNAME_PATTERN } from '../../core/credential-rules';
import { USERNAME_RULE_MESSAGE } from '../account/account.schemas';
import { INVITE_LINK_TTL_MS, newPasswordLink, PASSWORD_RESET_MAIL_KIND } from '../account/password-reset.service';
import { deliverSoon } from '../mail/mail-delivery';
import { getIntegerSetting, getStringSetting } from '../settings/settings.service';
import { GROUP_NOT_FOUND } from './users.service';
import type { InviteUserInput } from './users.schemas';

export const USERNAME_TAKEN = 'Username is already taken';
export const EMAIL_TAKEN = 'Email is already in use';

const takenRefusal = (byName: boolean) => (byName ? new AppError('USERNAME_TAKEN', USERNAME_TAKEN) : new AppError('EMAIL_TAKEN', EMAIL_TAKEN));

/**
 * docs/architecture.md §6 POST /api/users/invite: an admin brings someone in (a treasurer) without opening
 * public registration. The user is active at once, in the groups named (else the default group), with a
 * password nobody knows, and gets a set-password link valid 7 days, the reset's machinery with a longer
 * life. docs/decisions/058: the account and the mail take the inviting admin's language, the best guess
 * of the newcomer's until they choose their own. The user, groups, link, mail and audit entry land in one
 * batch; the later statements find the new user by name.
 */
export async function inviteUser(ctx: RequestCtx, input: InviteUserInput): Promise<{ user_id: number }> {
  const admin = requireAdmin(ctx);
  if (!USERNAME_PATTERN.test(input.username)) throw new AppError('USERNAME_INVALID', USERNAME_RULE_MESSAGE);
  // The address is the mail's recipient: one plain address.
  if (!isValidEmail(input.email) || !isPlainAddress(input.email)) throw new AppError('EMAIL_INVALID', 'Invalid email address');
  const groupIds = await groupsFor(ctx, input.group_ids);
  const [taken] = await ctx.db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(sql`lower(${users.username}) = ${input.username.toLowerCase()} OR lower(${users.email}) = ${input.email.toLowerCase()}`)
    .limit(1);
  if (taken) throw takenRefusal(taken.username.toLowerCase() === input.username.toLowerCase());

  const clubName = await getStringSetting(ctx, 'club_name');
  const now = ctx.clock.now().toISOString();
  // Nobody knows this password: the account opens only through the link.
  const passwordHash = await ctx.passwords.hash(encodeBase64urlNoPadding(randomBytes(32)));
  const newUserId = sql<number>`${ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))}`;
  const { link, row } = newPasswordLink(ctx, newUserId, INVITE_LINK_TTL_MS);
  const locale = admin.locale;
  const mail = invitationMail(locale, { username: input.username, clubName, link, invitedBy: admin.username });
  let queued: { id: number }[];
  let created: { id: number }[];
  try {
    [created, , , queued] = await ctx.db.batch([
      ctx.db
        .insert(users)
        .values({ username: input.username, email: input.email, passwordHash, status: 'active', deletable: true, locale, createdAt: now, updatedAt: now })
        .returning({ id: users.id }),
      ctx.db.insert(userGroups).select(
        ctx.db
          .select({ clubId: ownerValue(ctx.db), userId: sql<number>`${newUserId}`.as('user_id'), groupId: groups.id })
          .from(groups)
          .where(inArray(groups.id, groupIds)),
      ),
      ctx.db.insert(passwordResets).values(row),
      enqueueMailStatement(ctx.db, ctx.clock, {
        kind: PASSWORD_RESET_MAIL_KIND,
        to: input.email,
        relatedRef: sql`'user:' || ${newUserId}`,
        ...mail,
      }),
      auditInsert(ctx, {
        action: 'user.invited',
        target: sql`'user:' || ${newUserId} || ' (' || ${input.username} || ')'`,
        details: { email: input.email, group_ids: groupIds },
      }),
    ]);
  } catch (error) {
    // Another request took the name or address between the check and the write: the unique indexes decide.
    if (isUniqueViolation(error)) {
      const [byName] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))
        .limit(1);
      throw takenRefusal(byName !== undefined);
    }
    throw error;
  }
  deliverSoon(
    ctx,
    queued.map((m) => m.id),
  );
  return { user_id: created[0]!.id };
}

/** The groups named (each must exist), or the default group when none are. */
async function groupsFor(ctx: RequestCtx, named: number[] | undefined): Promise<number[]> {
  const wanted = [...new Set(named ?? [])];
  if (wanted.length === 0) return [await getIntegerSetting(ctx, 'default_user_group_id')];
  const found = await ctx.db.select({ id: groups.id }).from(groups).where(inArray(groups.id, wanted));
  if (found.length !== wanted.length) throw new AppError('GROUP_NOT_FOUND', GROUP_NOT_FOUND);
  return wanted.sort((a, b) => a - b);
}
