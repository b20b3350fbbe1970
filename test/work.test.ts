import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/sql.ts';
import { visionsOfGoal } from '../src/work/visions.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  driver,
  eventually,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  startTestGateway,
  uid,
} from './support/harness.ts';

// ---- operations ----------------------------------------------------------------------

const FRAGMENTS: Record<string, string> = {
  T: `fragment T on Todo {
    id goalId title taskClass status priority dependsOn resumeWhen requiredDecisionScopes
    requiredCapability taskRepository writeScope continuationPolicy successorOf supersededBy evidenceRefs
    deferReason supersedeReason noFollowUpReason closedAt
    claim { agentId }
    lease { state holder fence expiresAt }
    createdBy { kind agentId }
    updatedBy { kind agentId }
  }`,
  R: `fragment R on TodoResult {
    __typename
    ... on Todo { ...T }
    ... on ScopeGap { goalId reason }
    ... on UnknownAgent { agentId }
    ... on UnknownTodo { todoId }
    ... on ClaimedByOther { todoId owner }
    ... on IllegalTransition { todoId from attempted }
  }`,
  L: 'fragment L on Lease { __typename state holder fence expiresAt }',
  G: 'fragment G on Gate { id kind granularity scopeKey scope state decision expiresAt }',
};

/** Appends the fragments `query` spreads (GraphQL refuses unused ones). */
function op(query: string): string {
  let out = query;
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, fragment] of Object.entries(FRAGMENTS)) {
      if (new RegExp(`\\.\\.\\.${name}\\b`).test(out) && !out.includes(`fragment ${name} `)) {
        out += `\n${fragment}`;
        changed = true;
      }
    }
  }
  return out;
}

const CREATE = op(`mutation($input: CreateTodoInput!) {
  createTodo(input: $input) {
    __typename ... on Todo { ...T } ... on ScopeGap { goalId reason } ... on UnknownAgent { agentId }
  }
}`);
const ACTION = (name: string, input = 'TodoActionInput') =>
  op(`mutation($input: ${input}!) { ${name}(input: $input) { ...R } }`);
const CLAIM = op(`mutation($input: TodoActionInput!) {
  claimTodo(input: $input) {
    __typename
    ... on ClaimedTodo {
      todo { ...T }
      warnings { kind todoId owner repository writeScope otherWriteScope }
    }
    ... on ScopeGap { goalId reason }
    ... on UnknownAgent { agentId }
    ... on UnknownTodo { todoId }
    ... on ClaimedByOther { todoId owner }
    ... on IllegalTransition { todoId from attempted }
  }
}`);
const RELEASE_CLAIM = ACTION('releaseClaim');
const RESUME = ACTION('resumeTodo');
const DEFER = ACTION('deferTodo', 'DeferTodoInput');
const CLOSE = ACTION('closeNoFollowUp', 'CloseNoFollowUpInput');
const SET_DEPS = ACTION('setDependencies', 'SetDependenciesInput');
const COMPLETE = op(`mutation($input: CompleteTodoInput!) {
  completeTodo(input: $input) {
    __typename
    ... on CompletedTodo { todo { ...T } successor { ...T } }
    ... on ClaimedByOther { todoId owner }
    ... on IllegalTransition { todoId from attempted }
    ... on UnknownTodo { todoId }
    ... on ScopeGap { goalId reason }
  }
}`);
const SUPERSEDE = op(`mutation($input: SupersedeTodoInput!) {
  supersedeTodo(input: $input) {
    __typename
    ... on SupersededTodo { todo { ...T } replacement { ...T } }
    ... on ClaimedByOther { todoId owner }
    ... on IllegalTransition { todoId from attempted }
  }
}`);
const ACQUIRE = op(`mutation($input: AcquireLeaseInput!) {
  acquireLease(input: $input) {
    __typename ... on Lease { ...L } ... on LeaseHeld { lease { ...L } }
    ... on ClaimedByOther { owner } ... on IllegalTransition { from attempted }
  }
}`);
const LEASE_CAS = (name: string, input: string) =>
  op(`mutation($input: ${input}!) {
  ${name}(input: $input) {
    __typename ... on Lease { ...L } ... on StaleFence { fence lease { ...L } }
    ... on IllegalTransition { from attempted }
  }
}`);
const RENEW = LEASE_CAS('renewLease', 'RenewLeaseInput');
const RELEASE_LEASE = LEASE_CAS('releaseLease', 'ReleaseLeaseInput');
const OPEN_GATE = op(`mutation($input: OpenGateInput!) {
  openGate(input: $input) { __typename ... on Gate { ...G } ... on ScopeGap { reason } }
}`);
const RESOLVE_GATE = op(`mutation($input: ResolveGateInput!) {
  resolveGate(input: $input) {
    __typename ... on Gate { ...G } ... on GateNotOpen { gate { ...G } } ... on UnknownGate { gateId }
    ... on ScopeGap { reason }
  }
}`);
const GATES = op(
  `query($goalId: ID!) { gates(goalId: $goalId) { rows { ...G } scopeGap { reason } } }`,
);
const FRONTIER = `query($goalId: ID!, $agentId: ID) {
  frontier(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Frontier {
      goalId agentId seq capabilities runnableCount
      rows {
        runnable
        todo { id title status priority }
        guards {
          kind detail todoId todoStatus gateId scope agentId capability condition repository
          writeScope workspaceReason
        }
      }
    }
    ... on ScopeGap { goalId reason }
    ... on UnknownAgent { agentId }
  }
}`;
const TODOS = op(`query($goalId: ID!, $statuses: [TodoStatus!], $limit: Int) {
  todos(goalId: $goalId, statuses: $statuses, limit: $limit) {
    goalId seq omittedRowCount rows { ...T } scopeGap { goalId reason }
  }
}`);
const SET_CAPABILITIES = `mutation($input: SetCapabilitiesInput!) {
  setCapabilities(input: $input) {
    __typename ... on AgentCapabilities { agentId capabilities } ... on UnknownAgent { agentId }
  }
}`;

// ---- fixtures ------------------------------------------------------------------------

interface Peer {
  goalId: string;
  agentId: string;
  token: string;
}

/** A goal with two registered peers (tokens for both) and a steward of the goal. */
async function team() {
  const first = await peerInNewGoal(t);
  const goalId = first.goalId;
  const secondAgent = await registerAgent(t, goalId);
  const second = await issueCredential(t, { kind: 'PEER', goalId, agentId: secondAgent });
  const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
  const a: Peer = { goalId, agentId: first.agentId, token: first.token };
  const b: Peer = { goalId, agentId: secondAgent, token: second.token };
  return { goalId, a, b, steward: steward.token };
}

async function todo(
  token: string | null,
  goalId: string,
  input: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const data = await t.ok(
    CREATE,
    { input: { goalId, title: uid('todo'), taskClass: 'ADVANCEMENT_TASK', ...input } },
    token,
  );
  expect(data.createTodo.__typename).toBe('Todo');
  return data.createTodo;
}

async function gate(
  token: string | null,
  goalId: string,
  input: Record<string, unknown>,
): Promise<Record<string, any>> {
  const data = await t.ok(OPEN_GATE, { input: { goalId, reason: 'may we?', ...input } }, token);
  expect(data.openGate.__typename).toBe('Gate');
  return data.openGate;
}

async function frontierOf(token: string | null, goalId: string, agentId?: string) {
  const data = await t.ok(FRONTIER, { goalId, agentId }, token);
  expect(data.frontier.__typename).toBe('Frontier');
  return data.frontier as {
    seq: string;
    runnableCount: number;
    capabilities: string[];
    rows: { runnable: boolean; todo: { id: string; status: string }; guards: any[] }[];
  };
}

function rowOf(frontier: { rows: { todo: { id: string } }[] }, todoId: string): any {
  const row = frontier.rows.find((r) => r.todo.id === todoId);
  if (!row) throw new Error(`todo ${todoId} is not on the frontier`);
  return row;
}

const guardKinds = (row: { guards: { kind: string }[] }) => row.guards.map((g) => g.kind);

/** Row counts of everything the work graph writes for a goal, and its sequence. */
async function counts(goalId: string) {
  const [row] = rowsOf<Record<string, string>>(
    await database.db.execute(sql`select
      (select count(*) from todos where goal_id = ${goalId})::text as todos,
      (select count(*) from todo_transitions where goal_id = ${goalId})::text as transitions,
      (select count(*) from gates where goal_id = ${goalId})::text as gates,
      (select count(*) from agent_visions where goal_id = ${goalId})::text as visions,
      (select coalesce(max(seq), 0) from stream_heads
        where goal_id = ${goalId} and stream = 'work')::text as seq,
      (select md5(coalesce(string_agg(t::text, ',' order by id), '')) from todos t
        where goal_id = ${goalId}) as digest`),
  );
  return row;
}

async function expectBadInput(
  query: string,
  variables: Record<string, unknown>,
  token: string | null,
  message: string,
) {
  const result = await t.gql(query, variables, token);
  expect(result.errors?.[0]?.message, JSON.stringify(variables)).toContain(message);
  expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
}

// ---- tests ---------------------------------------------------------------------------

describe(`todos (${driver})`, () => {
  it('creates a todo with typed fields, records who did it, and moves the goal sequence', async () => {
    const { goalId, a } = await team();
    const before = await counts(goalId);
    const dep = await todo(a.token, goalId);
    const created = await todo(a.token, goalId, {
      title: '  Ship the bilingual homepage  ',
      taskClass: 'USER_ACTION',
      priority: 7,
      dependsOn: [dep.id, dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['PUBLIC_CLAIM:Action:bilingual_homepage'],
      requiredCapability: 'network',
      writeScope: ['src/**', 'tests/**'],
      continuationPolicy: 'SAME_AGENT_NON_DELIVERY',
    });
    expect(created).toMatchObject({
      goalId,
      title: 'Ship the bilingual homepage',
      taskClass: 'USER_ACTION',
      status: 'OPEN',
      priority: 7,
      dependsOn: [dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
      requiredCapability: 'network',
      writeScope: ['src/**', 'tests/**'],
      continuationPolicy: 'SAME_AGENT_NON_DELIVERY',
      successorOf: null,
      supersededBy: null,
      claim: null,
      lease: { state: 'NONE', holder: null, fence: '0', expiresAt: null },
      createdBy: { kind: 'PEER', agentId: a.agentId },
      updatedBy: { kind: 'PEER', agentId: a.agentId },
    });
    expect(dep.continuationPolicy).toBe('INDEPENDENT_HANDOFF');
    const after = await counts(goalId);
    expect(Number(after?.todos) - Number(before?.todos)).toBe(2);
    expect(Number(after?.seq) - Number(before?.seq)).toBe(2);
    const history = await t.ok(
      `query($g: ID!, $id: ID!) { todoTransitions(goalId: $g, todoId: $id) {
        rows { kind fromStatus toStatus actor { kind agentId } seq at } } }`,
      { g: goalId, id: created.id },
      a.token,
    );
    expect(history.todoTransitions.rows).toEqual([
      {
        kind: 'CREATE',
        fromStatus: null,
        toStatus: 'OPEN',
        actor: { kind: 'PEER', agentId: a.agentId },
        seq: after?.seq,
        at: expect.any(String),
      },
    ]);
  });

  it.each([
    ['an empty title', { title: '   ' }, 'title must not be empty'],
    ['an over-long title', { title: 'x'.repeat(201) }, 'title must be at most 200'],
    ['a priority out of range', { priority: 1001 }, 'priority must be an integer from 0 to 1000'],
    ['an unknown resume form', { resumeWhen: ['merged:123'] }, 'is not a resume condition'],
    [
      'a pr_merged with no number',
      { resumeWhen: ['pr_merged:123'] },
      'must end in #<pull request number>',
    ],
    [
      'a bare pr_merged on a todo with no repository',
      { resumeWhen: ['pr_merged:#123'] },
      'names no repository and the todo has no taskRepository',
    ],
    [
      'a repository URL with credentials',
      { taskRepository: 'https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r' },
      'with credentials is refused',
    ],
    [
      'a repository with no owner',
      { taskRepository: 'git:github.com/repo' },
      'at least owner/repo',
    ],
    ['a resume condition with no id', { resumeWhen: ['todo_done:'] }, 'must not be empty'],
    [
      'a malformed decision scope',
      { requiredDecisionScopes: ['public_claim:action'] },
      'kind:granularity:scopeKey',
    ],
    [
      'an unknown scope kind',
      { requiredDecisionScopes: ['publish:action:x'] },
      'unknown kind "publish"',
    ],
    [
      'an unknown granularity',
      { requiredDecisionScopes: ['production:team:x'] },
      'unknown granularity "team"',
    ],
    [
      'a bad scope key',
      { requiredDecisionScopes: ['production:action:a b'] },
      'the scopeKey of "production:action:a b" may contain only',
    ],
    ['an unknown dependency', { dependsOn: ['todo_nope'] }, 'unknown todo in this goal: todo_nope'],
    ['an unknown todo in a condition', { resumeWhen: ['todo_done:todo_nope'] }, 'unknown todo'],
    ['an unknown gate in a condition', { resumeWhen: ['gate_resolved:gate_nope'] }, 'unknown gate'],
    ['an absolute write scope', { writeScope: ['/etc/**'] }, 'must be relative'],
    ['a write scope leaving the repository', { writeScope: ['src/../../x'] }, "'..'"],
    [
      'a malformed capability',
      { requiredCapability: 'gpu please' },
      'requiredCapability may contain only',
    ],
  ])('refuses %s as BAD_USER_INPUT and writes nothing', async (_name, input, message) => {
    const { goalId, a } = await team();
    const before = await counts(goalId);
    await expectBadInput(
      CREATE,
      { input: { goalId, title: 'x', taskClass: 'BLOCKER', ...input } },
      a.token,
      message,
    );
    expect(await counts(goalId)).toEqual(before);
  });

  it('refuses a dependency cycle (and a self-dependency), writing nothing; an acyclic edit works', async () => {
    const { goalId, a } = await team();
    const first = await todo(a.token, goalId);
    const second = await todo(a.token, goalId, { dependsOn: [first.id] });
    const third = await todo(a.token, goalId, { dependsOn: [second.id] });
    const before = await counts(goalId);
    await expectBadInput(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [third.id] } },
      a.token,
      'dependsOn would make a cycle',
    );
    await expectBadInput(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [first.id] } },
      a.token,
      'cannot depend on or wait for itself',
    );
    expect(await counts(goalId)).toEqual(before);

    const other = await todo(a.token, goalId);
    const edited = await t.ok(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [other.id] } },
      a.token,
    );
    expect(edited.setDependencies).toMatchObject({ __typename: 'Todo', dependsOn: [other.id] });
  });

  it('lists todos by priority, filters by status, and says when a list is truncated', async () => {
    const { goalId, a } = await team();
    const low = await todo(a.token, goalId, { priority: 1 });
    const high = await todo(a.token, goalId, { priority: 9 });
    const done = await todo(a.token, goalId, { priority: 5 });
    await t.ok(
      COMPLETE,
      { input: { goalId, todoId: done.id, evidenceRefs: ['commit:abc'] } },
      a.token,
    );
    const all = await t.ok(TODOS, { goalId }, a.token);
    expect(all.todos.rows.map((r: any) => r.id)).toEqual([high.id, done.id, low.id]);
    expect(all.todos.omittedRowCount).toBe(0);
    const open = await t.ok(TODOS, { goalId, statuses: ['OPEN'], limit: 1 }, a.token);
    expect(open.todos.rows.map((r: any) => r.id)).toEqual([high.id]);
    expect(open.todos.omittedRowCount).toBe(1);
    expect(open.todos.seq).toBe((await counts(goalId))?.seq);
  });
});

describe(`gates and decision scopes (${driver})`, () => {
  it('G1 public_claim:action:bilingual_homepage blocks todo A, not todo B; priority does not bypass it', async () => {
    const { goalId, a, steward } = await team();
    const todoA = await todo(a.token, goalId, {
      title: 'Announce the bilingual homepage',
      priority: 1000,
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
    });
    const todoB = await todo(a.token, goalId, {
      title: 'Repair internal link checker',
      priority: 0,
    });
    const g1 = await gate(a.token, goalId, {
      kind: 'PUBLIC_CLAIM',
      granularity: 'ACTION',
      scopeKey: 'bilingual_homepage',
    });
    expect(g1).toMatchObject({ scope: 'public_claim:action:bilingual_homepage', state: 'OPEN' });

    const frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, todoB.id)).toMatchObject({ runnable: true, guards: [] });
    expect(rowOf(frontier, todoA.id)).toMatchObject({
      runnable: false,
      guards: [
        {
          kind: 'DECISION_SCOPE',
          gateId: g1.id,
          scope: 'public_claim:action:bilingual_homepage',
        },
      ],
    });
    // Runnable rows first, even though A has the top priority.
    expect(frontier.rows.map((r) => r.todo.id)).toEqual([todoB.id, todoA.id]);

    // Claiming it and holding a lease are legal, and still do not make it runnable.
    expect(
      (await t.ok(CLAIM, { input: { goalId, todoId: todoA.id } }, a.token)).claimTodo.__typename,
    ).toBe('ClaimedTodo');
    const lease = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: todoA.id, ttlMs: 60_000 } },
      a.token,
    );
    expect(lease.acquireLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '1' });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), todoA.id))).toEqual([
      'DECISION_SCOPE',
    ]);

    // A peer cannot grant itself authority; the steward can.
    const selfGrant = await t.gql(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'GRANTED' } },
      a.token,
    );
    expect(selfGrant.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const granted = await t.ok(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'GRANTED', note: 'go ahead' } },
      steward,
    );
    expect(granted.resolveGate).toMatchObject({
      __typename: 'Gate',
      state: 'GRANTED',
      decision: 'GRANTED',
    });
    expect(rowOf(await frontierOf(a.token, goalId), todoA.id)).toMatchObject({
      runnable: true,
      guards: [],
    });
    const again = await t.ok(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'DENIED' } },
      steward,
    );
    expect(again.resolveGate).toMatchObject({
      __typename: 'GateNotOpen',
      gate: { decision: 'GRANTED' },
    });
  });

  it('covers by granularity: GOAL covers every action of its kind, LANE its lane, ACTION only its key; kinds must match', async () => {
    const { goalId, a } = await team();
    const needs = async (scope: string) =>
      (await todo(a.token, goalId, { requiredDecisionScopes: [scope] })).id;
    const homepage = await needs('production:action:homepage');
    const docsIndex = await needs('production:action:docs/index');
    const otherLane = await needs('production:action:api/deploy');
    const laneWide = await needs('production:lane:docs');
    const goalWide = await needs('production:goal:everything');
    const otherKind = await needs('private_read:action:homepage');
    const lane = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'LANE',
      scopeKey: 'docs',
    });
    const action = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'ACTION',
      scopeKey: 'homepage',
    });

    let frontier = await frontierOf(a.token, goalId);
    const blockers = (id: string) => rowOf(frontier, id).guards.map((g: any) => g.gateId);
    expect(blockers(homepage)).toEqual([action.id]);
    expect(blockers(docsIndex)).toEqual([lane.id]);
    expect(blockers(laneWide)).toEqual([lane.id]);
    expect(blockers(otherLane)).toEqual([]);
    expect(blockers(goalWide)).toEqual([]); // a narrower gate never covers a broader need
    expect(blockers(otherKind)).toEqual([]);

    const goalGate = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'GOAL',
      scopeKey: goalId,
    });
    frontier = await frontierOf(a.token, goalId);
    for (const id of [homepage, docsIndex, otherLane, laneWide, goalWide]) {
      expect(blockers(id)).toContain(goalGate.id);
    }
    expect(blockers(otherKind)).toEqual([]);
  });

  it('a denied gate keeps covering; an expired gate covers nothing', async () => {
    const { goalId, a, steward } = await team();
    const denied = await todo(a.token, goalId, {
      requiredDecisionScopes: ['resource:action:gpu_hours'],
    });
    const expiring = await todo(a.token, goalId, { requiredDecisionScopes: ['direction:goal:x'] });
    const g = await gate(a.token, goalId, {
      kind: 'RESOURCE',
      granularity: 'ACTION',
      scopeKey: 'gpu_hours',
    });
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'DENIED' } }, steward);
    const soon = await gate(a.token, goalId, {
      kind: 'DIRECTION',
      granularity: 'GLOBAL',
      scopeKey: 'x',
      // Long enough to read the frontier once before it passes, even on a loaded machine.
      expiresAt: new Date(Date.now() + 3_000).toISOString(),
    });
    let frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, denied.id).guards).toMatchObject([
      { kind: 'DECISION_SCOPE', gateId: g.id },
    ]);
    expect(rowOf(frontier, expiring.id).guards).toMatchObject([
      { kind: 'DECISION_SCOPE', gateId: soon.id },
    ]);

    await eventually(
      async () => {
        const gates = await t.ok(GATES, { goalId }, a.token);
        return gates.gates.rows.find((r: any) => r.id === soon.id)?.state === 'EXPIRED'
          ? true
          : undefined;
      },
      'the gate to expire',
      10_000,
    );
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, expiring.id)).toMatchObject({ runnable: true, guards: [] });
    expect(guardKinds(rowOf(frontier, denied.id))).toEqual(['DECISION_SCOPE']);
  });

  it('refuses malformed gates, and an expiry in the past, writing nothing', async () => {
    const { goalId, a } = await team();
    const before = await counts(goalId);
    for (const [input, message] of [
      [{ kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: '' }, 'scopeKey must not be empty'],
      [
        { kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: 'has:colon' },
        'scopeKey may contain only',
      ],
      [
        { kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: 'x', reason: ' ' },
        'reason must not be empty',
      ],
      [
        {
          kind: 'PRODUCTION',
          granularity: 'ACTION',
          scopeKey: 'x',
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        },
        'expiresAt must be in the future',
      ],
    ] as const) {
      await expectBadInput(
        OPEN_GATE,
        { input: { goalId, reason: 'why', ...input } },
        a.token,
        message,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });
});

describe(`claims and leases (${driver})`, () => {
  it("refuses another agent's claim with the owner named; only the claimant or a steward changes its lifecycle", async () => {
    const { goalId, a, b, steward } = await team();
    const work = await todo(a.token, goalId);
    const claimed = await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token);
    expect(claimed.claimTodo).toMatchObject({
      __typename: 'ClaimedTodo',
      todo: { claim: { agentId: a.agentId } },
      warnings: [],
    });

    const before = await counts(goalId);
    const refusedClaim = await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, b.token);
    expect(refusedClaim.claimTodo).toEqual({
      __typename: 'ClaimedByOther',
      todoId: work.id,
      owner: a.agentId,
    });
    for (const [query, input] of [
      [COMPLETE, { evidenceRefs: ['commit:1'] }],
      [DEFER, { resumeWhen: ['capacity_available:gpu'] }],
      [CLOSE, { reason: 'not needed' }],
      [SUPERSEDE, { reason: 'changed', replacement: { title: 'new', taskClass: 'BLOCKER' } }],
      [RELEASE_CLAIM, {}],
      [SET_DEPS, { dependsOn: [] }],
    ] as const) {
      const result = await t.ok(query, { input: { goalId, todoId: work.id, ...input } }, b.token);
      expect(Object.values(result)[0]).toMatchObject({
        __typename: 'ClaimedByOther',
        owner: a.agentId,
      });
    }
    // Claiming one's own claim again changes nothing.
    expect(
      (await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token)).claimTodo.todo.claim,
    ).toEqual({
      agentId: a.agentId,
    });
    expect(await counts(goalId)).toEqual(before);

    // A claim is not a lease: the claimant's frontier shows it runnable without one.
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({ runnable: true });
    expect(rowOf(await frontierOf(b.token, goalId), work.id).guards).toMatchObject([
      { kind: 'CLAIMED_BY_OTHER', agentId: a.agentId },
    ]);

    // A steward may act on it; a peer naming another agent may not.
    const impersonate = await t.gql(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: a.agentId } },
      b.token,
    );
    expect(impersonate.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const released = await t.ok(RELEASE_CLAIM, { input: { goalId, todoId: work.id } }, steward);
    expect(released.releaseClaim).toMatchObject({
      __typename: 'Todo',
      claim: null,
      updatedBy: { kind: 'STEWARD', agentId: null },
    });
    const onBehalf = await t.ok(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: b.agentId } },
      steward,
    );
    expect(onBehalf.claimTodo.todo).toMatchObject({
      claim: { agentId: b.agentId },
      updatedBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    const done = await t.ok(
      COMPLETE,
      { input: { goalId, todoId: work.id, evidenceRefs: ['review:ok'] } },
      steward,
    );
    expect(done.completeTodo).toMatchObject({
      __typename: 'CompletedTodo',
      todo: { status: 'DONE' },
    });
  });

  it('needs a named agent for a steward claim, and answers UnknownAgent for one not in the goal', async () => {
    const { goalId, a, steward } = await team();
    const work = await todo(a.token, goalId);
    await expectBadInput(
      CLAIM,
      { input: { goalId, todoId: work.id } },
      steward,
      'must name the agent',
    );
    const ghost = await t.ok(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: 'ghost' } },
      steward,
    );
    expect(ghost.claimTodo).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
    const missing = await t.ok(CLAIM, { input: { goalId, todoId: 'todo_nope' } }, a.token);
    expect(missing.claimTodo).toEqual({ __typename: 'UnknownTodo', todoId: 'todo_nope' });
  });

  it('fences leases: after expiry and takeover the old holder can neither renew nor release', async () => {
    const { goalId, a, b } = await team();
    const work = await todo(a.token, goalId);
    const first = (await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1 } }, a.token))
      .acquireLease;
    expect(first).toMatchObject({ __typename: 'Lease', holder: a.agentId, fence: '1' });
    await eventually(async () => {
      const list = await t.ok(TODOS, { goalId }, a.token);
      return list.todos.rows[0].lease.state === 'EXPIRED' ? true : undefined;
    }, 'the lease to expire');

    const second = (
      await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 60_000 } }, b.token)
    ).acquireLease;
    expect(second).toMatchObject({
      __typename: 'Lease',
      state: 'ACTIVE',
      holder: b.agentId,
      fence: '2',
    });

    const before = await counts(goalId);
    const renew = await t.ok(
      RENEW,
      { input: { goalId, todoId: work.id, fence: '1', ttlMs: 60_000 } },
      a.token,
    );
    expect(renew.renewLease).toMatchObject({
      __typename: 'StaleFence',
      fence: '1',
      lease: { state: 'ACTIVE', holder: b.agentId, fence: '2' },
    });
    const release = await t.ok(
      RELEASE_LEASE,
      { input: { goalId, todoId: work.id, fence: '1' } },
      a.token,
    );
    expect(release.releaseLease.__typename).toBe('StaleFence');
    // Knowing the current fence is not enough: it must be your lease.
    const foreign = await t.ok(
      RELEASE_LEASE,
      { input: { goalId, todoId: work.id, fence: '2' } },
      a.token,
    );
    expect(foreign.releaseLease.__typename).toBe('StaleFence');
    const held = await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1000 } }, a.token);
    expect(held.acquireLease).toMatchObject({
      __typename: 'LeaseHeld',
      lease: { state: 'ACTIVE', holder: b.agentId, fence: '2' },
    });
    expect(await counts(goalId)).toEqual(before);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).guards).toMatchObject([
      { kind: 'LEASE_HELD', agentId: b.agentId },
    ]);

    const renewed = await t.ok(
      RENEW,
      { input: { goalId, todoId: work.id, fence: '2', ttlMs: 120_000 } },
      b.token,
    );
    expect(renewed.renewLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '2' });
    expect(Date.parse(renewed.renewLease.expiresAt)).toBeGreaterThan(Date.parse(second.expiresAt));
    const released = await t.ok(
      RELEASE_LEASE,
      { input: { goalId, todoId: work.id, fence: '2' } },
      b.token,
    );
    expect(released.releaseLease).toMatchObject({
      __typename: 'Lease',
      state: 'NONE',
      holder: null,
      fence: '2',
    });
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({ runnable: true });
  });

  it('an expired lease is gone: even its holder cannot renew it; acquiring again gives a new fence', async () => {
    const { goalId, a } = await team();
    const work = await todo(a.token, goalId);
    await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1 } }, a.token);
    await eventually(async () => {
      const list = await t.ok(TODOS, { goalId }, a.token);
      return list.todos.rows[0].lease.state === 'EXPIRED' ? true : undefined;
    }, 'the lease to expire');
    const before = await counts(goalId);
    const renewed = await t.ok(
      RENEW,
      { input: { goalId, todoId: work.id, fence: '1', ttlMs: 60_000 } },
      a.token,
    );
    expect(renewed.renewLease).toMatchObject({
      __typename: 'StaleFence',
      fence: '1',
      lease: { state: 'EXPIRED', fence: '1' },
    });
    expect(await counts(goalId)).toEqual(before);
    const again = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 60_000 } },
      a.token,
    );
    expect(again.acquireLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '2' });
  });

  it('serializes racing claims: exactly one agent wins, the others are told who', async () => {
    const { goalId, a } = await team();
    const racers = [a];
    for (let i = 0; i < 4; i++) {
      const agentId = await registerAgent(t, goalId);
      const { token } = await issueCredential(t, { kind: 'PEER', goalId, agentId });
      racers.push({ goalId, agentId, token });
    }
    const work = await todo(a.token, goalId);
    const results = await Promise.all(
      racers.map((r) => t.ok(CLAIM, { input: { goalId, todoId: work.id } }, r.token)),
    );
    const winners = results.filter((r) => r.claimTodo.__typename === 'ClaimedTodo');
    expect(winners).toHaveLength(1);
    const owner = winners[0]?.claimTodo.todo.claim.agentId;
    for (const result of results.filter((r) => r.claimTodo.__typename !== 'ClaimedTodo')) {
      expect(result.claimTodo).toEqual({ __typename: 'ClaimedByOther', todoId: work.id, owner });
    }
    const history = await t.ok(
      `query($g: ID!, $id: ID!) { todoTransitions(goalId: $g, todoId: $id) { rows { kind seq } } }`,
      { g: goalId, id: work.id },
      a.token,
    );
    expect(history.todoTransitions.rows.map((r: any) => r.kind)).toEqual(['CREATE', 'CLAIM']);
  });

  it("refuses a lease on another agent's claimed todo, bad fences and bad ttls", async () => {
    const { goalId, a, b } = await team();
    const work = await todo(a.token, goalId);
    await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token);
    const refused = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 1000 } },
      b.token,
    );
    expect(refused.acquireLease).toEqual({ __typename: 'ClaimedByOther', owner: a.agentId });
    await expectBadInput(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 0 } },
      a.token,
      'ttlMs must be',
    );
    await expectBadInput(
      RENEW,
      { input: { goalId, todoId: work.id, fence: 'one', ttlMs: 10 } },
      a.token,
      'fence must be',
    );
  });
});

describe(`lifecycle (${driver})`, () => {
  it('completes with evidence and a successor in one transaction; continuation policy decides its owner', async () => {
    const { goalId, a } = await team();
    const same = await todo(a.token, goalId, { continuationPolicy: 'SAME_AGENT_NON_DELIVERY' });
    await t.ok(CLAIM, { input: { goalId, todoId: same.id } }, a.token);
    await t.ok(ACQUIRE, { input: { goalId, todoId: same.id, ttlMs: 60_000 } }, a.token);
    const done = await t.ok(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: same.id,
          evidenceRefs: ['git:abc123', 'test/work.test.ts'],
          successor: { title: 'Follow-up check', taskClass: 'CONTINUOUS_MONITOR' },
        },
      },
      a.token,
    );
    expect(done.completeTodo.todo).toMatchObject({
      status: 'DONE',
      evidenceRefs: ['git:abc123', 'test/work.test.ts'],
      closedAt: expect.any(String),
      lease: { state: 'NONE' },
    });
    expect(done.completeTodo.successor).toMatchObject({
      successorOf: same.id,
      status: 'OPEN',
      taskClass: 'CONTINUOUS_MONITOR',
      claim: { agentId: a.agentId },
    });

    const handoff = await todo(a.token, goalId);
    await t.ok(CLAIM, { input: { goalId, todoId: handoff.id } }, a.token);
    const next = await t.ok(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: handoff.id,
          evidenceRefs: ['pr:1'],
          successor: { title: 'n', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    expect(next.completeTodo.successor).toMatchObject({ successorOf: handoff.id, claim: null });
  });

  it('refuses completion without evidence, with absolute evidence paths, or with a bad successor, writing nothing', async () => {
    const { goalId, a } = await team();
    const work = await todo(a.token, goalId);
    const before = await counts(goalId);
    const cases: [Record<string, unknown>, string][] = [
      [{ evidenceRefs: [] }, 'evidenceRefs must name at least one'],
      [{ evidenceRefs: ['/home/me/log.txt'] }, 'must be relative'],
      [{ evidenceRefs: ['~/notes'] }, 'must be relative'],
      [
        { evidenceRefs: ['ok'], successor: { title: '', taskClass: 'BLOCKER' } },
        'successor.title must not be empty',
      ],
      [
        {
          evidenceRefs: ['ok'],
          successor: { title: 'x', taskClass: 'BLOCKER', dependsOn: ['todo_nope'] },
        },
        'unknown todo',
      ],
    ];
    for (const [input, message] of cases) {
      await expectBadInput(
        COMPLETE,
        { input: { goalId, todoId: work.id, ...input } },
        a.token,
        message,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });

  it('supersedes with lineage: never done, dependents wait for the replacement', async () => {
    const { goalId, a } = await team();
    const old = await todo(a.token, goalId, { title: 'old plan' });
    const dependent = await todo(a.token, goalId, { dependsOn: [old.id] });
    const result = await t.ok(
      SUPERSEDE,
      {
        input: {
          goalId,
          todoId: old.id,
          reason: 'direction changed',
          replacement: { title: 'new plan', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    const { todo: superseded, replacement } = result.supersedeTodo;
    expect(superseded).toMatchObject({
      status: 'SUPERSEDED',
      supersededBy: replacement.id,
      supersedeReason: 'direction changed',
      evidenceRefs: [],
      closedAt: expect.any(String),
    });
    // Lineage both ways: the replacement names the todo it replaces.
    expect(replacement).toMatchObject({ status: 'OPEN', title: 'new plan', successorOf: old.id });

    let frontier = await frontierOf(a.token, goalId);
    expect(frontier.rows.map((r) => r.todo.id)).not.toContain(old.id);
    expect(rowOf(frontier, dependent.id).guards).toMatchObject([
      { kind: 'DEPENDENCY', todoId: replacement.id, todoStatus: 'OPEN' },
    ]);

    // Completing superseded work is illegal and writes nothing.
    const before = await counts(goalId);
    const illegal = await t.ok(
      COMPLETE,
      { input: { goalId, todoId: old.id, evidenceRefs: ['x'] } },
      a.token,
    );
    expect(illegal.completeTodo).toEqual({
      __typename: 'IllegalTransition',
      todoId: old.id,
      from: 'SUPERSEDED',
      attempted: 'COMPLETE',
    });
    expect(await counts(goalId)).toEqual(before);

    await t.ok(
      COMPLETE,
      { input: { goalId, todoId: replacement.id, evidenceRefs: ['x'] } },
      a.token,
    );
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, dependent.id)).toMatchObject({ runnable: true, guards: [] });
    const stillSuperseded = await t.ok(TODOS, { goalId, statuses: ['SUPERSEDED'] }, a.token);
    expect(stillSuperseded.todos.rows.map((r: any) => r.id)).toEqual([old.id]);
  });

  it('supersedes by naming a live replacement, and refuses ambiguous or final replacements', async () => {
    const { goalId, a } = await team();
    const old = await todo(a.token, goalId);
    const next = await todo(a.token, goalId);
    const finished = await todo(a.token, goalId);
    await t.ok(COMPLETE, { input: { goalId, todoId: finished.id, evidenceRefs: ['x'] } }, a.token);
    const before = await counts(goalId);
    await expectBadInput(
      SUPERSEDE,
      { input: { goalId, todoId: old.id, reason: 'r' } },
      a.token,
      'exactly one of',
    );
    await expectBadInput(
      SUPERSEDE,
      {
        input: {
          goalId,
          todoId: old.id,
          reason: 'r',
          replacementId: next.id,
          replacement: { title: 'x', taskClass: 'BLOCKER' },
        },
      },
      a.token,
      'exactly one of',
    );
    await expectBadInput(
      SUPERSEDE,
      { input: { goalId, todoId: old.id, reason: 'r', replacementId: finished.id } },
      a.token,
      'is DONE',
    );
    await expectBadInput(
      SUPERSEDE,
      { input: { goalId, todoId: old.id, reason: 'r', replacementId: old.id } },
      a.token,
      'cannot replace itself',
    );
    expect(await counts(goalId)).toEqual(before);
    const named = await t.ok(
      SUPERSEDE,
      { input: { goalId, todoId: old.id, reason: 'merged', replacementId: next.id } },
      a.token,
    );
    expect(named.supersedeTodo).toMatchObject({
      todo: { status: 'SUPERSEDED', supersededBy: next.id },
      replacement: { id: next.id, successorOf: old.id },
    });
    // A todo that already continues another cannot be named as a second one's replacement.
    const other = await todo(a.token, goalId);
    await expectBadInput(
      SUPERSEDE,
      { input: { goalId, todoId: other.id, reason: 'r', replacementId: next.id } },
      a.token,
      'already continues',
    );
  });

  it('illegal transitions are typed and write nothing', async () => {
    const { goalId, a } = await team();
    const done = await todo(a.token, goalId);
    await t.ok(COMPLETE, { input: { goalId, todoId: done.id, evidenceRefs: ['x'] } }, a.token);
    const open = await todo(a.token, goalId);
    const before = await counts(goalId);
    const attempts: [string, Record<string, unknown>, string, string][] = [
      [CLAIM, {}, done.id, 'CLAIM'],
      [COMPLETE, { evidenceRefs: ['x'] }, done.id, 'COMPLETE'],
      [DEFER, { resumeWhen: ['capacity_available:gpu'] }, done.id, 'DEFER'],
      [CLOSE, { reason: 'r' }, done.id, 'CLOSE_NO_FOLLOW_UP'],
      [RESUME, {}, open.id, 'RESUME'],
      [ACQUIRE, { ttlMs: 1000 }, done.id, 'ACQUIRE_LEASE'],
    ];
    for (const [query, input, todoId, attempted] of attempts) {
      const result = await t.ok(query, { input: { goalId, todoId, ...input } }, a.token);
      expect(Object.values(result)[0], attempted).toMatchObject({
        __typename: 'IllegalTransition',
        from: todoId === done.id ? 'DONE' : 'OPEN',
        attempted,
      });
    }
    expect(await counts(goalId)).toEqual(before);
  });

  it('closes with no follow-up only with a reason; its dependents are told it will never be done', async () => {
    const { goalId, a } = await team();
    const work = await todo(a.token, goalId);
    const dependent = await todo(a.token, goalId, { dependsOn: [work.id] });
    await expectBadInput(
      CLOSE,
      { input: { goalId, todoId: work.id, reason: '  ' } },
      a.token,
      'reason must not be empty',
    );
    const closed = await t.ok(
      CLOSE,
      { input: { goalId, todoId: work.id, reason: 'acceptance already met' } },
      a.token,
    );
    expect(closed.closeNoFollowUp).toMatchObject({
      status: 'CLOSED_NO_FOLLOW_UP',
      noFollowUpReason: 'acceptance already met',
      closedAt: expect.any(String),
    });
    const [guard] = rowOf(await frontierOf(a.token, goalId), dependent.id).guards;
    expect(guard).toMatchObject({
      kind: 'DEPENDENCY',
      todoId: work.id,
      todoStatus: 'CLOSED_NO_FOLLOW_UP',
    });
    expect(guard.detail).toContain('will never be done');
  });

  it('defers with resume conditions; a met condition makes it STALE until resumed', async () => {
    const { goalId, a, b, steward } = await team();
    const blocker = await todo(a.token, goalId);
    const g = await gate(a.token, goalId, {
      kind: 'DIRECTION',
      granularity: 'GOAL',
      scopeKey: 'g',
    });
    const work = await todo(a.token, goalId);
    await expectBadInput(
      DEFER,
      { input: { goalId, todoId: work.id, resumeWhen: [] } },
      a.token,
      'at least one condition',
    );
    await expectBadInput(
      DEFER,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#1'] } },
      a.token,
      'names no repository and the todo has no taskRepository',
    );
    await expectBadInput(
      DEFER,
      { input: { goalId, todoId: work.id, resumeWhen: [`todo_done:${work.id}`] } },
      a.token,
      'itself',
    );
    const deferred = await t.ok(
      DEFER,
      {
        input: {
          goalId,
          todoId: work.id,
          reason: 'waiting on the decision and a GPU host',
          resumeWhen: [
            `todo_done:${blocker.id}`,
            `gate_resolved:${g.id}`,
            'capacity_available:gpu',
          ],
        },
      },
      a.token,
    );
    expect(deferred.deferTodo).toMatchObject({
      status: 'DEFERRED',
      deferReason: 'waiting on the decision and a GPU host',
    });
    let row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(row.guards).toMatchObject([
      { kind: 'RESUME_CONDITION', condition: `todo_done:${blocker.id}`, todoId: blocker.id },
      { kind: 'RESUME_CONDITION', condition: `gate_resolved:${g.id}`, gateId: g.id },
      { kind: 'RESUME_CONDITION', condition: 'capacity_available:gpu', capability: 'gpu' },
    ]);

    await t.ok(COMPLETE, { input: { goalId, todoId: blocker.id, evidenceRefs: ['x'] } }, a.token);
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'GRANTED' } }, steward);
    row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(row.guards.map((x: any) => x.condition)).toEqual(['capacity_available:gpu']);
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['gpu'] } }, b.token);
    row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(guardKinds(row)).toEqual(['STALE']);

    const resumed = await t.ok(RESUME, { input: { goalId, todoId: work.id } }, a.token);
    expect(resumed.resumeTodo).toMatchObject({ __typename: 'Todo', status: 'OPEN' });
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({
      runnable: true,
      guards: [],
    });
  });
});

describe(`the frontier (${driver})`, () => {
  it('lists runnable rows first, each part by priority, then creation, then id', async () => {
    const { goalId, a } = await team();
    const first = await todo(a.token, goalId, { priority: 5 });
    const top = await todo(a.token, goalId, { priority: 9 });
    const second = await todo(a.token, goalId, { priority: 5 });
    const held = await todo(a.token, goalId, { priority: 10, dependsOn: [first.id] });
    const tied = [
      await todo(a.token, goalId, { priority: 3 }),
      await todo(a.token, goalId, { priority: 3 }),
    ];
    // Todos created in one transaction share their creation time: the id decides.
    await database.db.execute(sql`update todos set created_at = '2026-01-01T00:00:00Z'
      where id in (${tied[0]?.id}, ${tied[1]?.id})`);
    const frontier = await frontierOf(a.token, goalId);
    expect(frontier.rows.map((row) => row.todo.id)).toEqual([
      top.id,
      first.id,
      second.id,
      ...tied.map((row) => row.id as string).sort(),
      held.id,
    ]);
  });

  it('explains every non-runnable todo with its guards, in guard order', async () => {
    const { goalId, a, b } = await team();
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['shell'] } }, a.token);
    const dep = await todo(b.token, goalId, { title: 'dep' });
    const g = await gate(b.token, goalId, {
      kind: 'WRITE_SCOPE',
      granularity: 'ACTION',
      scopeKey: 'schema',
    });
    const runnable = await todo(b.token, goalId, {
      title: 'runnable',
      requiredCapability: 'shell',
    });
    const onDep = await todo(b.token, goalId, { title: 'dependency', dependsOn: [dep.id] });
    const gated = await todo(b.token, goalId, {
      title: 'gated',
      requiredDecisionScopes: ['write_scope:action:schema'],
    });
    const theirs = await todo(b.token, goalId, { title: 'claimed' });
    await t.ok(CLAIM, { input: { goalId, todoId: theirs.id } }, b.token);
    const needsGpu = await todo(b.token, goalId, {
      title: 'capability',
      requiredCapability: 'gpu',
    });
    const leased = await todo(b.token, goalId, { title: 'leased' });
    await t.ok(ACQUIRE, { input: { goalId, todoId: leased.id, ttlMs: 60_000 } }, b.token);
    const everything = await todo(b.token, goalId, {
      title: 'everything',
      dependsOn: [dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['write_scope:action:schema'],
      requiredCapability: 'gpu',
    });
    await t.ok(CLAIM, { input: { goalId, todoId: everything.id } }, b.token);
    await t.ok(ACQUIRE, { input: { goalId, todoId: everything.id, ttlMs: 60_000 } }, b.token);

    const frontier = await frontierOf(a.token, goalId);
    for (const row of frontier.rows) {
      expect(row.runnable, row.todo.id).toBe(row.guards.length === 0);
      for (const guard of row.guards) expect(guard.detail.length).toBeGreaterThan(0);
    }
    const expected: [Record<string, any>, string[]][] = [
      [dep, []],
      [runnable, []],
      [onDep, ['DEPENDENCY']],
      [gated, ['DECISION_SCOPE']],
      [theirs, ['CLAIMED_BY_OTHER']],
      [needsGpu, ['CAPABILITY']],
      [leased, ['LEASE_HELD']],
      [
        everything,
        [
          'DEPENDENCY',
          'RESUME_CONDITION',
          'DECISION_SCOPE',
          'CLAIMED_BY_OTHER',
          'CAPABILITY',
          'LEASE_HELD',
        ],
      ],
    ];
    for (const [item, kinds] of expected)
      expect(guardKinds(rowOf(frontier, item.id)), item.title).toEqual(kinds);
    expect(rowOf(frontier, everything.id).guards).toMatchObject([
      { todoId: dep.id },
      { todoId: dep.id, condition: `todo_done:${dep.id}` },
      { gateId: g.id, scope: 'write_scope:action:schema' },
      { agentId: b.agentId },
      { capability: 'gpu' },
      { agentId: b.agentId },
    ]);
    expect(frontier.runnableCount).toBe(2);
    expect(frontier.capabilities).toEqual(['shell']);
    expect(frontier.seq).toBe((await counts(goalId))?.seq);
    // The same graph seen by b: its own claim and leases hold nothing back.
    const theirsSeen = await frontierOf(b.token, goalId);
    expect(guardKinds(rowOf(theirsSeen, leased.id))).toEqual([]);
    expect(guardKinds(rowOf(theirsSeen, runnable.id))).toEqual(['CAPABILITY']);
  });

  it('answers UnknownAgent for an agent not in the goal, and needs an agent for non-peers', async () => {
    const { goalId, a, steward } = await team();
    const ghost = await t.ok(FRONTIER, { goalId, agentId: 'ghost' }, a.token);
    expect(ghost.frontier).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
    await expectBadInput(FRONTIER, { goalId }, steward, 'agentId is required');
    const forA = await t.ok(FRONTIER, { goalId, agentId: a.agentId }, steward);
    expect(forA.frontier).toMatchObject({ __typename: 'Frontier', agentId: a.agentId });
  });

  it('runs a constant number of SQL statements, however many todos the goal has', async () => {
    const counting = countingDatabase(database);
    const countingGateway = await startTestGateway(counting.database);
    try {
      const measure = async (todoCount: number) => {
        const { goalId, a, b } = await team();
        const g = await gate(a.token, goalId, {
          kind: 'PRODUCTION',
          granularity: 'GOAL',
          scopeKey: 'all',
        });
        let previous: string | null = null;
        for (let i = 0; i < todoCount; i++) {
          const created: Record<string, any> = await todo(a.token, goalId, {
            dependsOn: previous ? [previous] : [],
            taskRepository: 'git:github.com/o/r',
            writeScope: i % 5 ? [`src/m${i % 3}/**`] : ['src/**'],
            resumeWhen: previous
              ? [
                  `todo_done:${previous}`,
                  `gate_resolved:${g.id}`,
                  'capacity_available:gpu',
                  `pr_merged:#${i}`,
                ]
              : [],
            requiredDecisionScopes: i % 2 ? ['production:action:deploy'] : [],
            requiredCapability: i % 3 ? 'gpu' : null,
          });
          if (i % 4 === 0) await t.ok(CLAIM, { input: { goalId, todoId: created.id } }, b.token);
          previous = created.id;
          if (i % 2) {
            await t.ok(
              `mutation($input: RecordExternalEventInput!) { recordExternalEvent(input: $input) { __typename } }`,
              {
                input: {
                  goalId,
                  kind: 'PR_MERGED',
                  repository: 'git:github.com/o/r',
                  ref: String(i),
                  observedAt: new Date().toISOString(),
                },
              },
              a.token,
            );
          }
        }
        await declareWorkspace(a, 'git:github.com/o/r', 'CANONICAL');
        counting.reset();
        const data = await countingGateway.ok(FRONTIER, { goalId }, a.token);
        expect(data.frontier.rows).toHaveLength(todoCount);
        const kinds = new Set(
          data.frontier.rows.flatMap((r: any) => r.guards.map((g: any) => g.kind)),
        );
        expect(kinds).toContain('WRITE_SCOPE_CONFLICT');
        expect(kinds).toContain('WORKSPACE');
        return counting.statements();
      };
      const small = await measure(2);
      const large = await measure(40);
      expect(small).toBeGreaterThan(0);
      expect(large).toBe(small);
      // 10, plus the response cache's one statement for the goal's stamp (a miss here).
      expect(large).toBeLessThanOrEqual(11);
    } finally {
      await countingGateway.stop();
    }
  }, 180_000);
});

describe(`repositories and pr_merged conditions (${driver})`, () => {
  const RECORD = `mutation($input: RecordExternalEventInput!) {
    recordExternalEvent(input: $input) {
      __typename
      ... on ExternalEvent {
        waitingTodoIds replayed
        fact { id kind repository ref observedAt recordedBy { kind agentId } }
      }
      ... on ScopeGap { goalId reason }
      ... on UnknownAgent { agentId }
    }
  }`;
  const merged = (goalId: string, repository: string, ref: string) => ({
    input: { goalId, kind: 'PR_MERGED', repository, ref, observedAt: new Date().toISOString() },
  });
  const ledgerRows = async (goalId: string, kind: string) =>
    rowsOf<Record<string, any>>(
      await database.db.execute(sql`select agent_id, event_kind, goal_change, summary, material
        from ledger_events where goal_id = ${goalId} and event_kind = ${kind} order by seq`),
    );

  it('stores a credential-free repository identity, in canonical form', async () => {
    const { goalId, a } = await team();
    const created = await todo(a.token, goalId, {
      taskRepository: 'https://github.com/owner/repo.git',
      resumeWhen: ['pr_merged:#12', 'pr_merged:Other/thing#3'],
    });
    expect(created).toMatchObject({
      taskRepository: 'git:github.com/owner/repo',
      resumeWhen: ['pr_merged:#12', 'pr_merged:git:github.com/Other/thing#3'],
    });
    // A successor and a replacement carry their own repository; a bare #n needs one there too.
    await expectBadInput(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: created.id,
          evidenceRefs: ['x'],
          successor: { title: 'next', taskClass: 'ADVANCEMENT_TASK', resumeWhen: ['pr_merged:#1'] },
        },
      },
      a.token,
      'successor.resumeWhen: "pr_merged:#1" names no repository',
    );
  });

  it('a bare pr_merged:#n is satisfied only by a merge recorded in the todo’s own repository', async () => {
    const { goalId, a, b } = await team();
    const own = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/owner/repo',
      resumeWhen: ['pr_merged:#7'],
    });
    const cross = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/other/place',
      resumeWhen: ['pr_merged:owner/repo#7'],
    });
    const held = (f: any, id: string) => rowOf(f, id).guards;
    let frontier = await frontierOf(a.token, goalId);
    expect(held(frontier, own.id)).toMatchObject([
      {
        kind: 'RESUME_CONDITION',
        condition: 'pr_merged:#7',
        repository: 'git:github.com/owner/repo',
        detail: expect.stringContaining('no merge of git:github.com/owner/repo#7 is recorded'),
      },
    ]);
    expect(held(frontier, cross.id)).toMatchObject([
      { kind: 'RESUME_CONDITION', repository: 'git:github.com/owner/repo' },
    ]);

    // The same number in another repository satisfies neither.
    const elsewhere = await t.ok(
      RECORD,
      merged(goalId, 'git:github.com/other/place', '7'),
      b.token,
    );
    expect(elsewhere.recordExternalEvent).toMatchObject({ waitingTodoIds: [], replayed: false });
    frontier = await frontierOf(a.token, goalId);
    expect(guardKinds(rowOf(frontier, own.id))).toEqual(['RESUME_CONDITION']);
    expect(guardKinds(rowOf(frontier, cross.id))).toEqual(['RESUME_CONDITION']);

    const before = await counts(goalId);
    const right = await t.ok(
      RECORD,
      merged(goalId, 'git@github.com:owner/repo.git', '#7'),
      b.token,
    );
    expect(right.recordExternalEvent).toMatchObject({
      __typename: 'ExternalEvent',
      replayed: false,
      fact: {
        kind: 'PR_MERGED',
        repository: 'git:github.com/owner/repo',
        ref: '7',
        recordedBy: { kind: 'PEER', agentId: b.agentId },
      },
    });
    expect([...right.recordExternalEvent.waitingTodoIds].sort()).toEqual([own.id, cross.id].sort());
    expect(Number((await counts(goalId))?.seq)).toBe(Number(before?.seq) + 1);
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, own.id)).toMatchObject({ runnable: true, guards: [] });
    expect(rowOf(frontier, cross.id)).toMatchObject({ runnable: true, guards: [] });

    // The ledger row, goal-level because live todos waited for it; only the gateway writes one.
    expect(await ledgerRows(goalId, 'EXTERNAL_EVENT')).toMatchObject([
      { agent_id: b.agentId, goal_change: null, material: true },
      { agent_id: b.agentId, goal_change: 'NEXT_ACTION', material: true },
    ]);
    await expectBadInput(
      `mutation($input: RecordEventInput!) { recordEvent(input: $input) { __typename } }`,
      { input: { goalId, eventKind: 'EXTERNAL_EVENT', summary: 'merged, trust me' } },
      a.token,
      'written by the gateway itself (recordExternalEvent)',
    );

    // Recording the same fact again returns the original and writes nothing.
    const settled = await counts(goalId);
    const again = await t.ok(RECORD, merged(goalId, 'https://github.com/owner/repo', '7'), a.token);
    expect(again.recordExternalEvent).toMatchObject({
      replayed: true,
      waitingTodoIds: [],
      fact: { id: right.recordExternalEvent.fact.id, recordedBy: { agentId: b.agentId } },
    });
    expect(await counts(goalId)).toEqual(settled);
    expect(await ledgerRows(goalId, 'EXTERNAL_EVENT')).toHaveLength(2);
  });

  it('a deferred todo waiting for a merge is STALE once the merge is recorded', async () => {
    const { goalId, a, steward } = await team();
    const work = await todo(a.token, goalId, { taskRepository: 'git:github.com/o/r' });
    await t.ok(
      DEFER,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#31'] } },
      a.token,
    );
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'RESUME_CONDITION',
    ]);
    await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '31'), steward);
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual(['STALE']);
  });

  it('fails closed on a bare pr_merged:#n with no repository, even one stored before the rule', async () => {
    const { goalId, a, steward } = await team();
    const work = await todo(a.token, goalId);
    await expectBadInput(
      DEFER,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#5'] } },
      a.token,
      'names no repository and the todo has no taskRepository',
    );
    // The frontier does not guess either: a merge of #5 anywhere never satisfies it.
    await database.db.execute(
      sql`update todos set resume_when = '{pr_merged:#5}' where id = ${work.id}`,
    );
    await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '5'), steward);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).guards).toEqual([
      expect.objectContaining({
        kind: 'RESUME_CONDITION',
        condition: 'pr_merged:#5',
        repository: null,
        detail: expect.stringContaining('fails closed'),
      }),
    ]);
  });

  it('refuses bad facts and callers, writing nothing', async () => {
    const { goalId, a } = await team();
    const other = await peerInNewGoal(t);
    const before = await counts(goalId);
    const bad = (input: Record<string, unknown>, message: string) =>
      expectBadInput(
        RECORD,
        { input: { ...merged(goalId, 'git:github.com/o/r', '1').input, ...input } },
        a.token,
        message,
      );
    await bad({ ref: 'abc' }, 'ref must be the pull request number');
    await bad({ ref: '0' }, 'ref must be the pull request number');
    await bad({ observedAt: new Date(Date.now() + 3_600_000).toISOString() }, 'not in the future');
    await bad({ repository: 'https://alice:pw@github.com/o/r' }, 'with credentials is refused');
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('tmux'),
      goalIds: [goalId],
    });
    for (const [token, input] of [
      [provider.token, {}],
      [a.token, { agentId: 'someone-else' }], // a PEER records as itself only
    ] as const) {
      const refused = await t.gql(
        RECORD,
        { input: { ...merged(goalId, 'git:github.com/o/r', '1').input, ...input } },
        token,
      );
      expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const gap = await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '1'), other.token);
    expect(gap.recordExternalEvent).toEqual({
      __typename: 'ScopeGap',
      goalId,
      reason: 'AUDIENCE_NOT_AUTHORIZED',
    });
    expect(await counts(goalId)).toEqual(before);
    const external = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from external_events where goal_id = ${goalId}`,
      ),
    );
    expect(external[0]?.n).toBe(0);
  });
});

describe(`write-scope conflicts (${driver})`, () => {
  const REPO = 'git:github.com/acme/app';
  const claim = async (peer: Peer, todoId: string) =>
    (await t.ok(CLAIM, { input: { goalId: peer.goalId, todoId } }, peer.token)).claimTodo;

  it('overlapping scopes across two agents: the later claim is held back, with a warning when it is made', async () => {
    const { goalId, a, b } = await team();
    await declareWorkspace(a, REPO);
    await declareWorkspace(b, REPO);
    const wide = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const narrow = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['docs/**', 'src/ledger/**'],
    });
    const disjoint = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['test/**'] });
    expect((await claim(a, wide.id)).warnings).toEqual([]);

    // For b, the unclaimed narrow todo would write inside a's claimed scope.
    let forB = await frontierOf(b.token, goalId);
    expect(rowOf(forB, narrow.id)).toMatchObject({
      runnable: false,
      guards: [
        {
          kind: 'WRITE_SCOPE_CONFLICT',
          todoId: wide.id,
          agentId: a.agentId,
          writeScope: 'src/**',
          repository: REPO,
          detail: expect.stringContaining(
            `writes src/ledger/**, which overlaps src/** of ${wide.id}, claimed by ${a.agentId}`,
          ),
        },
      ],
    });
    expect(rowOf(forB, disjoint.id)).toMatchObject({ runnable: true, guards: [] });
    // a's own claim holds nothing back for a.
    expect(rowOf(await frontierOf(a.token, goalId), narrow.id)).toMatchObject({ runnable: true });

    // The claim is made all the same (a soft owner, not a lock), with the conflict alongside.
    const taken = await claim(b, narrow.id);
    expect(taken).toMatchObject({
      __typename: 'ClaimedTodo',
      todo: { id: narrow.id, claim: { agentId: b.agentId } },
      warnings: [
        {
          kind: 'WRITE_SCOPE_CONFLICT',
          todoId: wide.id,
          owner: a.agentId,
          repository: REPO,
          writeScope: 'src/ledger/**',
          otherWriteScope: 'src/**',
        },
      ],
    });
    // Both claimed: exactly one of the two is runnable for its owner — the earlier claim.
    forB = await frontierOf(b.token, goalId);
    const forA = await frontierOf(a.token, goalId);
    expect(rowOf(forA, wide.id)).toMatchObject({ runnable: true, guards: [] });
    expect(guardKinds(rowOf(forB, narrow.id))).toEqual(['WRITE_SCOPE_CONFLICT']);
    // b's own claims never conflict for b: the wide todo is held for b by a's claim only.
    expect(guardKinds(rowOf(forB, wide.id))).toEqual(['CLAIMED_BY_OTHER']);

    // Claiming it again writes nothing and still says what it overlaps.
    const settled = await counts(goalId);
    expect((await claim(b, narrow.id)).warnings).toHaveLength(1);
    expect(await counts(goalId)).toEqual(settled);

    // Once the wide todo is done it conflicts with nothing.
    await t.ok(COMPLETE, { input: { goalId, todoId: wide.id, evidenceRefs: ['x'] } }, a.token);
    expect(rowOf(await frontierOf(b.token, goalId), narrow.id)).toMatchObject({ runnable: true });
  });

  it('compares scopes only within one repository (no repository matches only no repository)', async () => {
    const { goalId, a, b } = await team();
    await declareWorkspace(b, 'git:github.com/acme/other');
    const here = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const there = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/acme/other',
      writeScope: ['src/**'],
    });
    const unnamed = await todo(a.token, goalId, { writeScope: ['src/**'] });
    const unnamedToo = await todo(a.token, goalId, { writeScope: ['src/x/**'] });
    const readOnly = await todo(a.token, goalId, { taskRepository: REPO });
    await claim(a, here.id);
    await claim(a, unnamed.id);
    const forB = await frontierOf(b.token, goalId);
    expect(rowOf(forB, there.id)).toMatchObject({ runnable: true });
    expect(rowOf(forB, readOnly.id)).toMatchObject({ runnable: true });
    expect(rowOf(forB, unnamedToo.id).guards).toMatchObject([
      { kind: 'WRITE_SCOPE_CONFLICT', todoId: unnamed.id, agentId: a.agentId, repository: null },
    ]);
  });

  it('names one conflict per other agent, its earliest overlapping claim', async () => {
    const { goalId, a, b } = await team();
    await declareWorkspace(a, REPO);
    const c = await registerAgent(t, goalId);
    const cPeer: Peer = {
      goalId,
      agentId: c,
      token: (await issueCredential(t, { kind: 'PEER', goalId, agentId: c })).token,
    };
    const mine = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['src/ledger/read.ts'],
    });
    const first = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/ledger'] });
    const second = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['src/*/read.ts'],
    });
    const third = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    await claim(b, first.id);
    await claim(b, second.id);
    await claim(cPeer, third.id);
    const guards = rowOf(await frontierOf(a.token, goalId), mine.id).guards;
    expect(guards.map((g: any) => [g.kind, g.agentId, g.todoId])).toEqual(
      [
        ['WRITE_SCOPE_CONFLICT', b.agentId, first.id],
        ['WRITE_SCOPE_CONFLICT', c, third.id],
      ].sort((x, y) => (String(x[1]) < String(y[1]) ? -1 : 1)),
    );
  });

  it('stores one spelling of each entry and refuses globs it could not compare', async () => {
    const { goalId, a } = await team();
    const created = await todo(a.token, goalId, { writeScope: ['./src//ledger/', 'src/ledger/'] });
    expect(created.writeScope).toEqual(['src/ledger/']);
    const before = await counts(goalId);
    for (const [entry, message] of [
      ['src/{a,b}/**', "may use only '*', '?' and '**'"],
      ['src/[ab].ts', "may use only '*', '?' and '**'"],
      ['!src/**', 'must not be a negation'],
      ['./', 'must name a path'],
    ]) {
      await expectBadInput(
        CREATE,
        { input: { goalId, title: 'x', taskClass: 'BLOCKER', writeScope: [entry] } },
        a.token,
        message as string,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });
});

const DECLARE_WORKSPACE = `mutation($input: DeclareWorkspaceInput!) {
  declareWorkspace(input: $input) {
    __typename
    ... on AgentWorkspace {
      goalId agentId workspace { repository worktree revision declaredAt } declaredBy { kind agentId }
    }
    ... on ScopeGap { reason } ... on UnknownAgent { agentId }
  }
}`;

async function declareWorkspace(
  peer: Peer,
  repository: string,
  worktree: 'LINKED' | 'CANONICAL' = 'LINKED',
) {
  const data = await t.ok(
    DECLARE_WORKSPACE,
    { input: { goalId: peer.goalId, repository, worktree, revision: 'a1b2c3d4e5f6' } },
    peer.token,
  );
  expect(data.declareWorkspace.__typename).toBe('AgentWorkspace');
  return data.declareWorkspace;
}

describe(`the workspace guard (${driver})`, () => {
  const REPO = 'git:github.com/acme/app';

  it('a repository-writing todo runs only from a linked worktree of its repository', async () => {
    const { goalId, a } = await team();
    const writing = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const reading = await todo(a.token, goalId, { taskRepository: REPO }); // writes nothing
    const unnamed = await todo(a.token, goalId, { writeScope: ['docs/**'] }); // names no repository
    const workspaceGuard = async () => {
      const frontier = await frontierOf(a.token, goalId);
      expect(rowOf(frontier, reading.id)).toMatchObject({ runnable: true });
      expect(rowOf(frontier, unnamed.id)).toMatchObject({ runnable: true });
      return rowOf(frontier, writing.id).guards;
    };
    expect(await workspaceGuard()).toMatchObject([
      {
        kind: 'WORKSPACE',
        workspaceReason: 'NO_WORKSPACE',
        repository: REPO,
        detail: expect.stringContaining('declared no workspace'),
      },
    ]);

    const before = await counts(goalId);
    const declared = await declareWorkspace(a, 'https://github.com/acme/app.git', 'CANONICAL');
    expect(declared).toMatchObject({
      agentId: a.agentId,
      workspace: { repository: REPO, worktree: 'CANONICAL', revision: 'a1b2c3d4e5f6' },
      declaredBy: { kind: 'PEER', agentId: a.agentId },
    });
    expect(Number((await counts(goalId))?.seq)).toBe(Number(before?.seq) + 1);
    // The canonical checkout of the right repository is refused.
    expect(await workspaceGuard()).toMatchObject([
      { kind: 'WORKSPACE', workspaceReason: 'CANONICAL_CHECKOUT', repository: REPO },
    ]);
    await declareWorkspace(a, 'git:github.com/acme/other');
    expect(await workspaceGuard()).toMatchObject([
      {
        kind: 'WORKSPACE',
        workspaceReason: 'REPOSITORY_MISMATCH',
        detail: expect.stringContaining('runs in git:github.com/acme/other'),
      },
    ]);
    await declareWorkspace(a, REPO);
    expect(await workspaceGuard()).toEqual([]);
    const frontier = await t.ok(
      `query($g: ID!) { frontier(goalId: $g) { ... on Frontier { workspace { repository worktree revision } } } }`,
      { g: goalId },
      a.token,
    );
    expect(frontier.frontier.workspace).toEqual({
      repository: REPO,
      worktree: 'LINKED',
      revision: 'a1b2c3d4e5f6',
    });
    const listed = await t.ok(
      `query($g: ID!) { workspaces(goalId: $g) { rows { agentId workspace { worktree } } scopeGap { reason } } }`,
      { g: goalId },
      a.token,
    );
    expect(listed.workspaces).toEqual({
      rows: [{ agentId: a.agentId, workspace: { worktree: 'LINKED' } }],
      scopeGap: null,
    });
  });

  it('keeps decision scope, capability and workspace independent: none implies or waives another', async () => {
    const { goalId, a, steward } = await team();
    const g = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'ACTION',
      scopeKey: 'deploy',
    });
    const work = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['deploy/**'],
      requiredCapability: 'network',
      requiredDecisionScopes: ['production:action:deploy'],
    });
    const kinds = async () => guardKinds(rowOf(await frontierOf(a.token, goalId), work.id));
    expect(await kinds()).toEqual(['DECISION_SCOPE', 'CAPABILITY', 'WORKSPACE']);
    // A linked worktree of the right repository clears the workspace guard, and only it.
    await declareWorkspace(a, REPO);
    expect(await kinds()).toEqual(['DECISION_SCOPE', 'CAPABILITY']);
    // The capability clears the capability guard; the gate still holds.
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['network'] } }, a.token);
    expect(await kinds()).toEqual(['DECISION_SCOPE']);
    // Granting the gate, with the workspace moved to the canonical checkout: only WORKSPACE.
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'GRANTED' } }, steward);
    await declareWorkspace(a, REPO, 'CANONICAL');
    expect(await kinds()).toEqual(['WORKSPACE']);
    // And dropping the capability again brings back CAPABILITY alone beside it.
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: [] } }, a.token);
    expect(await kinds()).toEqual(['CAPABILITY', 'WORKSPACE']);
  });

  it('is per agent, needs an agent for a steward, and refuses bad declarations, writing nothing', async () => {
    const { goalId, a, b, steward } = await team();
    const work = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    await declareWorkspace(a, REPO);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).runnable).toBe(true);
    expect(guardKinds(rowOf(await frontierOf(b.token, goalId), work.id))).toEqual(['WORKSPACE']);
    const onBehalf = await t.ok(
      DECLARE_WORKSPACE,
      {
        input: {
          goalId,
          agentId: b.agentId,
          repository: REPO,
          worktree: 'LINKED',
          revision: 'abcdef1',
        },
      },
      steward,
    );
    expect(onBehalf.declareWorkspace).toMatchObject({
      agentId: b.agentId,
      declaredBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    expect(rowOf(await frontierOf(b.token, goalId), work.id).runnable).toBe(true);

    const before = await counts(goalId);
    const input = { goalId, repository: REPO, worktree: 'LINKED', revision: 'abcdef1' };
    await expectBadInput(DECLARE_WORKSPACE, { input }, steward, 'must name the agent');
    await expectBadInput(
      DECLARE_WORKSPACE,
      { input: { ...input, revision: 'main' } },
      a.token,
      'revision must be a commit id',
    );
    await expectBadInput(
      DECLARE_WORKSPACE,
      { input: { ...input, repository: 'https://tok3n@github.com/acme/app' } },
      a.token,
      'with credentials is refused',
    );
    expect(await counts(goalId)).toEqual(before);
  });
});

describe(`vision and capabilities (${driver})`, () => {
  const SET_VISION = `mutation($input: SetVisionInput!) {
    setVision(input: $input) {
      __typename ... on Vision { agentId roleScope visionSummary acceptanceSummary replanTriggerSummary updatedBy { kind agentId } }
      ... on ScopeGap { reason } ... on UnknownAgent { agentId }
    }
  }`;
  const vision = (goalId: string, summary: string, extra: Record<string, unknown> = {}) => ({
    input: {
      goalId,
      roleScope: 'docs lane',
      visionSummary: summary,
      acceptanceSummary: 'all pages bilingual',
      replanTriggerSummary: 'a gate is denied',
      ...extra,
    },
  });

  it('keeps one bounded vision row per agent, replaced on each set', async () => {
    const { goalId, a, b, steward } = await team();
    await t.ok(SET_VISION, vision(goalId, 'first'), a.token);
    const second = await t.ok(SET_VISION, vision(goalId, 'second'), a.token);
    expect(second.setVision).toMatchObject({
      __typename: 'Vision',
      agentId: a.agentId,
      visionSummary: 'second',
    });
    const forB = await t.ok(
      SET_VISION,
      vision(goalId, 'b via steward', { agentId: b.agentId }),
      steward,
    );
    expect(forB.setVision).toMatchObject({
      agentId: b.agentId,
      updatedBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    const before = await counts(goalId);
    await expectBadInput(
      SET_VISION,
      vision(goalId, 'x'.repeat(501)),
      a.token,
      'visionSummary must be at most 500',
    );
    await expectBadInput(SET_VISION, vision(goalId, 'x'), steward, 'must name the agent');
    expect(await counts(goalId)).toEqual(before);

    const listed = await t.ok(
      `query($g: ID!) { visions(goalId: $g) { rows { agentId visionSummary } } }`,
      { g: goalId },
      b.token,
    );
    expect(listed.visions.rows).toEqual(
      [
        { agentId: a.agentId, visionSummary: 'second' },
        { agentId: b.agentId, visionSummary: 'b via steward' },
      ].sort((x, y) => x.agentId.localeCompare(y.agentId)),
    );
    const read = await visionsOfGoal(database.db, goalId);
    expect(read.map((v) => v.agentId).sort()).toEqual([a.agentId, b.agentId].sort());
  });

  it('declares capabilities per agent; capability grants no authority over a gate', async () => {
    const { goalId, a } = await team();
    const work = await todo(a.token, goalId, {
      requiredCapability: 'network',
      requiredDecisionScopes: ['public_claim:action:post'],
    });
    await gate(a.token, goalId, { kind: 'PUBLIC_CLAIM', granularity: 'ACTION', scopeKey: 'post' });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'DECISION_SCOPE',
      'CAPABILITY',
    ]);
    const set = await t.ok(
      SET_CAPABILITIES,
      { input: { goalId, capabilities: ['network', 'gpu', 'network'] } },
      a.token,
    );
    expect(set.setCapabilities).toEqual({
      __typename: 'AgentCapabilities',
      agentId: a.agentId,
      capabilities: ['gpu', 'network'],
    });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'DECISION_SCOPE',
    ]);
    await expectBadInput(
      SET_CAPABILITIES,
      { input: { goalId, capabilities: ['has space'] } },
      a.token,
      'may contain only',
    );
  });
});

describe(`authority and scope (${driver})`, () => {
  it('answers ScopeGap for another goal and for a goal that does not exist, writing nothing', async () => {
    const mine = await team();
    const theirs = await team();
    const foreign = await todo(theirs.a.token, theirs.goalId);
    const before = await counts(theirs.goalId);
    const missing = uid('goal');
    for (const goalId of [theirs.goalId, missing]) {
      const create = await t.ok(
        CREATE,
        { input: { goalId, title: 'x', taskClass: 'BLOCKER' } },
        mine.a.token,
      );
      expect(create.createTodo).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const claim = await t.ok(CLAIM, { input: { goalId, todoId: foreign.id } }, mine.a.token);
      expect(claim.claimTodo).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const frontier = await t.ok(FRONTIER, { goalId }, mine.a.token);
      expect(frontier.frontier).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const todos = await t.ok(TODOS, { goalId }, mine.a.token);
      expect(todos.todos).toMatchObject({
        rows: [],
        scopeGap: { reason: 'AUDIENCE_NOT_AUTHORIZED' },
      });
      const gates = await t.ok(GATES, { goalId }, mine.steward);
      expect(gates.gates).toMatchObject({
        rows: [],
        scopeGap: { reason: 'AUDIENCE_NOT_AUTHORIZED' },
      });
    }
    // A todo id from another goal is unknown in mine: ids never cross goals.
    const crossed = await t.ok(
      CLAIM,
      { input: { goalId: mine.goalId, todoId: foreign.id } },
      mine.a.token,
    );
    expect(crossed.claimTodo).toEqual({ __typename: 'UnknownTodo', todoId: foreign.id });
    await expectBadInput(
      CREATE,
      { input: { goalId: mine.goalId, title: 'x', taskClass: 'BLOCKER', dependsOn: [foreign.id] } },
      mine.a.token,
      'unknown todo',
    );
    expect(await counts(theirs.goalId)).toEqual(before);
  });

  it('keeps providers off the work graph entirely', async () => {
    const { goalId, a } = await team();
    const work = await todo(a.token, goalId);
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('tmux'),
      goalIds: [goalId],
    });
    const before = await counts(goalId);
    for (const [query, variables] of [
      [CREATE, { input: { goalId, title: 'x', taskClass: 'BLOCKER' } }],
      [CLAIM, { input: { goalId, todoId: work.id } }],
      [FRONTIER, { goalId, agentId: a.agentId }],
      [TODOS, { goalId }],
      [
        OPEN_GATE,
        { input: { goalId, kind: 'PRODUCTION', granularity: 'GOAL', scopeKey: 'x', reason: 'r' } },
      ],
    ] as const) {
      const result = await t.gql(query, variables, provider.token);
      expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const anonymous = await t.gql(
      CREATE,
      { input: { goalId, title: 'x', taskClass: 'BLOCKER' } },
      null,
    );
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await counts(goalId)).toEqual(before);
  });

  it('lets a delegated peer work in the other goal as itself', async () => {
    const home = await team();
    const other = await createGoal(t);
    await t.ok(
      `mutation($input: DelegateGoalInput!) { delegateGoal(input: $input) { __typename } }`,
      { input: { goalId: other, agentGoalId: home.goalId, agentId: home.a.agentId } },
    );
    const work = await todo(home.a.token, other);
    const claimed = await t.ok(CLAIM, { input: { goalId: other, todoId: work.id } }, home.a.token);
    expect(claimed.claimTodo.todo).toMatchObject({ claim: { agentId: home.a.agentId } });
    expect(rowOf(await frontierOf(home.a.token, other), work.id)).toMatchObject({ runnable: true });
  });
});
