// The figures of docs/decisions/034 and 035 that are not requests per second: the CSV export of every order timed against a
// bare `SELECT *` of the same rows serialised to JSON in the same process, and the JSON the Management page
// downloads in Chromium. Used by scripts/bench.mjs, which seeds the orders and signs in.
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

/** Milliseconds until the last byte of a GET, median of `rounds`, the two targets in turns. */
export async function downloadTimes(targets, rounds = 3) {
  const runs = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const started = performance.now();
      const response = await fetch(target.url, { headers: target.headers ?? {} });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${target.url} answered ${response.status}`);
      runs[i].push({ ms: performance.now() - started, bytes });
    }
  }
  return runs.map((list) => list.sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]);
}

/** The bytes of every /trpc answer the Management page loads, signed in, until the network is quiet. */
export async function managementJsonBytes(baseUrl, cookies) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(cookies.map(({ name, value }) => ({ name, value, url: baseUrl })));
    const page = await context.newPage();
    const bodies = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/trpc/'))
        bodies.push(
          response.body().then(
            (body) => body.length,
            () => 0,
          ),
        );
    });
    await page.goto(new URL('/admin/management', baseUrl).href, { waitUntil: 'networkidle' });
    await page.getByRole('table').first().waitFor();
    const sizes = await Promise.all(bodies);
    return { bytes: sizes.reduce((sum, n) => sum + n, 0), requests: sizes.length };
  } finally {
    await browser.close();
  }
}
