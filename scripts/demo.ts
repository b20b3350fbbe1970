/**
 * `npm run demo`: a gateway with a seeded demo goal and a simulated presence provider that
 * moves agents through liveness states, so the directory and the presence subscription are
 * live in GraphiQL within a minute. The simulator is an ordinary client: it uses only the
 * public GraphQL API, with a PROVIDER credential, like any provider would.
 *
 * Runs on in-memory PGlite unless DATABASE_URL or SWITCHBOARD_DATA_DIR says otherwise.
 */
import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../src/config.ts';
import { type Gateway, startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';

const env: NodeJS.ProcessEnv = {
  SWITCHBOARD_DATA_DIR: 'memory:',
  LOG_LEVEL: 'warn',
  ...process.env,
};
const adminToken = env.SWITCHBOARD_ADMIN_TOKEN ?? `demo-admin-${randomUUID()}`;
let gateway: Gateway;
try {
  const config = { ...loadConfig(env), adminToken };
  gateway = await startGateway(config, createLogger(config.logLevel));
} catch (error) {
  // A port in use (`npm start` is running), a bad variable: one line, as `npm start` says it.
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`switchboard demo: ${error.message}\n`);
  process.exit(1);
}

async function gql(query: string, variables: Record<string, unknown> = {}, token = adminToken) {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: { message: string }[] };
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

const goalId = 'demo';
const agents = ['planner', 'builder', 'reviewer', 'tester'];
const issue = async (input: Record<string, unknown>) =>
  (
    await gql(
      `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
      { input },
    )
  ).issueCredential.token as string;

await gql(
  `mutation { createGoal(input: { goalId: "${goalId}", title: "Ship the bilingual homepage" }) { __typename } }`,
);
for (const agentId of agents) {
  await gql(
    `mutation($input: RegisterAgentInput!) { registerAgent(input: $input) { __typename } }`,
    { input: { goalId, agentId, agentModel: 'demo-model', hostSurface: 'demo-terminal' } },
  );
}
const todo = async (input: Record<string, unknown>) =>
  (
    await gql(
      `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ... on Todo { id } } }`,
      {
        input: { goalId, taskClass: 'ADVANCEMENT_TASK', ...input },
      },
    )
  ).createTodo.id as string;
const claim = (todoId: string, agentId: string) =>
  gql(`mutation($input: TodoActionInput!) { claimTodo(input: $input) { __typename } }`, {
    input: { goalId, todoId, agentId },
  });
await claim(await todo({ title: 'Draft the page structure', priority: 3 }), 'planner');
await claim(await todo({ title: 'Build the French variant', priority: 2 }), 'builder');
await claim(
  await todo({
    title: 'Announce the bilingual homepage',
    requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
  }),
  'reviewer',
);
await todo({ title: 'Approve the translation vendor', taskClass: 'USER_ACTION' });
await gql(`mutation($input: OpenGateInput!) { openGate(input: $input) { __typename } }`, {
  input: {
    goalId,
    kind: 'PUBLIC_CLAIM',
    granularity: 'ACTION',
    scopeKey: 'bilingual_homepage',
    reason: 'May we announce the homepage publicly?',
  },
});

const providerId = 'demo-terminal-space';
const providerToken = await issue({
  kind: 'PROVIDER',
  providerId,
  goalIds: [goalId],
  label: 'demo provider',
});
await gql(
  `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { providerId } }`,
  {
    input: {
      providerId,
      instanceId: `demo-${randomUUID().slice(0, 8)}`,
      membershipProof: 'the demo simulator runs every pane itself',
      identifierRules: 'pane ids p1..p4, never reused',
      livenessMapping: [
        { providerState: 'busy', liveness: 'WORKING' },
        { providerState: 'asking', liveness: 'BLOCKED' },
        { providerState: 'ready', liveness: 'IDLE' },
        { providerState: 'finished', liveness: 'DONE' },
      ],
      presenceTtlMs: 30_000,
      observationSources: [{ source: 'RECENT', maxLines: 20, limits: [] }],
      supportsPinnedWaits: true,
      persistence: 'nothing survives the demo process',
    },
  },
  providerToken,
);
const stewardToken = await issue({ kind: 'STEWARD', goalIds: [goalId], label: 'demo steward' });
const peerToken = await issue({ kind: 'PEER', goalId, agentId: 'builder', label: 'demo builder' });

const states = ['WORKING', 'WORKING', 'IDLE', 'BLOCKED', 'DONE'] as const;
let reportSeq = 0;
async function tick() {
  const reports = agents
    .filter(() => Math.random() < 0.5)
    .map((agentId) => ({
      goalId,
      agentId,
      providerSessionRef: `p${agents.indexOf(agentId) + 1}`,
      occupantRef: `pane-${agents.indexOf(agentId) + 1}/${agentId}`,
      liveness: states[Math.floor(Math.random() * states.length)],
      observedAt: new Date().toISOString(),
      basis: 'PROVIDER_DETECTION',
      reportSeq: String(++reportSeq),
    }));
  if (reports.length === 0) return;
  await gql(
    `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename } }`,
    { r: reports },
    providerToken,
  );
}
await tick();
const timer = setInterval(
  () => void tick().catch((error) => console.error(`demo provider: ${error}`)),
  2000,
);

console.log(`
Switchboard demo is running: ${gateway.url}

Open it in a browser (GraphiQL) and paste into Headers, as the goal's steward:
  {"Authorization": "Bearer ${stewardToken}"}

Then try:
  { directory(goalId: "${goalId}") { limitations rows { agentId work { todoId claimed } presence { liveness observedAt } } rollup { reason agentId todoId } } }
  subscription { presenceChanged(goalId: "${goalId}") { agentId seq previousLiveness presence { liveness } } }

As the agent "builder" (a PEER: its own inbox, deliveries as itself):
  {"Authorization": "Bearer ${peerToken}"}
  { me { kind agentId goalIds } }

A simulated provider changes agents' liveness every 2 seconds. Admin token: ${adminToken}
Ctrl-C stops it.
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(timer);
    void gateway.stop().then(() => process.exit(0));
  });
}
