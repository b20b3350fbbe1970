/**
 * The operator dashboard: time to first render of a 200-agent directory in headless Debian
 * Chromium (navigation start → 200 rows in the DOM, which includes loading the bundle, the
 * Whoami and Directory queries and the render), and the size of the JavaScript it ships.
 *
 *   npm run bench:dashboard            (PGlite; DATABASE_URL=postgres://… for Postgres)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import {
  buildDashboard,
  CHROMIUM,
  launchChromium,
  openDashboard,
} from '../test/support/browser.ts';
import { benchGateway, figure, printReport, seedGoal, setting, summary } from './support.ts';

const AGENTS = 200;
const RUNS = setting('RUNS', 7, 2);

buildDashboard();
const assets = new URL('../dashboard/dist/assets/', import.meta.url).pathname;
const files = readdirSync(assets);
const bytes = (ext: string) =>
  files
    .filter((file) => file.endsWith(ext))
    .map((file) => readFileSync(`${assets}${file}`))
    .reduce(
      (sum, body) => ({ raw: sum.raw + body.length, gzip: sum.gzip + gzipSync(body).length }),
      {
        raw: 0,
        gzip: 0,
      },
    );

const gateway = await benchGateway();
const goal = await seedGoal(gateway.gql, AGENTS);
await goal.report(goal.agentIds, 'WORKING');
// The same Directory query from Node, for scale: what of the first render is the gateway's.
const queries: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  await gateway.gql(
    `query($g: ID!) { directory(goalId: $g, limit: 1000) { rows { agentId presence { liveness } } rollup { reason } } }`,
    { g: goal.goalId },
  );
  queries.push(performance.now() - started);
}
const browser = await launchChromium();
const renders: number[] = [];
const phases: { html: number; script: number; lastQuery: number }[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    // The time the 200th row is committed to the DOM, seen by a MutationObserver (polling on
    // animation frames would add a frame or more of its own on this shared machine).
    const page = await openDashboard(
      browser,
      gateway.url,
      gateway.adminToken,
      `/g/${goal.goalId}`,
      { width: 1440, height: 900 },
      `new MutationObserver((_, observer) => {
        if (document.querySelectorAll('tr[data-agent]').length < ${AGENTS}) return;
        window.renderedAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });`,
    );
    await page.waitForFunction(() => (window as any).renderedAt !== undefined, undefined, {
      timeout: 10_000,
    });
    renders.push(await page.evaluate(() => (window as any).renderedAt as number));
    // A string, not a function: tsx would wrap a named inner function in a helper the page lacks.
    phases.push(
      await page.evaluate(`(() => {
        const resources = performance.getEntriesByType('resource');
        const last = (pick) => Math.round(Math.max(0, ...resources.filter(pick).map((r) => r.responseEnd)));
        return {
          html: Math.round(performance.getEntriesByType('navigation')[0].responseEnd),
          script: last((r) => r.name.endsWith('.js')),
          lastQuery: last((r) => r.name.endsWith('/graphql')),
        };
      })()`),
    );
    await page.close();
  }
} finally {
  await browser.close();
  await gateway.stop();
}

const js = bytes('.js');
const css = bytes('.css');
const firstRender = summary(renders);
printReport(
  'dashboard',
  [
    figure(`first render of a ${AGENTS}-agent directory, median`, firstRender.p50, 'ms', {
      atMost: 1000,
      source: 'issue 15',
    }),
    figure('JavaScript shipped, gzipped', js.gzip, 'bytes', {
      atMost: 250 * 1024,
      source: 'issue 15',
    }),
  ],
  {
    browser: execFileSync(CHROMIUM, ['--version']).toString().trim(),
    directoryAgents: AGENTS,
    firstRenderMs: { ...firstRender, first: Math.round(renders[0] ?? Number.NaN) },
    // Milliseconds after navigation start, median run: page loaded, bundle fetched, last query answered.
    medianRunPhases:
      phases[
        renders.indexOf([...renders].sort((a, b) => a - b)[Math.floor(renders.length / 2)] ?? 0)
      ],
    directoryQueryFromNodeMs: summary(queries),
    javascript: { bytes: js.raw, gzipBytes: js.gzip },
    css: { bytes: css.raw, gzipBytes: css.gzip },
  },
);
