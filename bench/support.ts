import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** What a benchmark ran on, printed with its figures. */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    driver: process.env.DATABASE_URL ? 'postgres' : 'pglite',
  };
}

/**
 * A gateway on port 0 over DATABASE_URL (or in-memory PGlite), in a child process so the
 * benchmark's clients do not compete with it for its event loop.
 */
export async function benchGateway() {
  const child = fork(fileURLToPath(new URL('./gateway-process.ts', import.meta.url)), {
    // The same young-generation size as `npm start`.
    execArgv: [
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: string) =>
    new Promise<any>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`gateway process exited (${code})`)));
    });
  const { url, adminToken } = (await next('ready')) as { url: string; adminToken: string };
  const gql = async (
    query: string,
    variables: Record<string, unknown> = {},
    token = adminToken,
  ) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return {
    url,
    wsUrl: url.replace('http', 'ws'),
    adminToken,
    gql,
    /** The gateway process's heap after two full GCs. */
    async heapUsed(): Promise<number> {
      const reply = next('heap');
      child.send({ type: 'heap' });
      return ((await reply) as { heapUsed: number }).heapUsed;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? Number.NaN) * 100) / 100;
}

export const summary = (values: number[]) => ({
  n: values.length,
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: percentile(values, 100),
});

/** Creates a goal with `count` agents (agent-0000 …) and a registered provider; returns its token. */
export async function seedGoal(
  gql: Awaited<ReturnType<typeof benchGateway>>['gql'],
  count: number,
  provider: { supportsPinnedWaits: boolean } = { supportsPinnedWaits: true },
) {
  const goalId = `bench-${randomUUID().slice(0, 8)}`;
  await gql(
    `mutation($g: ID!) { createGoal(input: { goalId: $g, title: "bench" }) { __typename } }`,
    { g: goalId },
  );
  const agentIds = Array.from({ length: count }, (_, i) => `agent-${String(i).padStart(4, '0')}`);
  for (let i = 0; i < agentIds.length; i += 20) {
    const slice = agentIds.slice(i, i + 20);
    const mutation = `mutation { ${slice
      .map(
        (id, j) =>
          `a${j}: registerAgent(input: { goalId: "${goalId}", agentId: "${id}", agentModel: "m", hostSurface: "cli" }) { __typename }`,
      )
      .join(' ')} }`;
    await gql(mutation);
  }
  const providerId = `prov-${randomUUID().slice(0, 8)}`;
  const issued = await gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'PROVIDER', providerId, goalIds: [goalId] } },
  );
  const token = issued.issueCredential.token as string;
  await gql(
    `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { providerId } }`,
    {
      input: {
        providerId,
        instanceId: 'bench',
        membershipProof: 'bench',
        identifierRules: 'bench',
        livenessMapping: [],
        presenceTtlMs: 3_600_000,
        observationSources: [],
        supportsPinnedWaits: provider.supportsPinnedWaits,
        persistence: 'none',
      },
    },
    token,
  );
  let reportSeq = 0;
  const report = (agents: string[], liveness: string) =>
    gql(
      `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename } }`,
      {
        r: agents.map((agentId) => ({
          goalId,
          agentId,
          providerSessionRef: `loc-${agentId}`,
          occupantRef: `occ-${agentId}`,
          liveness,
          observedAt: new Date().toISOString(),
          basis: 'PROVIDER_DETECTION',
          reportSeq: String(++reportSeq),
        })),
      },
      token,
    );
  return { goalId, agentIds, providerId, token, report };
}
