import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { JSHandle, Locator, Page } from 'playwright-core';

/** axe-core's WCAG 2.1 A/AA and best-practice rules, run in the page as it is now (docs/decisions/036). */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

type AxeRun = (context: Element | Document, options: object) => Promise<{ violations: Violation[] }>;

/**
 * axe-core's findings on the page as it is now, or only within `scope` (a dialog over a page already checked).
 * axe is loaded once per document: it is half a megabyte of script to parse, and a dialog opens on the same page.
 */
export async function axeViolations(page: Page, scope?: Locator): Promise<Violation[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the site's
  // Content-Security-Policy (script-src 'self') rightly refuses inline scripts, and should stay on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Colours are judged as they end up: a dialog fading in or a button's colour transition is not yet there.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const context: JSHandle<Element | Document> = scope ? await scope.elementHandle() : await page.evaluateHandle(() => document);
  return context.evaluate(async (target: Element | Document, tags: string[]) => {
    const axe = (window as unknown as { axe: { run: AxeRun } }).axe;
    const result = await axe.run(target, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  }, AXE_TAGS);
}

export const describeViolations = (violations: Violation[]) =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`).join('\n');

/**
 * The serious and critical findings as text ('' when there are none), for `expect(...).toBe('')`;
 * moderate and minor ones are printed, not failed, so they do not go unnoticed either.
 */
export async function blockingAxeViolations(page: Page, where: string, scope?: Locator): Promise<string> {
  const violations = await axeViolations(page, scope);
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = violations.filter((v) => !blocking.includes(v));
  if (minor.length > 0) console.warn(`axe, ${where}, not blocking:\n${describeViolations(minor)}`);
  return describeViolations(blocking);
}
