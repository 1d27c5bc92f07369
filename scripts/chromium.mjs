// Debian's Chromium and the flags it starts with. No sandbox (root in a container), and nothing that reaches out
// to Google's services: this machine has no route to them, and they add noise to a performance trace.

/** The full browser in its headless mode, for the Lighthouse report and the page budgets (scripts/lighthouse.mjs). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The old headless shell (Debian's chromium-headless-shell, the same Blink and V8 without the browser around them),
 * for the browser tests (test/e2e/browser.ts): a new context costs about a quarter of the full browser's CPU and a
 * page load about two thirds (docs/decisions/063).
 */
export const HEADLESS_SHELL_PATH = process.env.HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/** Flags for both; the shell is headless by itself and ignores `--headless`. */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
