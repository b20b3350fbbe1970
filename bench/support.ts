import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Config } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';

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

/** A gateway on port 0 over DATABASE_URL, or in-memory PGlite when it is unset. */
export async function benchGateway() {
  const adminToken = `bench-admin-${randomUUID()}`;
  const config: Config = {
    host: '127.0.0.1',
    port: 0,
    database: process.env.DATABASE_URL
      ? { driver: 'postgres', url: process.env.DATABASE_URL }
      : { driver: 'pglite', dataDir: null },
    dataDir: '/nonexistent-switchboard-bench',
    adminToken,
    exploration: false,
    maxBodyBytes: 10_000_000,
    staleClaimMs: 3_600_000,
    logLevel: 'silent',
  };
  const gateway = await startGateway(config, createLogger('silent'));
  const gql = async (
    query: string,
    variables: Record<string, unknown> = {},
    token = adminToken,
  ) => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return { gateway, adminToken, gql };
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
