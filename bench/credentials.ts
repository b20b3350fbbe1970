/**
 * The per-request cost of resolving a credential, without and with the per-instance cache
 * (registry/credentials.ts), in one run:
 *
 * - `resolve`: µs per `CredentialCache.resolve` of a PEER token, sequentially — "uncached" is a
 *   cache with TTL 0 (sha256 + one query each time, as every request paid before the cache),
 *   "cached" the gateway's default (sha256 + a map lookup).
 * - `http`: requests/s of `{ __typename }` with that token through a real gateway on port 0
 *   (10 concurrent clients, in this process), one gateway of each kind on the same database.
 *
 * Variants alternate (A B A B …) and each figure is the median of the rounds.
 *
 *   npm run bench:credentials                          # PGlite in memory
 *   DATABASE_URL=postgres://… npm run bench:credentials
 */
import os from 'node:os';
import { openDatabase } from '../src/db/database.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';
import { CredentialCache, type CredentialCacheOptions } from '../src/registry/credentials.ts';
import { createGoal, issueCredential, registerAgent } from '../src/registry/registry.ts';
import { hashToken } from '../src/registry/tokens.ts';
import { machine } from './support.ts';

const ROUNDS = 5;
const RESOLVES = 2_000;
const HTTP_MS = 2_000;
const CONCURRENCY = 10;
/** Use-recording off in both variants: the figure is the lookup, not the once-a-minute write. */
const NO_LAST_USED = { lastUsedIntervalMs: Number.MAX_SAFE_INTEGER };
const variants: Record<string, CredentialCacheOptions> = {
  uncached: { ttlMs: 0, ...NO_LAST_USED },
  cached: { ...NO_LAST_USED },
};

const database = await openDatabase(
  process.env.DATABASE_URL
    ? { driver: 'postgres', url: process.env.DATABASE_URL }
    : { driver: 'pglite', dataDir: null },
);
const admin = { kind: 'ADMIN', credentialId: null } as const;
const goalId = `bench-${Date.now()}`;
await createGoal(database.db, { goalId, title: 'credential bench' });
await registerAgent(database.db, admin, {
  goalId,
  agentId: 'agent',
  agentModel: 'm',
  hostSurface: 'cli',
});
const { token } = await issueCredential(database.db, { kind: 'PEER', goalId, agentId: 'agent' });
const authorization = `Bearer ${token}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function resolveRound(options: CredentialCacheOptions): Promise<number> {
  const cache = new CredentialCache(database.db, hashToken('operator'), null, options);
  await cache.resolve(authorization);
  const started = performance.now();
  for (let i = 0; i < RESOLVES; i++) await cache.resolve(authorization);
  const us = ((performance.now() - started) * 1000) / RESOLVES;
  cache.close();
  return us;
}

async function httpRound(options: CredentialCacheOptions): Promise<number> {
  const config = {
    host: '127.0.0.1',
    port: 0,
    database: { driver: 'pglite', dataDir: null } as const,
    dataDir: '/nonexistent-switchboard-bench',
    adminToken: `bench-admin-${'x'.repeat(24)}`,
    exploration: false,
    maxBodyBytes: 1_000_000,
    staleClaimMs: 3_600_000,
    logLevel: 'silent' as const,
    doorbellProbeMs: 1000,
    metrics: { serve: 'off' } as const,
    // One credential's requests as fast as they go: no rate limit per credential.
    limits: { requestsPerSecond: 0 },
    corsOrigins: [],
    drainMs: 0,
  };
  const gateway = await startGateway(config, createLogger('silent'), {
    database,
    credentials: options,
  });
  const request = () =>
    fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: '{"query":"{ __typename }"}',
    }).then(async (response) => {
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      await response.arrayBuffer();
    });
  await request();
  let done = 0;
  const until = performance.now() + HTTP_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await request();
        done++;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  await gateway.stop();
  return perSecond;
}

const resolveUs: Record<string, number[]> = { uncached: [], cached: [] };
const httpPerSecond: Record<string, number[]> = { uncached: [], cached: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, options] of Object.entries(variants)) {
    resolveUs[name]?.push(await resolveRound(options));
    httpPerSecond[name]?.push(await httpRound(options));
  }
}
await database.close();

const resolve = {
  uncachedUsMedian: Math.round(median(resolveUs.uncached ?? [])),
  cachedUsMedian: Math.round(median(resolveUs.cached ?? []) * 10) / 10,
};
const http = {
  uncachedPerSecondMedian: Math.round(median(httpPerSecond.uncached ?? [])),
  cachedPerSecondMedian: Math.round(median(httpPerSecond.cached ?? [])),
};
console.log(
  JSON.stringify(
    {
      benchmark: 'credentials',
      machine: machine(),
      loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
      rounds: ROUNDS,
      resolve: {
        ...resolve,
        resolvesPerRound: RESOLVES,
        speedup: Math.round((resolve.uncachedUsMedian / resolve.cachedUsMedian) * 10) / 10,
      },
      http: {
        ...http,
        concurrency: CONCURRENCY,
        msPerRound: HTTP_MS,
        ratio: Math.round((http.cachedPerSecondMedian / http.uncachedPerSecondMedian) * 100) / 100,
      },
    },
    null,
    2,
  ),
);
