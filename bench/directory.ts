/**
 * The directory of 1,000 agents with work and presence, served side by side in one run by
 * - the raw ceiling: node:http + postgres.js running the same service and JSON.stringify
 *   (bench/raw-directory-process.ts),
 * - the gateway with its response cache off (SWITCHBOARD_RESPONSE_CACHE=off): every read
 *   executed,
 * - the gateway as configured by default, read repeatedly while the goal does not change
 *   (what a response cache keyed by the goal's sequences may answer from memory),
 * - PostGraphile v5 over a view of the same rows (bench/postgraphile-process.ts).
 * Bodies are checked before timing: identical for the gateway, the same data for PostGraphile.
 * Each server gets CONNECTIONS concurrent clients for SECONDS, in turn, ROUNDS times; the
 * medians are printed as ratios to raw. SQL statements per read are counted too.
 *
 *   DATABASE_URL=postgres://… npm run bench:directory
 *
 * A second goal of PAGED_AGENTS (10 × AGENTS) agents, seeded alike, times the first page of
 * AGENTS rows there against the whole AGENTS-agent directory, one read at a time on the raw
 * handler: what a page costs as the goal grows (issue 40: ≤ 2 ×).
 *
 * Options (env): AGENTS (1000), PAGED_AGENTS (10 × AGENTS), SECONDS (5), ROUNDS (3).
 */
import { isDeepStrictEqual } from 'node:util';
import postgres from 'postgres';
import {
  benchGateway,
  benchProcess,
  figure,
  percentile,
  printReport,
  progress,
  seedGoal,
  setting,
  UNLIMITED_RATE,
} from './support.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('bench:directory compares against a raw postgres.js handler: set DATABASE_URL');
  process.exit(2);
}
const AGENTS = setting('AGENTS', 1000, 200);
const PAGED_AGENTS = setting('PAGED_AGENTS', 10 * AGENTS, 10 * AGENTS);
const CONNECTIONS = 10;
const SECONDS = setting('SECONDS', 5, 1);
const ROUNDS = setting('ROUNDS', 3, 1);

progress('directory', 'two gateways starting');
// One steward's reads as fast as they go.
const [uncached, cached] = await Promise.all([
  benchGateway({ env: { ...UNLIMITED_RATE, SWITCHBOARD_RESPONSE_CACHE: 'off' } }),
  benchGateway({ env: UNLIMITED_RATE }),
]);
const { gql } = uncached;
// Started now (the gateways have migrated the tables), ready by the time the rows are seeded.
const raw = benchProcess('./raw-directory-process.ts');
const postgraphile = benchProcess('./postgraphile-process.ts', {
  env: { GRAPHILE_ENV: 'production' },
});
const rawReady = raw.next<{ url: string }>('ready');
const postgraphileReady = postgraphile.next<{ url: string }>('ready');
/** A goal of `agents` agents, each with presence, half of them with a todo claimed. */
async function seedDirectory(agents: number) {
  progress('directory', `seeding ${agents} agents, presence and ${agents / 2} claims`);
  const goal = await seedGoal(gql, agents);
  for (let i = 0; i < agents; i += 500)
    await goal.report(goal.agentIds.slice(i, i + 500), 'WORKING');
  // Half the agents claim a todo of their own, 20 todos (then 20 claims) per request.
  const claimants = goal.agentIds.slice(0, agents / 2);
  for (let i = 0; i < claimants.length; i += 20) {
    const slice = claimants.slice(i, i + 20);
    const created = await gql(
      `mutation { ${slice
        .map(
          (agentId, j) =>
            `t${j}: createTodo(input: { goalId: "${goal.goalId}", title: "work of ${agentId}", taskClass: ADVANCEMENT_TASK }) { ... on Todo { id } }`,
        )
        .join(' ')} }`,
    );
    await gql(
      `mutation { ${slice
        .map(
          (agentId, j) =>
            `c${j}: claimTodo(input: { goalId: "${goal.goalId}", todoId: "${created[`t${j}`].id}", agentId: "${agentId}" }) { __typename }`,
        )
        .join(' ')} }`,
    );
  }
  return goal;
}
const goal = await seedDirectory(AGENTS);
const paged = await seedDirectory(PAGED_AGENTS);
// The provider token cannot read: a steward credential for the goal reads the directory.
const steward = await gql(
  `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
  { input: { kind: 'STEWARD', goalIds: [goal.goalId] } },
);
const token = steward.issueCredential.token as string;

// Fresh rows have no planner statistics yet; autovacuum would gather them soon after in
// production. Without them Postgres picks the goal/status index over the open-claims one.
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin`analyze`;
await admin.end();

const rawBase = (await rawReady).url;
const rawUrl = `${rawBase}?goal=${goal.goalId}&limit=${AGENTS}`;
const postgraphileUrl = (await postgraphileReady).url;

const query = `query($g: ID!) { directory(goalId: $g, limit: ${AGENTS}) { registeredAgentCount
  rows { agentId agentModel hostSurface work { todoId claimed lease }
    presence { provider providerSessionRef liveness basis stateChangeSeq } } } }`;
const postgraphileQuery = `query($g: String!) {
  allDirectoryRows(condition: { goalId: $g }, orderBy: AGENT_ID_ASC, first: ${AGENTS}) {
    totalCount
    nodes { agentId agentModel hostSurface todoId claimed lease
      provider providerSessionRef liveness basis stateChangeSeq } } }`;
const post = (to: string, body: object, headers: Record<string, string> = {}) =>
  fetch(to, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const servers: Record<string, () => Promise<Response>> = {
  raw: () => fetch(rawUrl),
  uncached: () =>
    post(
      uncached.url,
      { query, variables: { g: goal.goalId } },
      { authorization: `Bearer ${token}` },
    ),
  cached: () =>
    post(
      cached.url,
      { query, variables: { g: goal.goalId } },
      { authorization: `Bearer ${token}` },
    ),
  postgraphile: () =>
    post(postgraphileUrl, { query: postgraphileQuery, variables: { g: goal.goalId } }),
};

// ---- the same answer from every server, before any timing ------------------------------
const rawResponse = await servers.raw!();
const rawBody = await rawResponse.text();
for (const name of ['uncached', 'cached', 'cached'] as const) {
  const body = await (await servers[name]!()).text();
  if (body !== rawBody) {
    console.error(
      `bodies differ: ${name} gateway vs raw\n`,
      body.slice(0, 400),
      '\n',
      rawBody.slice(0, 400),
    );
    process.exit(1);
  }
}
const pgBody = (await (await servers.postgraphile!()).json()) as any;
if (pgBody.errors) throw new Error(JSON.stringify(pgBody.errors));
const connection = pgBody.data.allDirectoryRows;
// PostGraphile's flat rows in the gateway's shape.
const reshaped = {
  data: {
    directory: {
      registeredAgentCount: connection.totalCount,
      rows: connection.nodes.map((n: any) => ({
        agentId: n.agentId,
        agentModel: n.agentModel,
        hostSurface: n.hostSurface,
        work: { todoId: n.todoId, claimed: n.claimed, lease: n.lease },
        presence: n.provider && {
          provider: n.provider,
          providerSessionRef: n.providerSessionRef,
          liveness: n.liveness,
          basis: n.basis,
          stateChangeSeq: n.stateChangeSeq,
        },
      })),
    },
  },
};
if (!isDeepStrictEqual(reshaped, JSON.parse(rawBody))) {
  console.error(
    'PostGraphile and the raw handler disagree\n',
    JSON.stringify(reshaped).slice(0, 400),
  );
  process.exit(1);
}

// ---- throughput --------------------------------------------------------------------------
async function load(request: () => Promise<Response>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const response = await request();
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        done++;
      }
    }),
  );
  // Requests still in flight at the deadline complete and count: divide by the time they took.
  return done / ((performance.now() - started) / 1000);
}
const rounds: Record<string, number>[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  progress('directory', `round ${round} of ${ROUNDS}: ${Object.keys(servers).join(', ')}`);
  const result: Record<string, number> = {};
  for (const [name, request] of Object.entries(servers)) result[name] = await load(request);
  rounds.push(result);
}

// ---- a page of a larger goal: one read at a time, alternating, on the raw handler --------
async function readMs(goalId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${rawBase}?goal=${goalId}&limit=${AGENTS}`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return performance.now() - started;
}
progress('directory', `the first page of ${AGENTS} of ${PAGED_AGENTS} agents against ${AGENTS}`);
const pageMs: Record<'whole' | 'page', number[]> = { whole: [], page: [] };
for (let i = 0; i < 50; i++) {
  pageMs.whole.push(await readMs(goal.goalId));
  pageMs.page.push(await readMs(paged.goalId));
}
const p50 = (values: number[]) => percentile(values, 50);
const pageRatio = p50(pageMs.page) / p50(pageMs.whole);

const median = (name: string) => {
  const values = rounds.map((r) => r[name] as number).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] as number;
};
const rps = Object.fromEntries(Object.keys(servers).map((name) => [name, median(name)]));
const ratio = (name: string) => (rps[name] as number) / (rps.raw as number);

const uncachedNote =
  'the gateway started with SWITCHBOARD_RESPONSE_CACHE=off; without a response cache in the gateway both gateway figures execute every read';
printReport(
  'directory',
  [
    figure(
      `${AGENTS} agents: gateway ÷ raw, uncached`,
      ratio('uncached'),
      'ratio',
      { atLeast: 0.9, source: 'issue 17' },
      uncachedNote,
    ),
    figure(
      `${AGENTS} agents: gateway ÷ raw, repeated reads of an unchanged goal`,
      ratio('cached'),
      'ratio',
      {
        atLeast: 3,
        source: 'issue 17',
      },
    ),
    figure(`${AGENTS} agents: PostGraphile v5 ÷ raw`, ratio('postgraphile'), 'ratio'),
    figure('raw handler', rps.raw as number, 'req/s'),
    figure('gateway, uncached', rps.uncached as number, 'req/s'),
    figure('gateway, repeated reads of an unchanged goal', rps.cached as number, 'req/s'),
    figure('PostGraphile v5', rps.postgraphile as number, 'req/s'),
    figure(
      `${PAGED_AGENTS} agents, the first page of ${AGENTS} ÷ ${AGENTS} agents, raw, p50`,
      pageRatio,
      'ratio',
      { atMost: 2, source: 'issue 40' },
    ),
    figure(`${AGENTS} agents, raw, one read at a time, p50`, p50(pageMs.whole), 'ms'),
    figure(
      `${PAGED_AGENTS} agents, first page, raw, one read at a time, p50`,
      p50(pageMs.page),
      'ms',
    ),
    figure(
      'SQL statements per read (service)',
      Number(rawResponse.headers.get('x-statements')),
      'statements',
    ),
  ],
  {
    agents: AGENTS,
    bodyBytes: rawBody.length,
    bodiesChecked: 'gateway (both) identical to raw; PostGraphile the same data in its own shape',
    postgraphile: '5.0.0-rc.3, amber preset, a view in schema bench_postgraphile',
    connections: CONNECTIONS,
    secondsPerRound: SECONDS,
    rounds: rounds.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)])),
    ),
    medianRequestsPerSecond: Object.fromEntries(
      Object.entries(rps).map(([k, v]) => [k, Math.round(v)]),
    ),
  },
);
await Promise.all([raw.stop(), postgraphile.stop(), uncached.stop(), cached.stop()]);
process.exit(0);
