import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CloseNoFollowUpDocument,
  CompleteTodoDocument,
  CreateTodoDocument,
  EvidenceLedgerDocument,
  OpenGateDocument,
  RecordEventDocument,
  ResolveGateDocument,
  SetVisionDocument,
  SupersedeTodoDocument,
} from '../../src/client/generated/graphql.ts';
import { rowsOf } from '../../src/db/sql.ts';
import { database, t } from '../support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  driver,
  registerAgent,
  startTestGateway,
  uid,
} from '../support/harness.ts';
import { type Peer, team } from '../support/team.ts';

const REASON = `kind detail todoId taskClass todoStatus gateId agentId obligations`;
const CLOSURE = `query($goalId: ID!) {
  goalClosure(goalId: $goalId) {
    __typename
    ... on GoalClosure {
      goalId closable acceptanceEvidenceCount
      reasons { ${REASON} }
      closure { reason acceptanceRefs closedBy { kind agentId } ledgerSeq }
    }
    ... on ScopeGap { reason }
  }
}`;
const CLOSE = `mutation($input: CloseGoalInput!) {
  closeGoal(input: $input) {
    __typename
    ... on GoalClosed { closure { goalId reason acceptanceRefs closedBy { kind } ledgerSeq workSeq } }
    ... on GoalClosureRefused { reasons { ${REASON} } }
    ... on ScopeGap { reason }
  }
}`;
const CHECKPOINT = `mutation($goalId: ID!, $agentId: ID!, $digest: String!) {
  recordReplanCheckpoint(goalId: $goalId, agentId: $agentId, digest: $digest, kind: PRESERVED,
    delta: { summary: "direction stands" }) { __typename }
}`;

async function todo(token: string, goalId: string, input: Record<string, unknown> = {}) {
  const data = await t.ok(
    CreateTodoDocument,
    { input: { goalId, title: uid('todo'), taskClass: 'ADVANCEMENT_TASK', ...input } },
    token,
  );
  return data.createTodo.id as string;
}

async function closure(token: string, goalId: string) {
  return (await t.ok(CLOSURE, { goalId }, token)).goalClosure;
}

const kinds = (c: { reasons: { kind: string }[] }) => c.reasons.map((r) => r.kind);

async function accept(steward: string, goalId: string) {
  await t.ok(
    RecordEventDocument,
    {
      input: {
        goalId,
        eventKind: 'VALIDATION',
        summary: 'acceptance suite passed',
        evidenceRefs: ['ci/acceptance.txt'],
        goalChange: 'ACCEPTANCE',
      },
    },
    steward,
  );
}

async function checkpoint(peer: Peer, goalId: string) {
  const { digest } = (
    await t.ok(EvidenceLedgerDocument, { goalId, agentId: peer.agentId }, peer.token)
  ).evidenceLedger;
  const data = await t.ok(CHECKPOINT, { goalId, agentId: peer.agentId, digest }, peer.token);
  expect(data.recordReplanCheckpoint.__typename).toBe('ReplanCheckpoint');
}

async function counts(goalId: string) {
  const [row] = rowsOf<Record<string, string>>(
    await database.db.execute(sql`select
      (select count(*) from goal_closures where goal_id = ${goalId})::text as closures,
      (select count(*) from ledger_events where goal_id = ${goalId})::text as ledger,
      (select coalesce(max(seq), 0) from stream_heads
        where goal_id = ${goalId} and stream = 'work')::text as seq`),
  );
  return row;
}

const closeInput = (goalId: string) => ({
  goalId,
  acceptanceRefs: ['ci/acceptance.txt'],
  reason: 'shipped: acceptance suite green on both drivers',
});

describe(`goal closure (${driver})`, () => {
  it('lists every reason a goal stays open, and closeGoal refuses with them, writing nothing', async () => {
    const { goalId, a, b, steward } = await team(t);
    const gate = await t.ok(
      OpenGateDocument,
      {
        input: {
          goalId,
          kind: 'PUBLIC_CLAIM',
          granularity: 'GOAL',
          scopeKey: 'launch',
          reason: 'announce?',
        },
      },
      steward,
    );
    const monitor = await todo(a.token, goalId, { taskClass: 'CONTINUOUS_MONITOR' });
    const work = await todo(a.token, goalId);
    const action = await todo(a.token, goalId, { taskClass: 'USER_ACTION' });
    const first = await todo(a.token, goalId);
    const done = await t.ok(
      CompleteTodoDocument,
      {
        input: {
          goalId,
          todoId: first,
          evidenceRefs: ['ci/first.txt'],
          successor: { title: 'follow-up', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    const successor = done.completeTodo.successor.id;
    const old = await todo(a.token, goalId);
    const superseded = await t.ok(
      SupersedeTodoDocument,
      {
        input: {
          goalId,
          todoId: old,
          reason: 'split differently',
          replacement: { title: 'the new plan', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    const replacement = superseded.supersedeTodo.replacement.id;
    // A todo closed without follow-up before the reason was required (no update path sets one).
    const legacy = await todo(a.token, goalId);
    await t.ok(
      CloseNoFollowUpDocument,
      { input: { goalId, todoId: legacy, reason: 'obsolete' } },
      a.token,
    );
    await database.db.execute(
      sql`update todos set no_follow_up_reason = null where id = ${legacy}`,
    );
    await t.ok(
      SetVisionDocument,
      {
        input: {
          goalId,
          roleScope: 'src',
          visionSummary: 'v',
          acceptanceSummary: 'a',
          replanTriggerSummary: 'r',
        },
      },
      a.token,
    );

    const assessed = await closure(steward, goalId);
    expect(assessed).toMatchObject({ closable: false, closure: null, acceptanceEvidenceCount: 0 });
    expect(kinds(assessed)).toEqual([
      'UNRESOLVED_GATE',
      'MONITOR_DUE',
      'LIVE_ADVANCEMENT_TODO',
      'LIVE_TODO',
      'PENDING_CONTINUATION',
      'PENDING_CONTINUATION',
      'REPLAN_OWED', // a: its vision was never checkpointed, and its own work
      'REPLAN_OWED', // b: the goal-wide gate is in every ledger
      'CLOSED_WITHOUT_REASON',
      'NO_ACCEPTANCE_EVIDENCE',
    ]);
    const by = (kind: string) => assessed.reasons.filter((r: any) => r.kind === kind);
    expect(by('UNRESOLVED_GATE')[0].gateId).toBe(gate.openGate.id);
    expect(by('MONITOR_DUE')[0]).toMatchObject({ todoId: monitor, todoStatus: 'OPEN' });
    expect(by('LIVE_ADVANCEMENT_TODO')[0].todoId).toBe(work);
    expect(by('LIVE_TODO')[0]).toMatchObject({ todoId: action, taskClass: 'USER_ACTION' });
    expect(by('PENDING_CONTINUATION').map((r: any) => r.todoId)).toEqual([successor, replacement]);
    // Agents in id order (a-… before b-…).
    expect(by('REPLAN_OWED')).toEqual([
      expect.objectContaining({
        agentId: a.agentId,
        obligations: ['VISION_CHECKPOINT_MISSING', 'MATERIAL_SINCE_CHECKPOINT'],
      }),
      expect.objectContaining({ agentId: b.agentId, obligations: ['MATERIAL_SINCE_CHECKPOINT'] }),
    ]);
    expect(by('CLOSED_WITHOUT_REASON')[0].todoId).toBe(legacy);

    const before = await counts(goalId);
    const refused = await t.ok(CLOSE, { input: closeInput(goalId) }, steward);
    expect(refused.closeGoal.__typename).toBe('GoalClosureRefused');
    expect(refused.closeGoal.reasons).toEqual(assessed.reasons);
    expect(await counts(goalId)).toEqual(before);
    // Each reason is its own: deciding the gate removes that one and no other.
    await t.ok(
      ResolveGateDocument,
      { input: { goalId, gateId: gate.openGate.id, decision: 'DENIED' } },
      steward,
    );
    expect(kinds(await closure(steward, goalId))).toEqual(kinds(assessed).slice(1));
  });

  it('a goal with one open monitor cannot be closed; completing every todo closes nothing until closeGoal', async () => {
    const { goalId, a, b, steward } = await team(t);
    const work = await todo(a.token, goalId);
    const monitor = await todo(a.token, goalId, { taskClass: 'CONTINUOUS_MONITOR' });
    await t.ok(
      CompleteTodoDocument,
      { input: { goalId, todoId: work, evidenceRefs: ['ci/w.txt'] } },
      a.token,
    );
    await accept(steward, goalId);
    await checkpoint(a, goalId);
    await checkpoint(b, goalId);
    const oneMonitor = await closure(a.token, goalId);
    expect(oneMonitor).toMatchObject({ closable: false, acceptanceEvidenceCount: 1 });
    expect(kinds(oneMonitor)).toEqual(['MONITOR_DUE']);
    expect((await t.ok(CLOSE, { input: closeInput(goalId) }, steward)).closeGoal).toMatchObject({
      __typename: 'GoalClosureRefused',
      reasons: [{ kind: 'MONITOR_DUE', todoId: monitor }],
    });

    // Ending the monitor is material for the agent whose ledger holds it: it owes a replan again.
    await t.ok(
      CloseNoFollowUpDocument,
      { input: { goalId, todoId: monitor, reason: 'monitoring ends with the launch' } },
      a.token,
    );
    const afterMonitor = await closure(a.token, goalId);
    expect(afterMonitor.reasons).toEqual([
      expect.objectContaining({ kind: 'REPLAN_OWED', agentId: a.agentId }),
    ]);
    await checkpoint(a, goalId);
    // Every todo is finished and nothing holds it open: still not closed by itself.
    const ready = await closure(a.token, goalId);
    expect(ready).toMatchObject({ closable: true, reasons: [], closure: null });

    const before = await counts(goalId);
    const closed = await t.ok(CLOSE, { input: closeInput(goalId) }, steward);
    expect(closed.closeGoal).toMatchObject({
      __typename: 'GoalClosed',
      closure: {
        goalId,
        acceptanceRefs: ['ci/acceptance.txt'],
        closedBy: { kind: 'STEWARD' },
      },
    });
    const after = await counts(goalId);
    expect(Number(after?.closures)).toBe(1);
    expect(Number(after?.ledger)).toBe(Number(before?.ledger) + 1);
    expect(Number(after?.seq)).toBe(Number(before?.seq) + 1);
    // The closure is a goal-level row every agent's ledger shows.
    const ledger = await t.ok(EvidenceLedgerDocument, { goalId, agentId: b.agentId }, b.token);
    expect(ledger.evidenceLedger.events.at(-1)).toMatchObject({
      eventKind: 'GOAL_CLOSED',
      goalChange: 'ACCEPTANCE',
      relevance: 'GOAL_LEVEL',
      evidenceRefs: ['ci/acceptance.txt'],
      summary: expect.stringContaining('shipped'),
    });
    const again = await closure(a.token, goalId);
    expect(again.closable).toBe(false);
    expect(kinds(again)).toContain('ALREADY_CLOSED');
    expect(again.closure).toMatchObject({ reason: closeInput(goalId).reason });
    const twice = await t.ok(CLOSE, { input: closeInput(goalId) }, steward);
    expect(twice.closeGoal.__typename).toBe('GoalClosureRefused');
    expect(Number((await counts(goalId))?.closures)).toBe(1);
  });

  it('is for an ADMIN or STEWARD, validates in full, and answers a scope gap outside scope', async () => {
    const { goalId, a, steward } = await team(t);
    const before = await counts(goalId);
    const forbidden = await t.gql(CLOSE, { input: closeInput(goalId) }, a.token);
    expect(forbidden.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const bad = async (input: Record<string, unknown>, message: string) => {
      const result = await t.gql(CLOSE, { input: { ...closeInput(goalId), ...input } }, steward);
      expect(result.errors?.[0]?.message, JSON.stringify(input)).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    };
    await bad({ acceptanceRefs: [] }, 'at least one');
    await bad({ acceptanceRefs: ['/home/alice/report.txt'] }, 'acceptanceRefs');
    await bad({ reason: '  ' }, 'reason must not be empty');
    expect(await counts(goalId)).toEqual(before);
    const other = await createGoal(t);
    expect((await t.ok(CLOSE, { input: closeInput(other) }, steward)).closeGoal).toEqual({
      __typename: 'ScopeGap',
      reason: expect.any(String),
    });
    expect((await closure(steward, other)).__typename).toBe('ScopeGap');
  });

  it('assesses in a constant number of SQL statements, however many todos and agents', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database);
    try {
      const measure = async (size: number) => {
        const { goalId, a, steward } = await team(t);
        for (let i = 0; i < size; i++) {
          await registerAgent(t, goalId);
          await todo(a.token, goalId, {
            taskClass: i % 2 ? 'CONTINUOUS_MONITOR' : 'ADVANCEMENT_TASK',
          });
        }
        counting.reset();
        const data = await gateway.ok(CLOSURE, { goalId }, steward);
        expect(data.goalClosure.closable).toBe(false);
        return counting.statements();
      };
      const small = await measure(1);
      const large = await measure(15);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(14);
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});
