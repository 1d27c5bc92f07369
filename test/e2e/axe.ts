import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's WCAG 2.1 A/AA and best-practice rules, run in the page as it is now (docs/decisions/036). */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/** axe-core's findings on the page as it is now. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the site's
  // Content-Security-Policy (script-src 'self') rightly refuses inline scripts, and should stay on.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  }, AXE_TAGS);
}

export const describeViolations = (violations: Violation[]) =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`).join('\n');

/**
 * The serious and critical findings as text ('' when there are none), for `expect(...).toBe('')`;
 * moderate and minor ones are printed, not failed, so they do not go unnoticed either.
 */
export async function blockingAxeViolations(page: Page, where: string): Promise<string> {
  const violations = await axeViolations(page);
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = violations.filter((v) => !blocking.includes(v));
  if (minor.length > 0) console.warn(`axe, ${where}, not blocking:\n${describeViolations(minor)}`);
  return describeViolations(blocking);
}
