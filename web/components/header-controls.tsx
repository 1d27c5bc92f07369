import { Button } from "@/components/ui/button";

// spec §2 "Layout", the top bar's auth controls, shared by the SPA (auth-controls.tsx) and the
// prerendered pages (public-auth-controls.tsx): nothing while the sign-in check runs; for a visitor,
// links to /login and /register; for a signed-in user, ./signed-in-controls (a chunk of its own, so
// visitors never download it).

/** The look of a text button in the dark top bar. */
export const headerControl =
  "h-9 px-2.5 text-header-foreground hover:bg-white/15 hover:text-header-foreground focus-visible:ring-white/60 sm:px-3";

export function VisitorControls() {
  return (
    <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
      <Button asChild variant="ghost" className={headerControl}>
        <a href="/login">Login</a>
      </Button>
      <Button
        asChild
        className="h-9 bg-white px-2.5 text-primary shadow-none hover:bg-white/90 focus-visible:ring-white/60 sm:px-3"
      >
        <a href="/register">Register</a>
      </Button>
    </nav>
  );
}
