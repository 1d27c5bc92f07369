import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page, type PageScreenshotOptions } from 'playwright-core';
import { CHROMIUM_FLAGS, HEADLESS_SHELL_PATH } from '../../scripts/chromium.mjs';
import { eq } from 'drizzle-orm';
import { groups, userGroups, users } from '../../src/db/schema';
import { startNodeServer } from '../../src/node';
import { TEST_ARGON2_PARAMS } from '../support/argon2-params';

/**
 * Debian's Chromium headless shell, started the way this machine allows (no downloads, no background network).
 * `loopbackHosts` (e.g. `*.club.test`) resolve to 127.0.0.1, so a club's own host reaches the test server.
 */
export async function launchChromium({ loopbackHosts }: { loopbackHosts?: string } = {}): Promise<Browser> {
  const args = loopbackHosts ? [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${loopbackHosts} 127.0.0.1`] : CHROMIUM_FLAGS;
  return chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args });
}

/**
 * The real Node server (as `npm start` runs it) on a free loopback port, with its own data folder, hashing
 * passwords with the tests' cheap Argon2 parameters (docs/decisions/063).
 */
export async function startTestServer(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-e2e-'));
  const server = await startNodeServer(
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'e2e-admin-password', ...env },
    { argon2Params: TEST_ARGON2_PARAMS },
  );
  return {
    ...server,
    url: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A plain user in the default Users group, as registration makes one, written straight to the server's database. */
export async function createPlainUser(server: Awaited<ReturnType<typeof startTestServer>>, username: string, password: string): Promise<void> {
  const now = new Date().toISOString();
  const { db, passwords } = server.deps;
  const [user] = await db
    .insert(users)
    .values({ username, passwordHash: await passwords.hash(password), createdAt: now, updatedAt: now })
    .returning();
  const [usersGroup] = await db.select().from(groups).where(eq(groups.name, 'Users'));
  await db.insert(userGroups).values({ userId: user!.id, groupId: usersGroup!.id });
}

/**
 * A page in a context of its own, with its script errors collected: a test ends by expecting `errors` to
 * be empty, so an exception in the app fails it even when the screen looked right.
 */
export async function openWatchedPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/**
 * A picture of the page or element for a person to look at, saved as `name` in SCREENSHOT_DIR, taken only with E2E_SCREENSHOTS=1: nothing asserts on
 * it, and a full-page PNG costs about a third of a second of CPU, so CI runs without them (docs/decisions/063).
 */
export async function screenshot(target: Page, name: string, options?: Pick<PageScreenshotOptions, 'fullPage' | 'clip'>): Promise<void>;
export async function screenshot(target: Locator, name: string): Promise<void>;
export async function screenshot(target: Page | Locator, name: string, options: Pick<PageScreenshotOptions, 'fullPage' | 'clip'> = {}): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  const path = join(SCREENSHOT_DIR, name);
  await ('goto' in target ? target.screenshot({ path, ...options }) : target.screenshot({ path }));
}

export const VIEWPORTS = {
  phone: { width: 375, height: 800 },
  desktop: { width: 1280, height: 900 },
} as const;

/** Signs in through the login form and waits for the home page it leads to. */
export async function signIn(page: Page, siteUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${siteUrl}/login`);
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${siteUrl}/`);
}

/** A JSON POST from the signed-in page itself (same origin, its session cookie), as the screens' own calls are made. */
export async function postJson(page: Page, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ([path, body]) => {
      const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    },
    [path, body] as const,
  );
}

/**
 * Elements sticking out past the viewport's right edge, apart from what scrolls inside its own region,
 * named for the failure message ([] when the page fits).
 */
export function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(el))
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class')).slice(0, 80)} "${el.textContent?.slice(0, 40)}"`)
      .slice(0, 5);
  });
}

/**
 * Waits until the element's animations (a dialog's entry) are over, so a screenshot shows it as the user reads it. An
 * animation cancelled meanwhile (its element re-rendered) is over too: its `finished` rejects with an AbortError.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))));
}

/**
 * Starts counting the page's requests and answers a wait for the network to be quiet: none in flight for
 * `quietMs`. Playwright's `networkidle` waits 500 ms after the last one, at every page of the long screen
 * walks; 150 ms is enough for a chunk or query that one answer starts (docs/decisions/063).
 */
export function watchNetwork(page: Page): { quiet(quietMs?: number): Promise<void>; stop(): void } {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight++;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(inFlight - 1, 0);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async quiet(quietMs = 150) {
      const deadline = Date.now() + 30_000;
      while (inFlight > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline) throw new Error(`The network did not go quiet within 30 s (${inFlight} requests in flight)`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}
