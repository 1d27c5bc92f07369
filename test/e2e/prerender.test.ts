import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../src/db/schema';
import { launchChromium, startTestServer, openWatchedPage, screenshot } from './browser';

/**
 * docs/decisions/015: the five public pages come prerendered from the build, read fine without
 * JavaScript, and are hydrated (not rendered again) in the browser; the site has robots.txt and a
 * sitemap.
 */

let browser: Browser;
let server: Awaited<ReturnType<typeof startTestServer>>;

const PAGES = [
  {
    path: '/',
    file: 'index.html',
    heading: 'Kerstactie Ronde Tafel 144 Harlingen',
    title: 'Kerstactie Ronde Tafel 144 Harlingen – kerstpakketten voor het goede doel',
  },
  { path: '/faq', file: 'faq.html', heading: 'Veelgestelde Vragen', title: 'Veelgestelde Vragen | Kerstactie Ronde Tafel 144 Harlingen' },
  { path: '/bestelinformatie', file: 'bestelinformatie.html', heading: 'Bestelinformatie', title: 'Bestelinformatie | Kerstactie Ronde Tafel 144 Harlingen' },
  { path: '/privacy', file: 'privacy.html', heading: 'Privacy & Cookies', title: 'Privacy & Cookies | Kerstactie Ronde Tafel 144 Harlingen' },
  { path: '/contact', file: 'contact.html', heading: 'Contact', title: 'Contact | Kerstactie Ronde Tafel 144 Harlingen' },
] as const;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page that records script errors and console errors (React reports hydration mismatches there). */
async function openPage(options: { javaScriptEnabled?: boolean; width?: number } = {}) {
  const { context, page, errors } = await openWatchedPage(browser, {
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors, close: () => context.close() };
}

/** Remembers the <h1> the HTML arrived with, to tell hydration (same element) from a fresh render. */
async function rememberFirstHeading(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { firstHeading: Element | null }).firstHeading = document.querySelector('h1');
    });
  });
}

const keptFirstHeading = (page: Page) =>
  page.evaluate(() => {
    const first = (window as unknown as { firstHeading: Element | null }).firstHeading;
    return first !== null && first === document.querySelector('h1') && first.isConnected;
  });

describe('the build', () => {
  it('writes each public page as HTML with its content, title and description, and keeps the empty shell as app.html', () => {
    const web = join(process.cwd(), 'dist/web');
    for (const { path, file, heading, title } of PAGES) {
      const html = readFileSync(join(web, file), 'utf8');
      expect(html, path).toContain(`data-prerendered="${path}"`);
      expect(html, path).toContain(`<title>${title.replace(/&/g, '&amp;')}</title>`);
      expect(html, path).toMatch(/<h1[^>]*>/);
      expect(html, path).toContain(heading.replace(/&/g, '&amp;'));
    }
    const shell = readFileSync(join(web, 'app.html'), 'utf8');
    expect(shell).toContain('<div id="root"></div>');
  });

  it('puts the rules of the first paint in each page’s head and the stylesheet at the end of its body, with no inline script', () => {
    const web = join(process.cwd(), 'dist/web');
    for (const file of [...PAGES.map((page) => page.file), 'order.html']) {
      const html = readFileSync(join(web, file), 'utf8');
      const head = html.slice(0, html.indexOf('</head>'));
      // The page's own rules (Tailwind's preflight and utilities it uses), not the whole stylesheet.
      const inline = head.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
      expect(inline.length, file).toBeGreaterThan(5_000);
      expect(inline, file).toContain('.bg-header{');
      expect(head, file).not.toContain('rel="stylesheet"');
      expect(html, file).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/styles-[\w-]+\.css">\s*<\/body>/);
      // The CSP allows no inline script: the stylesheet must not be switched on by an onload handler.
      expect(html, file).not.toMatch(/<[^>]+\son[a-z]+=/i);
    }
  });
});

describe('the first paint', () => {
  it('looks like the finished page while the stylesheet is still on its way: nothing moves when it arrives', async () => {
    // Every element's box, colour and type size under the head's rules alone must already be what the whole
    // stylesheet makes of it; a rule Beasties missed shows as a box that moves (a layout shift) or a change.
    const probe = () =>
      [...document.querySelectorAll('body *')].map((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        const name = `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`;
        return `${name} ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)} ${style.color} ${style.backgroundColor} ${style.fontSize}`;
      });
    for (const width of [412, 1280]) {
      const finished = await openPage({ javaScriptEnabled: false, width });
      const first = await openPage({ javaScriptEnabled: false, width });
      await first.page.route('**/assets/styles-*.css', (route) => route.abort());
      for (const path of [...PAGES.map((page) => page.path), '/order']) {
        await finished.page.goto(`${server.url}${path}`);
        const expected = await finished.page.evaluate(probe);
        await first.page.goto(`${server.url}${path}`);
        const painted = await first.page.evaluate(probe);
        expect(
          painted.filter((line, index) => line !== expected[index]),
          `${path} at ${width} px`,
        ).toEqual([]);
        expect(painted.length, path).toBe(expected.length);
      }
      await finished.close();
      await first.close();
    }
  });
});

describe('without JavaScript', () => {
  it('shows the whole landing page: hero, sections, price, charities, package and footer', async () => {
    const { page, close } = await openPage({ javaScriptEnabled: false, width: 360 });
    await page.goto(`${server.url}/`);
    expect(await page.title()).toBe(PAGES[0].title);
    expect(await page.locator('meta[name=description]').getAttribute('content')).toContain('€ 75 per pakket (excl. btw)');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Kerstactie Ronde Tafel 144 Harlingen');
    for (const id of ['home', 'wie', 'wat', 'goede-doelen', 'bestellen', 'folder']) {
      expect(await page.locator(`section#${id}`).count(), id).toBe(1);
    }
    expect(await page.locator('[data-slot=price]').textContent()).toBe('€ 75 per pakket, exclusief btw');
    expect(await page.locator('[data-charity]').count()).toBeGreaterThan(0);
    expect(await page.locator('#folder a[target=_blank]').getAttribute('href')).toBe('/images/folder-kerstpakket.svg');
    expect(await page.locator('footer').textContent()).toContain('Ronde Tafel 144 Harlingen · Voorstraat 1, 8861 BJ Harlingen');
    // Plain links work without the router.
    await page.getByRole('link', { name: 'Veelgestelde vragen' }).click();
    await page.waitForURL(`${server.url}/faq`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Veelgestelde Vragen');
    // The questions are <details>: they open without a script, and the answers are in the HTML.
    const items = page.locator('details[data-slot=faq-item]');
    expect(await items.count()).toBe(10);
    await items.first().locator('summary').click();
    expect(await items.first().evaluate((item) => (item as HTMLDetailsElement).open)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.goto(`${server.url}/`);
    await screenshot(page, 'prerender-no-js-360.png', { fullPage: true });
    await close();
  });

  it('has every public page, each with its own title', async () => {
    const { page, close } = await openPage({ javaScriptEnabled: false });
    for (const { path, heading, title } of PAGES) {
      await page.goto(`${server.url}${path}`);
      expect(await page.title(), path).toBe(title);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe(heading);
      if (path !== '/') expect(await page.getByRole('link', { name: 'Terug naar kerstactie' }).count(), path).toBe(1);
    }
    await close();
  });
  it('hides the order and contact forms, which need JavaScript, and says how to reach the club instead', async () => {
    const { page, close } = await openPage({ javaScriptEnabled: false, width: 360 });
    for (const { path, notice, form } of [
      { path: '/order', notice: 'Het bestelformulier werkt alleen met JavaScript.', form: 'Wachtwoord' },
      { path: '/contact', notice: 'Het contactformulier werkt alleen met JavaScript.', form: 'Naam' },
    ]) {
      await page.goto(`${server.url}${path}`);
      const note = page.getByRole('note');
      expect(await note.isVisible(), path).toBe(true);
      expect(await note.textContent(), path).toContain(notice);
      expect(await note.getByRole('link', { name: 'kerstactie@example.nl' }).getAttribute('href'), path).toBe('mailto:kerstactie@example.nl');
      expect(await page.getByLabel(form, { exact: true }).isVisible(), path).toBe(false);
      expect(await page.locator('form').isVisible(), path).toBe(false);
    }
    await screenshot(page, 'prerender-no-js-contact-360.png', { fullPage: true });
    await close();
  });

  it('sends the forms only once their script runs: the prerendered submit buttons start disabled', () => {
    const web = join(process.cwd(), 'dist/web');
    for (const [file, button] of [
      ['order.html', 'Doorgaan'],
      ['contact.html', 'Versturen'],
    ] as const) {
      const html = readFileSync(join(web, file), 'utf8');
      const submit = html.match(/<button[^>]*type="submit"[^>]*>[\s\S]*?<\/button>/)?.[0] ?? '';
      expect(submit, file).toContain(button);
      expect(submit, file).toMatch(/\sdisabled=""/);
    }
  });
});

describe('with JavaScript', () => {
  it('hydrates the islands of each prerendered page (and the order form) without a mismatch', async () => {
    for (const { path, heading } of [...PAGES, { path: '/order', heading: 'Kerstpakket Bestellen' }]) {
      const { page, errors, close } = await openPage();
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await rememberFirstHeading(page);
      await page.goto(`${server.url}${path}`);
      // The sign-in controls appear only after hydration: the build knows no visitor.
      await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
      // docs/decisions/015: only the islands hydrate; the code of the whole page and of the layout stays on the server.
      expect(
        scripts.filter((script) => /\/(public-app|site-layout|[a-z-]+-page)-[\w-]+\.js$/.test(script)),
        path,
      ).toEqual([]);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe(heading);
      expect(await keptFirstHeading(page), path).toBe(true);
      // The note for visitors without JavaScript stays out of sight, and the forms can be sent.
      expect(await page.locator('[data-slot=needs-javascript]').count(), path).toBe(0);
      if (path === '/order' || path === '/contact') {
        expect(await page.locator('form').isVisible(), path).toBe(true);
        await expect.poll(() => page.locator('form button[type=submit]').isEnabled(), { message: path }).toBe(true);
      }
      expect(errors, path).toEqual([]);
      await close();
    }
  });

  it('loads the prerendered page for links between public pages, and navigates within the SPA elsewhere', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${server.url}/faq`);
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
    const marker = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
    const mark = () =>
      page.evaluate(() => {
        (window as unknown as { sameDocument: boolean }).sameDocument = true;
      });
    await mark();
    await page.getByRole('link', { name: 'Terug naar kerstactie' }).click();
    await page.getByRole('heading', { name: 'Kerstactie Ronde Tafel 144 Harlingen', level: 1 }).waitFor();
    // A public page is a document of its own, hydrated by the light entry.
    expect(await marker()).toBe(false);
    expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('/');
    expect(await page.title()).toBe(PAGES[0].title);

    // In the SPA the same plain links of the layout become router navigations.
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await mark();
    await page.locator('footer').getByRole('link', { name: 'Veelgestelde vragen' }).click();
    await page.getByRole('heading', { name: 'Veelgestelde Vragen', level: 1 }).waitFor();
    expect(await marker()).toBe(true);
    expect(page.url()).toBe(`${server.url}/faq`);
    expect(await page.title()).toBe(PAGES[1].title);
    expect(errors).toEqual([]);
    await close();
  });

  it('renders the whole page afresh, without errors, when the settings differ from the build', async () => {
    const setClubName = async (value: string) => {
      await server.deps.db.update(settings).set({ value }).where(eq(settings.key, 'club_name'));
      server.deps.settingsCache.invalidate();
    };
    await setClubName('Ronde Tafel 99 Franeker');
    try {
      const { page, errors, close } = await openPage();
      await rememberFirstHeading(page);
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { name: 'Kerstactie Ronde Tafel 99 Franeker', level: 1 }).waitFor();
      expect(await keptFirstHeading(page)).toBe(false);
      expect(await page.title()).toContain('Ronde Tafel 99 Franeker');
      // Rendered afresh, the whole page is React's: the charity tiles open their modal, and the forms
      // can be sent.
      await page.locator('[data-charity]').first().click();
      await page.locator('dialog[data-slot=image-modal][open]').waitFor();
      await page.keyboard.press('Escape');
      for (const path of ['/contact', '/order']) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('banner').getByText('Ronde Tafel 99 Franeker').waitFor();
        await expect.poll(() => page.locator('form button[type=submit]').isEnabled(), { message: path }).toBe(true);
      }
      expect(errors).toEqual([]);
      await close();
    } finally {
      await setClubName('Ronde Tafel 144 Harlingen');
    }
  });

  it('hydrates the order form on its password step, then restores the stored tabler', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${server.url}/order`);
    expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('/order');
    await page.getByRole('heading', { name: 'Wachtwoord', level: 2 }).waitFor();
    await page.evaluate(() => {
      localStorage.setItem('selectedTablerId', '7');
      localStorage.setItem('selectedTablerName', 'Durk Hoekstra');
    });
    await rememberFirstHeading(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Bestelling', level: 2 }).waitFor();
    expect(await keptFirstHeading(page)).toBe(true);
    expect(await page.locator('main').textContent()).toContain('Durk Hoekstra');
    expect(errors).toEqual([]);
    await close();
  });

  it('serves the empty shell, not the home page, for the other routes', async () => {
    for (const path of ['/login', '/admin', '/no-such-page']) {
      const response = await fetch(`${server.url}${path}`, { headers: { Accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain('data-prerendered');
    }
    const missing = await fetch(`${server.url}/assets/no-such-file.js`, { headers: { Accept: '*/*' } });
    expect(missing.status).toBe(404);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('lists the five public pages with absolute addresses and keeps crawlers out of the signed-in screens', async () => {
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await robots.text();
    expect(text).toContain('User-agent: *');
    for (const path of ['/admin', '/account', '/login', '/register', '/api/', '/trpc/']) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).not.toContain('Disallow: /order');
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);

    const sitemap = await fetch(`${server.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await sitemap.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(PAGES.map(({ path }) => `${server.url}${path}`));
  });
});
