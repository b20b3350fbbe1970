/**
 * The fault suite's settings: its own cluster's address, the sizes each scenario runs at
 * (full, or small under `BENCH_QUICK=1`, each overridable by its environment variable), the
 * scenarios in the order run, and the small helpers every part of the suite shares.
 */
import { type benchGateway, progress, type seedGoal, setting } from '../support.ts';

export const CLUSTER = ['15', 'sbfaults'] as const;
export const PORT = 5499;
export const DATABASE = 'switchboard_faults';
export const SERVER_URL = `postgres://postgres@127.0.0.1:${PORT}/postgres`;
export const DATABASE_URL = `postgres://postgres@127.0.0.1:${PORT}/${DATABASE}`;

export const RUNS = setting('RUNS', 15, 2);
export const BURST_MS = setting('BURST_MS', 2500, 1000);
export const KILL_EVERY_MS = setting('KILL_EVERY_MS', 5, 5);
export const RESTARTS = setting('RESTARTS', 3, 1);
export const OUTAGE_MS = setting('OUTAGE_MS', 3000, 1000);
export const WRITERS = setting('WRITERS', 8, 8);
export const WRITE_MS = setting('WRITE_MS', 5000, 1500);
export const FOLLOWERS = setting('FOLLOWERS', 4, 2);
export const WAITS = setting('WAITS', 4, 2);
export const SUBSCRIPTIONS = setting('SUBSCRIPTIONS', 30_000, 3_000);
export const LARGE_QUERIES = setting('LARGE_QUERIES', 24, 24);
export const LARGE_MESSAGES = setting('LARGE_MESSAGES', 200, 20);
export const ABUSE_MS = setting('ABUSE_MS', 3000, 1000);
export const IDLE_MS = setting('IDLE_MS', 3000, 1500);
export const FLOODERS = setting('FLOODERS', 16, 8);
/** The bare floor server's tokens (bench/bare-refusal-process.ts): the other client's, the abuser's. */
export const BARE_PROBE_TOKEN = 'probe';
export const BARE_ABUSER_TOKEN = 'abuser';
/** How long after a revocation commits its streams may stay open (issue 11: a few seconds). */
export const REVOKE_DEADLINE_MS = setting('REVOKE_DEADLINE_MS', 10_000, 10_000);
/** The longest any single recovery may take before the suite calls it lost. */
export const RECOVERY_DEADLINE_MS = 30_000;

/** In the order run: kill-9 ends an instance, so it is last. */
export const SCENARIOS = [
  'listen-kill',
  'restart',
  'outage',
  'writers',
  'subscriptions',
  'large-answers',
  'wrong-tokens',
  'nats-restart',
  'nats-outage',
  'nats-cut',
  'kill-9',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export type Gateway = Awaited<ReturnType<typeof benchGateway>>;
export type Goal = Awaited<ReturnType<typeof seedGoal>> & { steward?: string };
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const say = (message: string) => progress('faults', message);
