/**
 * One scenario's outcome, a goal staged for a fault, and its settling: a last change through a
 * healthy instance that every follower must reach, then every count taken.
 */
import { seedGoal, type summary, until } from '../support.ts';
import { report } from './clients.ts';
import { type Gateway, type Goal, RECOVERY_DEADLINE_MS, type ScenarioName } from './settings.ts';
import { countStream, countWrites, type Follower, referenceStream } from './streams.ts';

export interface Outcome {
  readonly name: ScenarioName;
  readonly runs: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly wrong: number;
  readonly revokedStillOpen: number;
  readonly resumeMs: ReturnType<typeof summary> | null;
  readonly details: Record<string, unknown>;
  /** Another client's latency beside the abuse (the limits scenarios). */
  readonly latency?: Latency;
}

export interface Latency {
  readonly idleMs: ReturnType<typeof summary>;
  readonly duringMs: ReturnType<typeof summary>;
  /** p99 beside the abuse over p99 idle. */
  readonly ratio: number;
  /** The other client's requests that failed (any error, a refusal included). */
  readonly failed: number;
  /** The same client beside the same abuse on a bare server that refuses it (the floor). */
  readonly floor: Pick<Latency, 'idleMs' | 'duringMs' | 'ratio'>;
  /** ratio ÷ the floor's ratio: the gateway's own share of the other client's delay. */
  readonly overFloor: number;
}

/** A goal with `writers`+`waits` agents at WORKING, its streams and waits, ready for a fault. */
export async function stage(gateway: Gateway, agents: number, waits: number) {
  const goal = await seedGoal(gateway.gql, agents + waits + 1);
  for (const agentId of goal.agentIds) await report(goal, agentId, 'WORKING', () => gateway);
  // Each instance has its own operator token; a credential is good on every instance.
  const issued = await gateway.gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'STEWARD', goalIds: [goal.goalId] } },
  );
  return { ...goal, steward: issued.issueCredential.token as string };
}

export async function settle(
  goal: Goal,
  followers: { follower: Follower; start: number }[],
  via: Gateway,
  acked: Map<string, string[]>,
) {
  // A last change through a healthy instance: every follower must reach it.
  const marker = goal.agentIds.at(-1) as string;
  await report(goal, marker, 'IDLE', () => via);
  const reference = await referenceStream(
    via,
    goal.goalId,
    (c) => c.agentId === marker && c.liveness === 'IDLE',
  );
  const last = reference.at(-1)?.seq ?? 0;
  await until(
    () => followers.every(({ follower }) => follower.last >= last),
    'every follower to reach the head',
    RECOVERY_DEADLINE_MS,
  ).catch(() => {});
  const counts = { lost: 0, duplicated: 0, wrong: 0 };
  for (const { follower, start } of followers) {
    const c = countStream(follower, start, reference);
    counts.lost += c.lost;
    counts.duplicated += c.duplicated;
    counts.wrong += c.wrong;
    await follower.stop();
  }
  const w = countWrites(acked, reference);
  return {
    lost: counts.lost + w.lost,
    duplicated: counts.duplicated,
    wrong: counts.wrong + w.wrong,
    events: reference.length,
  };
}
