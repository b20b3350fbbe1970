/**
 * The directory for 1,000 agents with work and presence: SQL statements per read, and
 * throughput as a ratio to a raw node:http + postgres.js handler serving the same JSON
 * (bodies verified identical before timing), measured alternately in one run.
 *
 *   DATABASE_URL=postgres://… npm run bench:directory
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { benchGateway, machine, seedGoal } from './support.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('bench:directory compares against a raw postgres.js handler: set DATABASE_URL');
  process.exit(2);
}
const AGENTS = 1000;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.SECONDS ?? 5);

const { url: gatewayUrl, gql, stop } = await benchGateway();
const goal = await seedGoal(gql, AGENTS);
for (let i = 0; i < AGENTS; i += 500) await goal.report(goal.agentIds.slice(i, i + 500), 'WORKING');
for (const agentId of goal.agentIds.slice(0, AGENTS / 2)) {
  const created = await gql(
    `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ... on Todo { id } } }`,
    { input: { goalId: goal.goalId, title: `work of ${agentId}`, taskClass: 'ADVANCEMENT_TASK' } },
  );
  await gql(`mutation($input: TodoActionInput!) { claimTodo(input: $input) { __typename } }`, {
    input: { goalId: goal.goalId, todoId: created.createTodo.id, agentId },
  });
}

// Fresh rows have no planner statistics yet; autovacuum would gather them soon after in
// production. Without them Postgres picks the goal/status index over the open-claims one.
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin`analyze`;
await admin.end();

const raw = fork(fileURLToPath(new URL('./raw-directory-process.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const rawUrl = await new Promise<string>((resolve) =>
  raw.on('message', (message: { type: string; url: string }) => {
    if (message.type === 'ready') resolve(`${message.url}?goal=${goal.goalId}`);
  }),
);

const query = `query($g: ID!) { directory(goalId: $g, limit: 1000) { registeredAgentCount
  rows { agentId agentModel hostSurface work { todoId claimed lease }
    presence { provider providerSessionRef liveness basis stateChangeSeq } } } }`;
const gatewayRequest = () =>
  fetch(gatewayUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${(goal as { token: string }).token}`,
    },
    body: JSON.stringify({ query, variables: { g: goal.goalId } }),
  });
// The provider token cannot read: use a steward credential for the goal.
const steward = await gql(
  `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
  {
    input: { kind: 'STEWARD', goalIds: [goal.goalId] },
  },
);
(goal as { token: string }).token = steward.issueCredential.token;

const gatewayBody = await (await gatewayRequest()).text();
const rawResponse = await fetch(rawUrl);
const rawBody = await rawResponse.text();
if (gatewayBody !== rawBody) {
  console.error(
    'bodies differ: gateway vs raw\n',
    gatewayBody.slice(0, 400),
    '\n',
    rawBody.slice(0, 400),
  );
  process.exit(1);
}

async function load(request: () => Promise<Response>): Promise<number> {
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await (await request()).arrayBuffer();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const rounds: { gateway: number; raw: number }[] = [];
for (let i = 0; i < 3; i++) {
  rounds.push({ gateway: await load(gatewayRequest), raw: await load(() => fetch(rawUrl)) });
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const gatewayRps = median(rounds.map((r) => r.gateway));
const rawRps = median(rounds.map((r) => r.raw));

console.log(
  JSON.stringify(
    {
      benchmark: 'directory',
      machine: machine(),
      agents: AGENTS,
      bodyBytes: gatewayBody.length,
      bodiesIdentical: true,
      sqlStatementsPerRead: {
        service: Number(rawResponse.headers.get('x-statements')),
        note: 'the gateway adds one credential lookup per request',
      },
      connections: CONNECTIONS,
      secondsPerRound: SECONDS,
      rounds: rounds.map((r) => ({ gateway: Math.round(r.gateway), raw: Math.round(r.raw) })),
      medianRequestsPerSecond: { gateway: Math.round(gatewayRps), raw: Math.round(rawRps) },
      ratioToRaw: Math.round((gatewayRps / rawRps) * 100) / 100,
      target: { ratioToRaw: 0.5 },
    },
    null,
    2,
  ),
);
raw.send({ type: 'stop' });
await stop();
process.exit(0);
