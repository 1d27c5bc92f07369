import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../context';
import type { AppEnv } from './app-env';

/** A page of its own for a host that is no club's, or a club that is suspended: Dutch, plain, not cached. */
function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="nl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}h1{font-size:1.5rem}</style></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body>
</html>
`;
}

export const UNKNOWN_CLUB_PAGE = page(
  'Deze kerstactie bestaat niet',
  'Op dit adres draait geen kerstactie. Controleer het adres, of vraag de club om de juiste link.',
);
export const SUSPENDED_CLUB_PAGE = page(
  'Deze kerstactie is tijdelijk niet beschikbaar',
  'De kerstactie van deze club staat op dit moment stil. Probeer het later opnieuw, of neem contact op met de club.',
);

/**
 * docs/decisions/071: every request belongs to the club its Host names; a host of no club answers 404, and
 * every request of a suspended club (pages, API, sessions) 503, each with a Dutch page.
 */
export function resolveClub(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const club = await deps.clubs.resolve(c.req.header('host') ?? new URL(c.req.url).host);
    const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' };
    if (!club) return c.body(UNKNOWN_CLUB_PAGE, 404, headers);
    if (club.status === 'suspended') return c.body(SUSPENDED_CLUB_PAGE, 503, headers);
    c.set('club', club);
    await next();
  };
}
