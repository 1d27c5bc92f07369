// Lighthouse scores and the JavaScript weight of public pages (docs/decisions/036), in Debian's Chromium.
//
//   node scripts/lighthouse.mjs            starts the built server (dist-server, dist/web) on a free port,
//                                          measures '/' and '/order' and prints the table with the budgets
//   import { runLighthouse } from …        used by scripts/bench.mjs after its HTTP benchmark
//
// Lighthouse runs with its default configuration, which is the mobile one: a phone-sized screen and
// "simulate" throttling (slow 4G and a 4x slower CPU, computed from one unthrottled load), so the scores
// are comparable with what PageSpeed Insights reports for a phone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** The quality bar of docs/decisions/036: minimum scores per category, and at most this much JavaScript (gzip) for '/'. */
export const BUDGETS = {
  scores: { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 },
  scriptKb: { '/': 80 },
};

/** The longest chain of requests in a network-tree insight, as "url > url > …" (paths only). */
function longestChain(chains) {
  let best = [];
  const walk = (nodes, trail) => {
    for (const node of Object.values(nodes ?? {})) {
      const next = [...trail, new URL(node.url).pathname];
      if (next.length > best.length) best = next;
      walk(node.children, next);
    }
  };
  walk(chains, []);
  return best.join(' > ');
}

/** A few words on where an audit failed: the elements, resources or checks it names. */
function describeItems(audit) {
  const lines = [];
  for (const item of audit.details?.items ?? []) {
    const node = item.type === 'node' ? item : (item.node ?? item.relatedNode);
    if (node?.selector) {
      const why = node.explanation ? ` — ${node.explanation.split('\n').slice(0, 3).join(' ')}` : '';
      lines.push(`${node.selector} ${node.snippet ?? ''}${why}`);
    } else if (item.type === 'checklist') {
      for (const check of Object.values(item.items)) if (!check.value) lines.push(`not met: ${check.label}`);
    } else if (item.type === 'list-section' && item.value?.type === 'network-tree') {
      lines.push(`longest request chain: ${longestChain(item.value.chains)}`);
    } else if (item.groupLabel) {
      lines.push(`${item.groupLabel}: ${Math.round(item.duration)} ms`);
    } else if (item.url) {
      lines.push(String(item.url) + (item.wastedBytes ? ` (${Math.round(item.wastedBytes / 1024)} KiB unused)` : ''));
    } else if (item.source?.url) {
      lines.push(String(item.source.url));
    }
  }
  return lines.slice(0, 6);
}

/** Audits of a category that cost points: scored, applicable, and short of a full score. */
function failingAudits(lhr, categoryId) {
  return lhr.categories[categoryId].auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit.score !== null && audit.score < 1 && !['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode))
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      score: Math.round(audit.score * 100),
      displayValue: audit.displayValue ?? '',
      items: describeItems(audit),
    }));
}

/** One Lighthouse run per path in one Chromium; scores 0–100 and, for a category under 100, what failed. */
async function lighthouseScores(baseUrl, paths) {
  const chrome = await launchChrome({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  try {
    const results = {};
    for (const path of paths) {
      const url = new URL(path, baseUrl).href;
      const runner = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      const lhr = runner?.lhr;
      if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
      if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores = {};
      const failing = {};
      for (const id of CATEGORIES) {
        const score = lhr.categories[id].score;
        scores[id] = score === null ? NaN : Math.round(score * 100);
        if (!(scores[id] >= 100)) failing[id] = failingAudits(lhr, id);
      }
      results[path] = { scores, failing };
    }
    return results;
  } finally {
    chrome.kill();
  }
}

/**
 * The JavaScript a first visit downloads until the network is quiet, in gzip bytes: what went over the
 * wire when the server sent it gzipped, otherwise (uncompressed, or brotli) the gzip level 9 size of the
 * body — the budget is written in gzip bytes, whatever the server does with a given request.
 */
async function scriptWeights(baseUrl, paths) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const results = {};
    for (const path of paths) {
      // A fresh context per page: an empty cache, as for a first visitor.
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      const responses = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') responses.push(response);
      });
      await page.goto(new URL(path, baseUrl).href, { waitUntil: 'networkidle' });
      const scripts = [];
      for (const response of responses) {
        if (response.status() !== 200) continue;
        const body = await response.body();
        const encoding = (await response.headerValue('content-encoding')) ?? '';
        const sizes = await response.request().sizes();
        const gzip = encoding === 'gzip' && sizes.responseBodySize > 0 ? sizes.responseBodySize : gzipSync(body, { level: 9 }).length;
        scripts.push({ url: response.url(), bytes: body.length, gzip, served: encoding || 'identity' });
      }
      await context.close();
      results[path] = {
        scripts,
        gzipBytes: scripts.reduce((sum, s) => sum + s.gzip, 0),
        rawBytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
      };
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse (mobile, simulated throttling) and the JavaScript weight for each path under baseUrl.
 * Per path: { scores: {performance, accessibility, 'best-practices', seo} (0–100), failing: {category: [audit…]},
 * script: { gzipBytes, gzipKb, rawBytes, scripts: [{url, bytes, gzip, served}] } }.
 */
export async function runLighthouse(baseUrl, paths) {
  const lighthouseResults = await lighthouseScores(baseUrl, paths);
  const weights = await scriptWeights(baseUrl, paths);
  return Object.fromEntries(paths.map((path) => [path, { ...lighthouseResults[path], script: { ...weights[path], gzipKb: weights[path].gzipBytes / 1024 } }]));
}

/** The report as lines of text: one row per page, each figure against its budget, then what failed. */
export function formatReport(results, budgets = BUDGETS) {
  const mark = (ok) => (ok ? 'ok' : 'OVER BUDGET');
  const lines = [];
  lines.push('Lighthouse 13, mobile, simulated throttling; JavaScript = scripts of a first load, gzip');
  for (const [path, result] of Object.entries(results)) {
    lines.push(`\n${path}`);
    for (const id of CATEGORIES) {
      const score = result.scores[id];
      const min = budgets.scores[id];
      const budget = min === undefined ? '' : `(budget ${min === 100 ? '100' : `>= ${min}`})`;
      lines.push(`  ${id.padEnd(16)} ${String(score).padStart(5)}      ${budget.padEnd(20)} ${min === undefined ? '' : mark(score >= min)}`);
    }
    const kb = result.script.gzipKb;
    const maxKb = budgets.scriptKb[path];
    const served = [...new Set(result.script.scripts.map((s) => s.served))].join('/') || 'none';
    const budget = maxKb === undefined ? '(no budget)' : `(budget <= ${maxKb} KB)`;
    lines.push(
      `  ${'JavaScript'.padEnd(16)} ${kb.toFixed(1).padStart(5)} KB   ${budget.padEnd(20)} ${maxKb === undefined ? '' : mark(kb <= maxKb)}` +
        `   ${result.script.scripts.length} files, ${(result.script.rawBytes / 1024).toFixed(1)} KB uncompressed, served ${served}`,
    );
    for (const [category, audits] of Object.entries(result.failing)) {
      if (audits.length === 0) continue;
      lines.push(`  ${category} below 100:`);
      for (const audit of audits) {
        lines.push(`    - ${audit.id} (${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''}): ${audit.title}`);
        for (const item of audit.items) lines.push(`        ${item}`);
      }
    }
  }
  return lines.join('\n');
}

/** Whether every figure with a budget meets it. */
export function withinBudgets(results, budgets = BUDGETS) {
  return Object.entries(results).every(
    ([path, result]) =>
      Object.entries(budgets.scores).every(([id, min]) => result.scores[id] >= min) &&
      (budgets.scriptKb[path] === undefined || result.script.gzipKb <= budgets.scriptKb[path]),
  );
}

// Standalone: the built server in this process, on a free loopback port, with a throw-away data folder.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { startNodeServer } = await import('../dist-server/server.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'kerstactie-lighthouse-'));
  const log = console.log;
  console.log = () => undefined; // the server's start-up lines are not part of the report
  const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'lighthouse-admin-password' });
  console.log = log;
  try {
    const results = await runLighthouse(`http://127.0.0.1:${server.port}`, process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/order']);
    console.log(formatReport(results));
    if (process.env.LIGHTHOUSE_JSON) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
