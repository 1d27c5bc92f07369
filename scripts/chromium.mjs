// Debian's Chromium and the flags it starts with, for the browser tests (test/e2e/browser.ts) and the
// Lighthouse report (scripts/lighthouse.mjs). No sandbox (root in a container), and nothing that reaches out
// to Google's services: this machine has no route to them, and they add noise to a performance trace.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
