/**
 * The operator dashboard in headless Debian Chromium, on a goal of 500 agents and 5,000 todos
 * (each agent claiming one): a blocked agent's report until its directory row shows BLOCKED;
 * navigation to each page (navigation start → the page's content in the DOM, which includes
 * loading the bundle, its queries and the render); filtering and sorting the directory; and
 * the bytes on the wire (as the gateway sends them, Brotli and gzip) of its JavaScript and of
 * the GraphiQL page.
 *
 *   npm run bench:dashboard            (PGlite; DATABASE_URL=postgres://… for Postgres)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import {
  buildDashboard,
  CHROMIUM,
  launchChromium,
  openDashboard,
} from '../test/support/browser.ts';
import {
  benchGateway,
  figure,
  printReport,
  progress,
  seedGoal,
  setting,
  summary,
} from './support.ts';

const AGENTS = 500;
const TODOS = setting('TODOS', 5000, 1000);
const RUNS = setting('RUNS', 7, 2);
const BLOCKED_SAMPLES = setting('BLOCKED_SAMPLES', 40, 10);

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
const wire = async (ext: string) => ({
  bytes: await onTheWire(ext, 'identity'),
  brotliBytes: await onTheWire(ext, 'br'),
  gzipBytes: await onTheWire(ext, 'gzip'),
});
const js = await wire('.js');
const css = await wire('.css');
const graphiql = {
  bytes: await wireBytes(gateway.url, '/graphql', 'identity', 'text/html'),
  brotliBytes: await wireBytes(gateway.url, '/graphql', 'br', 'text/html'),
  gzipBytes: await wireBytes(gateway.url, '/graphql', 'gzip', 'text/html'),
};

progress('dashboard', `seeding ${AGENTS} agents and ${TODOS} todos`);
const goal = await seedGoal(gateway.gql, AGENTS);
await goal.report(goal.agentIds, 'WORKING');
// In batches of 20 (the gateway's alias limit), a few at a time.
const batches = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
const todoIds: string[] = new Array(TODOS);
for (const group of batches(batches([...Array(TODOS).keys()], 20), 5)) {
  await Promise.all(
    group.map(async (batch) => {
      const created = await gateway.gql(
        `mutation { ${batch
          .map(
            (n) =>
              `t${n}: createTodo(input: { goalId: "${goal.goalId}", title: "Todo number ${n}", taskClass: ADVANCEMENT_TASK, priority: ${n % 100} }) { ... on Todo { id } }`,
          )
          .join(' ')} }`,
      );
      for (const n of batch) todoIds[n] = created[`t${n}`].id;
    }),
  );
}
for (const batch of batches([...Array(AGENTS).keys()], 20)) {
  await gateway.gql(
    `mutation { ${batch
      .map(
        (i) =>
          `c${i}: claimTodo(input: { goalId: "${goal.goalId}", todoId: "${todoIds[i]}", agentId: "${goal.agentIds[i]}" }) { __typename }`,
      )
      .join(' ')} }`,
  );
}

/** A script that records (as window.renderedAt) when `selector` first matches. */
const whenShown = (selector: string) => `new MutationObserver((_, observer) => {
  if (!document.querySelector(${JSON.stringify(selector)})) return;
  window.renderedAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

/** Milliseconds from navigation start until `selector` is in the DOM, on a fresh page. */
async function navigation(browser: Browser, route: string, selector: string): Promise<number> {
  const page = await openDashboard(
    browser,
    gateway.url,
    gateway.adminToken,
    route,
    { width: 1440, height: 900 },
    whenShown(selector),
  );
  try {
    await page.waitForFunction(() => (window as any).renderedAt !== undefined, undefined, {
      timeout: 20_000,
    });
    return await page.evaluate(() => (window as any).renderedAt as number);
  } finally {
    await page.close();
  }
}

const g = goal.goalId;
// The todo the listing orders last (priority 0, created last): the todo page reads it all.
const ROUTES = {
  overview: [`/g/${g}`, '[data-testid="directory"] tbody tr:nth-child(100)'],
  agent: [`/g/${g}/agent/${goal.agentIds[7]}`, '[data-testid="agent-summary"] a[data-todo]'],
  work: [`/g/${g}/work`, '[data-testid="todo-graph"] [data-node]'],
  todo: [`/g/${g}/todo/${todoIds[TODOS - 100]}`, '[data-testid="transitions"] li'],
  credentials: [`/g/${g}/credentials`, '[data-testid="credentials"] tbody tr'],
} as const;

/** Milliseconds a change of the directory's view takes to be committed to the DOM. */
async function viewChange(page: Page, change: string, done: string): Promise<number> {
  return page.evaluate(`(async () => {
    const started = performance.now();
    ${change};
    while (!(${done})) await new Promise((resolve) => setTimeout(resolve, 0));
    return performance.now() - started;
  })()`);
}

const browser = await launchChromium();
const navigations: Record<string, number[]> = {};
const blocked: number[] = [];
const filters: number[] = [];
const sorts: number[] = [];
try {
  for (const [name, [route, selector]] of Object.entries(ROUTES)) {
    progress('dashboard', `navigation to the ${name} page`);
    navigations[name] = [];
    for (let run = 0; run < RUNS; run++)
      navigations[name].push(await navigation(browser, route, selector));
  }

  progress('dashboard', 'blocked reports');
  const page = await openDashboard(browser, gateway.url, gateway.adminToken, `/g/${g}`, {
    width: 1440,
    height: 900,
  });
  await page
    .getByTestId('link')
    .filter({ hasText: /^live$/ })
    .waitFor({ timeout: 20_000 });
  // Agents of the first page (sorted by id): their rows are in the DOM.
  for (let sample = 0; sample < BLOCKED_SAMPLES; sample++) {
    const agentId = goal.agentIds[(sample * 7) % 100] as string;
    const cell = (liveness: string) =>
      `tr[data-agent="${agentId}"] td[data-liveness="${liveness}"]`;
    await page.evaluate(`window.shownAt = new Promise((resolve, reject) => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector(${JSON.stringify(cell('BLOCKED'))})) return;
        observer.disconnect();
        resolve(Date.now());
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
      setTimeout(() => reject(new Error('${agentId} not shown BLOCKED within 20 s')), 20000);
    }); undefined`);
    const sent = Date.now();
    await goal.report([agentId], 'BLOCKED');
    const shown = (await page.evaluate('window.shownAt')) as number;
    blocked.push(shown - sent);
    await goal.report([agentId], 'WORKING');
    await page.locator(cell('WORKING')).waitFor({ timeout: 10_000 });
  }

  progress('dashboard', 'filter and sort');
  const rows = `document.querySelectorAll('[data-testid="directory"] tbody tr')`;
  for (let run = 0; run < RUNS; run++) {
    const needle = `agent-0${String(run % 5)}1`;
    filters.push(
      await viewChange(
        page,
        `const input = document.querySelector('input[name="agent-filter"]');
         input.value = ${JSON.stringify(needle)};
         input.dispatchEvent(new Event('input', { bubbles: true }))`,
        `${rows}.length === 10`,
      ),
    );
    await viewChange(
      page,
      `const input = document.querySelector('input[name="agent-filter"]');
       input.value = '';
       input.dispatchEvent(new Event('input', { bubbles: true }))`,
      `${rows}.length === 100`,
    );
    // The agent column toggles descending, then back: the first row changes each time.
    for (const first of ['agent-0499', 'agent-0000']) {
      sorts.push(
        await viewChange(
          page,
          `document.querySelector('[data-sort="agent"]').click()`,
          `${rows}[0]?.getAttribute('data-agent') === ${JSON.stringify(first)}`,
        ),
      );
    }
  }
  await page.close();
} finally {
  await browser.close();
  await gateway.stop();
}

const worstNavigation = Math.max(...Object.values(navigations).map((v) => summary(v).p50));
printReport(
  'dashboard',
  [
    figure(
      `blocked report → its row shows BLOCKED, ${AGENTS} agents, p99`,
      summary(blocked).p99,
      'ms',
      { atMost: 1000, source: 'issue 39' },
    ),
    figure('navigation to any page, slowest page’s median', worstNavigation, 'ms', {
      atMost: 1000,
      source: 'issue 39',
    }),
    figure('directory filter applied, p99', summary(filters).p99, 'ms', {
      atMost: 100,
      source: 'issue 39',
    }),
    figure('directory sort applied, p99', summary(sorts).p99, 'ms', {
      atMost: 100,
      source: 'issue 39',
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
    agents: AGENTS,
    todos: TODOS,
    blockedToShownMs: summary(blocked),
    navigationMs: Object.fromEntries(
      Object.entries(navigations).map(([name, values]) => [name, summary(values)]),
    ),
    filterMs: summary(filters),
    sortMs: summary(sorts),
    javascript: js,
    css,
    graphiql,
  },
);
