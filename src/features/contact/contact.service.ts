import type { RequestCtx } from '../../context';
import { deliverSoon } from '../mail/mail-delivery';
import { contactMessages } from '../../db/schema';
import { AppError } from '../../core/errors';
import { enqueueMail } from '../../platform/mail';
import { isPlainAddress } from '../../platform/mime';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { INVALID_EMAIL_MESSAGE, isValidEmail } from '../../core/public-form-rules';
import { refuseDuringMaintenance } from '../settings/maintenance';
import { getStringSetting } from '../settings/settings.service';
import type { ContactInput } from './contact.schemas';

export const CONTACT_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 5, windowMs: 60 * 60 * 1000 };

/**
 * docs/product.md §7 POST /contact/send; docs/architecture.md §3: the message is stored first, then mailed to the club through
 * the outbox. A filled-in honeypot gets the same success answer but nothing is kept.
 */
export async function sendContactMessage(ctx: RequestCtx, input: ContactInput): Promise<void> {
  await refuseDuringMaintenance(ctx);
  await enforceRateLimit(
    ctx.db,
    ctx.clock,
    `contact:ip:${ctx.rateLimitAddress}`,
    CONTACT_LIMIT_PER_ADDRESS,
    'Je hebt al een aantal berichten gestuurd. Probeer het over een uur opnieuw.',
  );
  // The address becomes the club mail's Reply-To (docs/decisions/058): one plain address, nothing a header could carry more.
  if (!isValidEmail(input.email) || !isPlainAddress(input.email)) throw new AppError('EMAIL_INVALID', INVALID_EMAIL_MESSAGE);
  if (input.website.trim() !== '') return;
  const now = ctx.clock.now().toISOString();
  await ctx.db.insert(contactMessages).values({ name: input.name, email: input.email, subject: input.subject, message: input.message, createdAt: now });
  const clubEmail = await getStringSetting(ctx, 'club_email');
  const mailId = await enqueueMail(ctx.db, ctx.clock, {
    kind: 'contact',
    to: clubEmail,
    replyTo: input.email,
    subject: `Contactformulier: ${input.subject}`,
    text: `Nieuw bericht via het contactformulier van de kerstactie.\n\nNaam: ${input.name}\nEmail: ${input.email}\nOnderwerp: ${input.subject}\n\n${input.message}\n`,
  });
  deliverSoon(ctx, [mailId]);
}
