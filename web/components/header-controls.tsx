// docs/product.md §2 "Layout", the top bar's auth controls, shared by the SPA (auth-controls.tsx) and the
// prerendered pages (routes/-public/public-auth-controls.tsx): nothing while the sign-in check runs; for
// a visitor, links to /login and /register; for a signed-in user, ./signed-in-controls (a chunk of its
// own, so visitors never download it).

/** The look of a text button in the dark top bar. */
export const headerControl =
  "h-9 px-2.5 text-header-foreground hover:bg-white/15 hover:text-header-foreground focus-visible:ring-white/60 sm:px-3";

// The visitor's two links carry the look of <Button> written out: every prerendered page shows them,
// and Button merges its classes with tailwind-merge, which the pages' first load leaves out (docs/decisions/036: the 80 KB budget).
const visitorLink =
  "inline-flex h-9 shrink-0 items-center justify-center whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-white/60 sm:px-3";

export function VisitorControls() {
  return (
    <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
      <a href="/login" data-slot="button" className={`${visitorLink} text-header-foreground hover:bg-white/15`}>
        Login
      </a>
      <a href="/register" data-slot="button" className={`${visitorLink} bg-white text-primary hover:bg-white/90`}>
        Register
      </a>
    </nav>
  );
}
