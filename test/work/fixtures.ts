/**
 * The work graph's operations and fixtures, shared by the test files of test/work/ that talk
 * to the gateway: the documents they send, a team to act as, and reads of what was written.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { CreateTodoDocument } from '../../src/client/generated/graphql.ts';
import { rowsOf } from '../../src/db/sql.ts';
import { database, t } from '../support/gateway-per-file.ts';
import { type Operation, uid } from '../support/harness.ts';
import type { Peer } from '../support/team.ts';

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

const ACTION = (name: string, input = 'TodoActionInput') =>
  op(`mutation($input: ${input}!) { ${name}(input: $input) { ...R } }`);
export const CLAIM = op(`mutation($input: TodoActionInput!) {
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
export const COMPLETE = op(`mutation($input: CompleteTodoInput!) {
  completeTodo(input: $input) {
    __typename
    ... on CompletedTodo { todo { ...T } successor { ...T } }
    ... on ClaimedByOther { todoId owner }
    ... on IllegalTransition { todoId from attempted }
    ... on UnknownTodo { todoId }
    ... on ScopeGap { goalId reason }
  }
}`);
export const SET_DEPS = ACTION('setDependencies', 'SetDependenciesInput');
export const ACQUIRE = op(`mutation($input: AcquireLeaseInput!) {
  acquireLease(input: $input) {
    __typename ... on Lease { ...L } ... on LeaseHeld { lease { ...L } }
    ... on ClaimedByOther { owner } ... on IllegalTransition { from attempted }
  }
}`);
export const OPEN_GATE = op(`mutation($input: OpenGateInput!) {
  openGate(input: $input) { __typename ... on Gate { ...G } ... on ScopeGap { reason } }
}`);
export const RESOLVE_GATE = op(`mutation($input: ResolveGateInput!) {
  resolveGate(input: $input) {
    __typename ... on Gate { ...G } ... on GateNotOpen { gate { ...G } } ... on UnknownGate { gateId }
    ... on ScopeGap { reason }
  }
}`);
export const FRONTIER = `query($goalId: ID!, $agentId: ID, $runnable: Boolean, $limit: Int) {
  frontier(goalId: $goalId, agentId: $agentId, runnable: $runnable, limit: $limit) {
    __typename
    ... on Frontier {
      goalId agentId seq capabilities rowCount runnableCount omittedRowCount
      rows {
        runnable
        todo { id title status priority claimedBy }
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
export const SET_CAPABILITIES = `mutation($input: SetCapabilitiesInput!) {
  setCapabilities(input: $input) {
    __typename ... on AgentCapabilities { agentId capabilities } ... on UnknownAgent { agentId }
  }
}`;

// ---- fixtures ------------------------------------------------------------------------

export async function todo(
  token: string | null,
  goalId: string,
  input: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const data = await t.ok(
    CreateTodoDocument,
    { input: { goalId, title: uid('todo'), taskClass: 'ADVANCEMENT_TASK', ...input } },
    token,
  );
  expect(data.createTodo.__typename).toBe('Todo');
  return data.createTodo;
}

export async function gate(
  token: string | null,
  goalId: string,
  input: Record<string, unknown>,
): Promise<Record<string, any>> {
  const data = await t.ok(OPEN_GATE, { input: { goalId, reason: 'may we?', ...input } }, token);
  expect(data.openGate.__typename).toBe('Gate');
  return data.openGate;
}

export async function frontierOf(
  token: string | null,
  goalId: string,
  agentId?: string,
  selection: { runnable?: boolean; limit?: number } = {},
) {
  const data = await t.ok(FRONTIER, { goalId, agentId, ...selection }, token);
  expect(data.frontier.__typename).toBe('Frontier');
  return data.frontier as {
    seq: string;
    rowCount: number;
    runnableCount: number;
    omittedRowCount: number;
    capabilities: string[];
    rows: { runnable: boolean; todo: { id: string; status: string }; guards: any[] }[];
  };
}

export function rowOf(frontier: { rows: { todo: { id: string } }[] }, todoId: string): any {
  const row = frontier.rows.find((r) => r.todo.id === todoId);
  if (!row) throw new Error(`todo ${todoId} is not on the frontier`);
  return row;
}

export const guardKinds = (row: { guards: { kind: string }[] }) => row.guards.map((g) => g.kind);

/** Row counts of everything the work graph writes for a goal, and its sequence. */
export async function counts(goalId: string) {
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

export async function expectBadInput(
  query: Operation,
  variables: Record<string, unknown>,
  token: string | null,
  message: string,
) {
  const result = await t.gql(query, variables, token);
  expect(result.errors?.[0]?.message, JSON.stringify(variables)).toContain(message);
  expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
}

export const DECLARE_WORKSPACE = `mutation($input: DeclareWorkspaceInput!) {
  declareWorkspace(input: $input) {
    __typename
    ... on AgentWorkspace {
      goalId agentId workspace { repository worktree revision declaredAt } declaredBy { kind agentId }
    }
    ... on ScopeGap { reason } ... on UnknownAgent { agentId }
  }
}`;

export async function declareWorkspace(
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
