/**
 * The operator dashboard: time to first render of a 200-agent directory in headless Debian
 * Chromium (navigation start → 200 rows in the DOM, which includes loading the bundle, the
 * Whoami and Directory queries and the render), and the bytes on the wire (as the gateway
 * sends them, Brotli and gzip) of its JavaScript and of the GraphiQL page.
 *
 *   npm run bench:dashboard            (PGlite; DATABASE_URL=postgres://… for Postgres)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
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
const assets = readdirSync(new URL('../dashboard/dist/assets/', import.meta.url).pathname);

/** The bytes the gateway sends for `path`, as they go over the wire with `accept-encoding`. */
function wireBytes(base: string, path: string, encoding: string, accept = '*/*') {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { headers: { 'accept-encoding': encoding, accept } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const gateway = await benchGateway({ env: { SWITCHBOARD_EXPLORATION: 'true' } });
const onTheWire = async (ext: string, encoding: string) => {
  let sum = 0;
  for (const file of assets.filter((name) => name.endsWith(ext)))
    sum += await wireBytes(gateway.url, `/assets/${file}`, encoding);
  return sum;
};
const js = {
  bytes: await onTheWire('.js', 'identity'),
  brotliBytes: await onTheWire('.js', 'br'),
  gzipBytes: await onTheWire('.js', 'gzip'),
};
const css = {
  bytes: await onTheWire('.css', 'identity'),
  brotliBytes: await onTheWire('.css', 'br'),
  gzipBytes: await onTheWire('.css', 'gzip'),
};
const graphiql = {
  bytes: await wireBytes(gateway.url, '/graphql', 'identity', 'text/html'),
  brotliBytes: await wireBytes(gateway.url, '/graphql', 'br', 'text/html'),
  gzipBytes: await wireBytes(gateway.url, '/graphql', 'gzip', 'text/html'),
};
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

const firstRender = summary(renders);
printReport(
  'dashboard',
  [
    figure(`first render of a ${AGENTS}-agent directory, median`, firstRender.p50, 'ms', {
      atMost: 1000,
      source: 'issue 15',
    }),
    figure('JavaScript on the wire, Brotli', js.brotliBytes, 'bytes', {
      atMost: 250 * 1024,
      source: 'issue 39',
    }),
    figure('GraphiQL page on the wire, Brotli', graphiql.brotliBytes, 'bytes', {
      atMost: 2 * 1024 * 1024,
      source: 'issue 39',
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
    javascript: js,
    css,
    graphiql,
  },
);
