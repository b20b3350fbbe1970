/**
 * The agent-scoped evidence ledger (DESIGN §8): append-only events behind the privacy
 * boundary, the scoped read model an agent reads before it replans or hands off, replan
 * checkpoints that cite that read's digest, and the same scoped rows as a live stream.
 * Plain functions over (db, caller, input); no GraphQL here.
 *
 * Writes: every row goes through `appendEvent(tx, event)`, which screens its text
 * (privacy.ts), numbers it under the goal's `ledger` head lock held to commit, and rings
 * the doorbell. Work-graph transitions and gate changes call it inside their own
 * transaction, so a change and its row commit together or not at all.
 *
 * Scope of one agent's ledger: the five rules of DESIGN §8, plus goal-level rows
 *  1. its own rows (`agentId` is the agent);
 *  2. rows on todos it claims (any status: finished work keeps its history);
 *  3. rows on unclaimed live todos selected for its lane — the lane is its vision's
 *     `roleScope` read as relative path prefixes: a todo is in the lane when one of its
 *     `writeScope` entries equals a prefix or lies under it (`src/ledger` selects
 *     `src/ledger/**`); a roleScope with no path-like word selects nothing;
 *  4. material rows (status changes, gates, blockers, validations, projections, handoffs,
 *     replans) that change its next action: rows on a todo one of its live todos depends on
 *     or waits for (`todo_done:`), rows on a gate that covers a scope one of its live todos
 *     requires or that a `gate_resolved:` condition names, and rows that name it as
 *     `relatedAgentId` (a blocker waiting on it);
 *  5. handoffs to or from it;
 *  and goal-level rows, marked at write with a `goalChange` (route, acceptance, global gate,
 *  goal next action, replan obligation), which every agent sees. `relevanceOf` names the
 *  first that applies (handoffs first).
 * Everything else belongs to other agents and reaches this agent only compressed, in
 * `otherAgentFrontier`. Scope is judged against the work graph as it is at read time.
 */

import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Caller, CallerKind } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { LIMITS, oneOf, validateId, validateOptionalId, validateText } from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import { rowsOf, textArray } from '../db/sql.ts';
import type { Page, StreamHub } from '../events/hub.ts';
import { lockHead } from '../events/sequence.ts';
import { type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import { covers, parseDecisionScope, parseResumeCondition } from '../work/rules.ts';
import type { GateGranularity, GateKind, TodoStatus, Vision } from '../work/tables.ts';
import {
  moveWorkSeq,
  patchVision,
  resolveActor,
  type UnknownTodo,
  type VisionPatch,
} from '../work/work.ts';
import {
  appendEvent,
  eventOf,
  type LedgerEvent,
  type LedgerRelevance,
  refusalError,
} from './append.ts';
import { screenEvent } from './privacy.ts';
import {
  goalChanges,
  type LedgerEventKind,
  ledgerEventKinds,
  ledgerEventsTable,
  systemOnlyKinds,
} from './tables.ts';

export const SCHEMA_VERSION = 'agent_scoped_evidence_ledger_v0';
export const LEDGER_LIMITS = {
  defaultLimit: 30,
  maxLimit: 200,
  /** A checkpoint must cite a read of at least this many rows (or every row there is). */
  minCheckpointRows: 30,
  frontierRows: 100,
  streamPage: 500,
} as const;

// ---- recordEvent ---------------------------------------------------------------------

export interface RecordEventInput {
  goalId: string;
  eventKind: string;
  agentId?: string | null;
  todoId?: string | null;
  relatedAgentId?: string | null;
  classification?: string | null;
  status?: string | null;
  summary: string;
  evidenceRefs?: readonly string[] | null;
  goalChange?: string | null;
}

export type RecordEventResult = LedgerEvent | ScopeGap | UnknownAgent | UnknownTodo;

/** Kinds that change what someone does next when recorded by an agent or host. */
const materialKinds = new Set<LedgerEventKind>([
  'VALIDATION',
  'HANDOFF',
  'GATE',
  'BLOCKER',
  'PROJECTION',
]);

/**
 * Appends an event an agent or host records. A PEER records as itself (naming another
 * agent is FORBIDDEN); an ADMIN or STEWARD may name any active agent of the goal, or none
 * (a host's own row); only an ADMIN or STEWARD marks a row goal-level. The text is screened
 * first: a refusal is BAD_USER_INPUT and nothing is written.
 */
export async function recordEvent(
  db: Db,
  caller: Caller,
  input: RecordEventInput,
): Promise<RecordEventResult> {
  if (caller.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not record ledger events');
  }
  const goalId = validateId('goalId', input.goalId);
  const eventKind = oneOf('eventKind', input.eventKind, ledgerEventKinds);
  if (systemOnlyKinds.includes(eventKind)) {
    throw new InputError(
      `eventKind ${eventKind} is written by the gateway itself (${eventKind === 'REPLAN' ? 'recordReplanCheckpoint' : 'deliver'}), not by recordEvent`,
      'eventKind',
    );
  }
  const agentId = validateOptionalId('agentId', input.agentId);
  const todoId = validateOptionalId('todoId', input.todoId);
  const relatedAgentId = validateOptionalId('relatedAgentId', input.relatedAgentId);
  const goalChange =
    input.goalChange == null ? null : oneOf('goalChange', input.goalChange, goalChanges);
  if (goalChange !== null && caller.kind === 'PEER') {
    throw new ForbiddenError('only an ADMIN or STEWARD marks an event goal-level (goalChange)');
  }
  if (eventKind === 'HANDOFF' && relatedAgentId === null) {
    throw new InputError('a HANDOFF names the other agent in relatedAgentId', 'relatedAgentId');
  }
  const raw = {
    summary: input.summary,
    evidenceRefs: [...(input.evidenceRefs ?? [])],
    status: input.status ?? null,
    classification: input.classification ?? null,
  };
  const screened = screenEvent(raw);
  if (!screened.ok) throw refusalError(screened);

  return db.transaction(async (tx) => {
    const gap = await checkGoalScope(tx, caller, goalId);
    if (gap) return gap;
    const resolved = await resolveActor(tx, caller, goalId, agentId);
    if (resolved.type === 'UnknownAgent') return resolved;
    const actor = resolved.actor;
    if (actor.agentId === null && todoId === null && relatedAgentId === null && !goalChange) {
      throw new InputError(
        'an event must name an agent, a todo, a relatedAgentId or a goalChange: otherwise no ledger would show it',
        'agentId',
      );
    }
    if (relatedAgentId !== null && relatedAgentId === actor.agentId) {
      throw new InputError(
        'relatedAgentId names the other agent, not the one recording',
        'relatedAgentId',
      );
    }
    const [found] = rowsOf<{ todo: boolean; related: boolean }>(
      await tx.execute(sql`select
        ${todoId === null ? sql`true` : sql`exists (select 1 from todos where goal_id = ${goalId} and id = ${todoId})`} as todo,
        ${relatedAgentId === null ? sql`true` : activeAgentSql(goalId, relatedAgentId)} as related`),
    );
    if (!found?.todo) {
      return { type: 'UnknownTodo', goalId, todoId: todoId as string } satisfies UnknownTodo;
    }
    if (!found.related) return unknownAgent(goalId, relatedAgentId as string);
    return appendEvent(tx, {
      goalId,
      source: 'RECORDED',
      eventKind,
      agentId: actor.agentId,
      todoId,
      relatedAgentId,
      ...raw,
      material: materialKinds.has(eventKind),
      goalChange,
      recordedBy: actor,
    });
  });
}

// ---- whose ledger: access -------------------------------------------------------------

/**
 * Who may read `agentId`'s ledger in `goalId`. The goal first (a typed gap that says nothing
 * about whether the goal exists); then the agent must be one the goal knows — registered
 * (retired ones keep their history) or delegated — or the read fails closed with
 * BAD_USER_INPUT, never falling back to another agent; then a PEER reads only its own
 * (`NOT_OWN_LEDGER`), an ADMIN or STEWARD any agent's of a goal in scope.
 */
async function checkLedgerAccess(
  q: Queryable,
  caller: Caller | null,
  goalId: string,
  agentId: string,
): Promise<ScopeGap | LedgerContext> {
  if (caller?.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not read evidence ledgers');
  }
  const gap = await checkGoalScope(q, caller, goalId);
  if (gap) return gap;
  // Everything else a read needs before its scope, in the same round trip: whether the goal
  // knows the agent, its roleScope, the ledger head, and the stamp of everything the
  // other-agent frontier is computed from (ledger head, work sequence, registry).
  const [context] = rowsOf<{
    known: boolean;
    active: boolean;
    role_scope: string | null;
    head: string | null;
    stamp: string;
  }>(
    await q.execute(sql`select
      exists (select 1 from agents where goal_id = ${goalId} and agent_id = ${agentId})
      or exists (select 1 from delegations where goal_id = ${goalId} and agent_id = ${agentId})
      as known,
      ${activeAgentSql(goalId, agentId)} as active,
      (select role_scope from agent_visions where goal_id = ${goalId} and agent_id = ${agentId})
      as role_scope,
      (select seq::text from stream_heads where goal_id = ${goalId} and stream = 'ledger')
      as head,
      concat_ws(':',
        (select seq from stream_heads where goal_id = ${goalId} and stream = 'ledger'),
        (select seq from work_seqs where goal_id = ${goalId}),
        (select concat_ws(':', count(*), max(registered_at), max(retired_at))
          from agents where goal_id = ${goalId}),
        (select count(*) from delegations where goal_id = ${goalId})) as stamp`),
  );
  if (!context?.known) {
    throw new InputError(
      `agentId "${agentId}" is not an agent registered in goal "${goalId}": pass a registered agent id (a host surface such as codex, codex-cli or claude-code is not an agent id)`,
      'agentId',
    );
  }
  if (caller?.kind === 'PEER' && caller.agentId !== agentId) {
    return { type: 'ScopeGap', goalId, reason: 'NOT_OWN_LEDGER' };
  }
  return {
    type: 'LedgerContext',
    active: context.active,
    roleScope: context.role_scope,
    headSeq: BigInt(context.head ?? 0),
    frontierStamp: context.stamp,
  };
}

/** What a permitted read learns with the access check. */
interface LedgerContext {
  readonly type: 'LedgerContext';
  /** Whether the agent is an active member (a retired agent keeps its ledger, not its seat). */
  readonly active: boolean;
  readonly roleScope: string | null;
  readonly headSeq: bigint;
  /** Changes whenever anything the other-agent frontier is computed from changes. */
  readonly frontierStamp: string;
}

// ---- one agent's scope ---------------------------------------------------------------

/** The sets the scoping rules test rows against, from the work graph as it is now. */
interface AgentScope {
  readonly goalId: string;
  readonly agentId: string;
  /** Path prefixes from the agent's vision roleScope (rule 3). */
  readonly lanePrefixes: string[];
  readonly claimed: Set<string>;
  readonly lane: Set<string>;
  /** Todos the agent's live work depends on or waits for (rule 4). */
  readonly dependencies: Set<string>;
  /** Gates that cover a scope the agent's live work requires, or that it waits for (rule 4). */
  readonly gates: Set<string>;
}

const LANE_WORD = /^[A-Za-z0-9._-][A-Za-z0-9._/*-]*$/;

/** The path prefixes a roleScope names: its words that look like relative paths, without trailing `/`, `/*` or `/**`. */
function lanePrefixesOf(roleScope: string | null | undefined): string[] {
  if (!roleScope) return [];
  const prefixes = roleScope
    .split(/[\s,;]+/)
    .filter((word) => LANE_WORD.test(word) && !word.split('/').includes('..'))
    .map((word) => word.replace(/(\/\*{1,2})+$/, '').replace(/\/+$/, ''))
    .filter((word) => word.length > 0 && word !== '.' && !word.includes('*'));
  return [...new Set(prefixes)].sort();
}

/** The agent's scope; `roleScope` when the caller read it already (undefined: read it here). */
async function loadAgentScope(
  q: Queryable,
  goalId: string,
  agentId: string,
  roleScope?: string | null,
): Promise<AgentScope> {
  if (roleScope === undefined) {
    const [vision] = rowsOf<{ role_scope: string }>(
      await q.execute(
        sql`select role_scope from agent_visions where goal_id = ${goalId} and agent_id = ${agentId}`,
      ),
    );
    roleScope = vision?.role_scope ?? null;
  }
  const lanePrefixes = lanePrefixesOf(roleScope);
  const laneClause =
    lanePrefixes.length === 0
      ? sql`false`
      : sql`(t.claimed_by is null and t.status in ('OPEN', 'DEFERRED') and exists (
          select 1 from unnest(t.write_scope) ws, unnest(${textArray(lanePrefixes)}) p
          where ws = p or starts_with(ws, p || '/')))`;
  const [todos, gates] = await Promise.all([
    q.execute(sql`select t.id, t.claimed_by = ${agentId} as claimed, t.status,
        array_to_string(t.depends_on, ',') as depends_on,
        array_to_string(t.resume_when, ',') as resume_when,
        array_to_string(t.required_decision_scopes, ',') as required_decision_scopes
      from todos t
      where t.goal_id = ${goalId} and (t.claimed_by = ${agentId} or ${laneClause})`),
    q.execute(sql`select id, kind, granularity, scope_key from gates where goal_id = ${goalId}`),
  ]);
  const list = (joined: string) => (joined === '' ? [] : joined.split(','));
  const claimed = new Set<string>();
  const lane = new Set<string>();
  const dependencies = new Set<string>();
  const gateIds = new Set<string>();
  const required: ReturnType<typeof parseDecisionScope>[] = [];
  for (const todo of rowsOf<{
    id: string;
    claimed: boolean;
    status: TodoStatus;
    depends_on: string;
    resume_when: string;
    required_decision_scopes: string;
  }>(todos)) {
    (todo.claimed ? claimed : lane).add(todo.id);
    if (todo.status !== 'OPEN' && todo.status !== 'DEFERRED') continue;
    for (const id of list(todo.depends_on)) dependencies.add(id);
    for (const text of list(todo.resume_when)) {
      const condition = parseResumeCondition('resumeWhen', text);
      if (condition.kind === 'todo_done') dependencies.add(condition.todoId);
      if (condition.kind === 'gate_resolved') gateIds.add(condition.gateId);
    }
    for (const text of list(todo.required_decision_scopes)) {
      required.push(parseDecisionScope('requiredDecisionScopes', text));
    }
  }
  for (const gate of rowsOf<{
    id: string;
    kind: GateKind;
    granularity: GateGranularity;
    scope_key: string;
  }>(gates)) {
    const scope = { kind: gate.kind, granularity: gate.granularity, scopeKey: gate.scope_key };
    if (required.some((r) => covers(scope, r))) gateIds.add(gate.id);
  }
  for (const id of [...claimed, ...lane]) dependencies.delete(id);
  return { goalId, agentId, lanePrefixes, claimed, lane, dependencies, gates: gateIds };
}

/** The first scoping rule a row meets for the scope's agent, or null when it is another agent's. */
function relevanceOf(
  scope: AgentScope,
  row: Pick<
    LedgerEvent,
    'eventKind' | 'agentId' | 'relatedAgentId' | 'todoId' | 'gateId' | 'material' | 'goalChange'
  >,
): LedgerRelevance | null {
  const me = scope.agentId;
  if (row.eventKind === 'HANDOFF' && (row.agentId === me || row.relatedAgentId === me)) {
    return 'HANDOFF';
  }
  if (row.agentId === me) return 'OWN';
  if (row.todoId !== null && scope.claimed.has(row.todoId)) return 'CLAIMED_TODO';
  if (row.todoId !== null && scope.lane.has(row.todoId)) return 'LANE_TODO';
  if (row.relatedAgentId === me) return 'NEXT_ACTION';
  if (
    row.material &&
    ((row.todoId !== null && scope.dependencies.has(row.todoId)) ||
      (row.gateId !== null && scope.gates.has(row.gateId)))
  ) {
    return 'NEXT_ACTION';
  }
  if (row.goalChange !== null) return 'GOAL_LEVEL';
  return null;
}

/** The same rules as SQL over ledger_events, one indexed arm per rule. */
function scopeSql(scope: AgentScope): SQL {
  const e = ledgerEventsTable;
  const work = [...scope.claimed, ...scope.lane];
  const nextAction = [
    ...(scope.dependencies.size > 0 ? [inArray(e.todoId, [...scope.dependencies])] : []),
    ...(scope.gates.size > 0 ? [inArray(e.gateId, [...scope.gates])] : []),
  ];
  return or(
    eq(e.agentId, scope.agentId),
    eq(e.relatedAgentId, scope.agentId),
    isNotNull(e.goalChange),
    ...(work.length > 0 ? [inArray(e.todoId, work)] : []),
    ...(nextAction.length > 0 ? [and(e.material, or(...nextAction))] : []),
  ) as SQL;
}

// ---- the read model ------------------------------------------------------------------

export interface LedgerFilters {
  readonly todoId: string | null;
  readonly eventKind: LedgerEventKind | null;
  readonly since: Date | null;
  readonly before: string | null;
  readonly limit: number;
  readonly includeOtherAgentFrontier: boolean;
}

export interface EvidenceLedgerArgs {
  goalId: string;
  agentId: string;
  todoId?: string | null;
  since?: Date | null;
  eventKind?: string | null;
  limit?: number | null;
  before?: string | null;
  includeOtherAgentFrontier?: boolean | null;
}

export const handoffStates = ['NONE', 'OUTGOING', 'INCOMING'] as const;
export type HandoffState = (typeof handoffStates)[number];

export interface OtherAgentFrontierRow {
  readonly agentId: string;
  readonly visionSummary: string | null;
  readonly topTodoId: string | null;
  readonly topTodo: string | null;
  readonly handoffState: HandoffState;
  readonly latestMaterialAt: Date | null;
}

export const ledgerReadPurposes = ['AUTONOMOUS_REPLAN', 'SUCCESSOR_REPLAN', 'HANDOFF'] as const;
export type LedgerReadPurpose = (typeof ledgerReadPurposes)[number];

export interface RequiredRead {
  readonly query: string;
  readonly reason: string;
}

export interface EvidenceLedgerPacket {
  readonly schemaVersion: typeof SCHEMA_VERSION;
  readonly goalId: string;
  readonly agentId: string;
  readonly generatedAt: Date;
  readonly source: { eventLog: boolean; workGraph: boolean; deliveries: boolean };
  readonly scope: {
    audience: CallerKind | null;
    currentAgentDetail: boolean;
    otherAgentDetail: 'COMPRESSED_FRONTIER' | 'OMITTED';
    lanePrefixes: string[];
  };
  readonly filters: LedgerFilters;
  /** Oldest first: the newest `limit` rows of the agent's scope that pass the filters. */
  readonly events: LedgerEvent[];
  readonly page: { headSeq: bigint; olderCursor: bigint | null; hasOlder: boolean };
  readonly otherAgentFrontier: OtherAgentFrontierRow[];
  readonly omittedFrontierRowCount: number;
  readonly readerHints: { requiredBefore: LedgerReadPurpose[]; nextRequiredReads: RequiredRead[] };
  readonly digest: string;
  readonly scopeGap: ScopeGap | null;
}

function validateFilters(args: EvidenceLedgerArgs): LedgerFilters {
  const limit = args.limit ?? LEDGER_LIMITS.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > LEDGER_LIMITS.maxLimit) {
    throw new InputError(`limit must be an integer from 1 to ${LEDGER_LIMITS.maxLimit}`, 'limit');
  }
  const since = args.since ?? null;
  if (since !== null && Number.isNaN(since.getTime())) {
    throw new InputError('since must be a valid time', 'since');
  }
  const before = args.before ?? null;
  if (before !== null && !/^\d{1,19}$/.test(before)) {
    throw new InputError('before must be a Seq (a decimal string)', 'before');
  }
  return {
    todoId: validateOptionalId('todoId', args.todoId),
    eventKind: args.eventKind == null ? null : oneOf('eventKind', args.eventKind, ledgerEventKinds),
    since,
    before,
    limit,
    includeOtherAgentFrontier: args.includeOtherAgentFrontier ?? true,
  };
}

const isFiltered = (f: LedgerFilters) =>
  f.todoId !== null || f.eventKind !== null || f.since !== null || f.before !== null;

/**
 * The scoped read model of DESIGN §8, from one snapshot: the newest `limit` rows of the
 * agent's scope (oldest first), keyset-paged with `before`, the other agents compressed into
 * their frontier, reader hints, and the digest of the rows.
 */
export async function evidenceLedger(
  db: Db,
  caller: Caller | null,
  args: EvidenceLedgerArgs,
  frontiers: FrontierCache | null = null,
): Promise<EvidenceLedgerPacket> {
  const goalId = validateId('goalId', args.goalId);
  const agentId = validateId('agentId', args.agentId);
  const filters = validateFilters(args);
  return db.transaction(
    async (tx) => {
      const base = {
        schemaVersion: SCHEMA_VERSION,
        goalId,
        agentId,
        generatedAt: new Date(),
        source: { eventLog: true, workGraph: true, deliveries: false },
        filters,
      } as const;
      const access = await checkLedgerAccess(tx, caller, goalId, agentId);
      if (access.type === 'ScopeGap') {
        return {
          ...base,
          scope: {
            audience: caller?.kind ?? null,
            currentAgentDetail: false,
            otherAgentDetail: 'OMITTED',
            lanePrefixes: [],
          },
          events: [],
          page: { headSeq: 0n, olderCursor: null, hasOlder: false },
          otherAgentFrontier: [],
          omittedFrontierRowCount: 0,
          readerHints: { requiredBefore: [...ledgerReadPurposes], nextRequiredReads: [] },
          digest: digestOf(goalId, agentId, []),
          scopeGap: access,
        } satisfies EvidenceLedgerPacket;
      }
      // The frontier does not depend on the scope: it is sent along with the scope reads.
      const frontierRead = filters.includeOtherAgentFrontier
        ? otherAgentFrontier(tx, goalId, agentId, access, frontiers)
        : Promise.resolve({ rows: [], omitted: 0 });
      frontierRead.catch(() => {}); // awaited below; a failure aborts the transaction anyway
      const [scope, blocking] = await Promise.all([
        loadAgentScope(tx, goalId, agentId, access.roleScope),
        filters.todoId === null ? null : blockingGates(tx, goalId, filters.todoId),
      ]);
      const [page, frontier] = await Promise.all([
        scopedRows(tx, scope, filters, blocking),
        frontierRead,
      ]);
      const headSeq = access.headSeq;
      const events = [...page.newestFirst].reverse();
      return {
        ...base,
        scope: {
          audience: caller?.kind ?? null,
          currentAgentDetail: true,
          otherAgentDetail: filters.includeOtherAgentFrontier ? 'COMPRESSED_FRONTIER' : 'OMITTED',
          lanePrefixes: scope.lanePrefixes,
        },
        events,
        page: {
          headSeq,
          olderCursor: page.hasOlder ? (events[0]?.seq ?? null) : null,
          hasOlder: page.hasOlder,
        },
        otherAgentFrontier: frontier.rows,
        omittedFrontierRowCount: frontier.omitted,
        readerHints: readerHints(goalId, agentId, filters, events, page.hasOlder),
        digest: digestOf(goalId, agentId, page.newestFirst),
        scopeGap: null,
      } satisfies EvidenceLedgerPacket;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Gates whose rows block `todoId`: covering a scope it requires, or named by a `gate_resolved:` condition. */
async function blockingGates(tx: Tx, goalId: string, todoId: string): Promise<string[]> {
  const [todo] = rowsOf<{ required: string[]; resume: string[]; gates: string[] }>(
    await tx.execute(sql`select
        array_to_string(required_decision_scopes, ',') as required,
        array_to_string(resume_when, ',') as resume,
        array(select g.id || ',' || g.kind || ',' || g.granularity || ',' || g.scope_key
          from gates g where g.goal_id = ${goalId}) as gates
      from todos where goal_id = ${goalId} and id = ${todoId}`),
  );
  if (!todo) throw new InputError(`unknown todo in this goal: ${todoId}`, 'todoId');
  const list = (joined: unknown) =>
    typeof joined === 'string' && joined !== '' ? joined.split(',') : [];
  const required = list(todo.required).map((s) => parseDecisionScope('todoId', s));
  const ids = new Set(
    list(todo.resume)
      .map((c) => parseResumeCondition('todoId', c))
      .flatMap((c) => (c.kind === 'gate_resolved' ? [c.gateId] : [])),
  );
  for (const packed of todo.gates) {
    const [id, kind, granularity, scopeKey] = packed.split(',') as [
      string,
      GateKind,
      GateGranularity,
      string,
    ];
    if (required.some((r) => covers({ kind, granularity, scopeKey }, r))) ids.add(id);
  }
  return [...ids];
}

/**
 * The newest `limit` rows of the scope that pass the filters, newest first, plus whether
 * older ones exist. One statement, keyset-paged on (goal_id, seq): on a large goal it walks
 * the primary key backwards from the cursor and stops after `limit + 1` matches, with no
 * sort and no OFFSET.
 */
async function scopedRows(
  q: Queryable,
  scope: AgentScope,
  filters: Pick<LedgerFilters, 'todoId' | 'eventKind' | 'since' | 'before' | 'limit'>,
  blocking: string[] | null,
): Promise<{ newestFirst: LedgerEvent[]; hasOlder: boolean }> {
  const e = ledgerEventsTable;
  const conditions: (SQL | undefined)[] = [eq(e.goalId, scope.goalId), scopeSql(scope)];
  if (filters.before !== null) conditions.push(lt(e.seq, BigInt(filters.before)));
  if (filters.eventKind !== null) conditions.push(eq(e.eventKind, filters.eventKind));
  if (filters.since !== null) {
    // The time index finds where `since` falls in the sequence, so the walk stops there.
    conditions.push(
      gt(e.recordedAt, filters.since),
      gt(
        e.seq,
        sql`coalesce((select s.seq from ledger_events s where s.goal_id = ${scope.goalId}
          and s.recorded_at <= ${filters.since.toISOString()}::timestamptz
          order by s.recorded_at desc limit 1), 0)`,
      ),
    );
  }
  if (filters.todoId !== null) {
    const goalBlockers = and(
      isNotNull(e.goalChange),
      or(
        and(eq(e.eventKind, 'BLOCKER'), sql`${e.todoId} is null`),
        ...(blocking && blocking.length > 0 ? [inArray(e.gateId, blocking)] : []),
      ),
    );
    conditions.push(or(eq(e.todoId, filters.todoId), goalBlockers));
  }
  const rows = await q
    .select()
    .from(e)
    .where(and(...conditions))
    .orderBy(desc(e.seq))
    .limit(filters.limit + 1);
  const hasOlder = rows.length > filters.limit;
  return {
    newestFirst: rows.slice(0, filters.limit).map((row) => {
      const event = eventOf(row);
      return { ...event, relevance: relevanceOf(scope, event) };
    }),
    hasOlder,
  };
}

/** Every active agent of a goal, compressed, as computed for one frontier stamp. */
interface GoalFrontier {
  readonly rows: OtherAgentFrontierRow[];
  /** Active agents in the goal; more than rows.length when the read was cut at the cap. */
  readonly total: number;
}

/**
 * Goal frontiers of recently read goals, each kept with the stamp it was computed for (the
 * goal's ledger head, work sequence and registry: everything it is computed from). A read
 * whose stamp, taken in its own snapshot, matches gets the same rows a recomputation would
 * give; any change of the goal moves the stamp. One per gateway instance, bounded.
 */
export class FrontierCache {
  private readonly entries = new Map<string, { stamp: string; frontier: GoalFrontier }>();

  constructor(private readonly capacity = 1000) {}

  get(goalId: string, stamp: string): GoalFrontier | null {
    const entry = this.entries.get(goalId);
    if (!entry || entry.stamp !== stamp) return null;
    this.entries.delete(goalId); // most recently used last
    this.entries.set(goalId, entry);
    return entry.frontier;
  }

  set(goalId: string, stamp: string, frontier: GoalFrontier): void {
    this.entries.delete(goalId);
    this.entries.set(goalId, { stamp, frontier });
    const oldest = this.entries.keys().next().value;
    if (this.entries.size > this.capacity && oldest !== undefined) this.entries.delete(oldest);
  }
}

/** Every active agent of the goal except `agentId`, at most the cap, from the cache or the database. */
async function otherAgentFrontier(
  q: Queryable,
  goalId: string,
  agentId: string,
  context: LedgerContext,
  cache: FrontierCache | null,
): Promise<{ rows: OtherAgentFrontierRow[]; omitted: number }> {
  let frontier = cache?.get(goalId, context.frontierStamp) ?? null;
  if (!frontier) {
    frontier = await goalFrontier(q, goalId);
    cache?.set(goalId, context.frontierStamp, frontier);
  }
  const rows = frontier.rows
    .filter((row) => row.agentId !== agentId)
    .slice(0, LEDGER_LIMITS.frontierRows);
  return { rows, omitted: frontier.total - (context.active ? 1 : 0) - rows.length };
}

/**
 * Every active agent of the goal (up to the cap plus one, so that the reader's own row can be
 * left out), compressed: its vision summary, its top claimed live todo, whether a handoff is
 * pending (see HandoffState), and when it last recorded a material row. Two statements;
 * each agent costs two index probes, whatever the size of the ledger.
 */
async function goalFrontier(q: Queryable, goalId: string): Promise<GoalFrontier> {
  const cap = LEDGER_LIMITS.frontierRows + 1;
  const active = sql`select agent_id from agents where goal_id = ${goalId} and retired_at is null
    union
    select d.agent_id from delegations d
      join agents a on a.goal_id = d.agent_goal_id and a.agent_id = d.agent_id
      where d.goal_id = ${goalId} and a.retired_at is null`;
  const [agentRows, topRows] = await Promise.all([
    // Two index probes per agent: its latest material row, and the latest handoff naming it.
    q.execute(sql`select p.agent_id, v.vision_summary, m.seq::text as material_seq,
        m.event_kind = 'HANDOFF' as material_is_handoff,
        to_char(m.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as latest_material_at,
        (select e.seq::text from ledger_events e
          where e.goal_id = ${goalId} and e.related_agent_id = p.agent_id
            and e.event_kind = 'HANDOFF'
          order by e.seq desc limit 1) as handoff_in_seq
      from (${active} order by agent_id limit ${cap + 1}) p
      left join agent_visions v on v.goal_id = ${goalId} and v.agent_id = p.agent_id
      left join lateral (select e.seq, e.event_kind, e.recorded_at from ledger_events e
          where e.goal_id = ${goalId} and e.agent_id = p.agent_id and e.material
          order by e.seq desc limit 1) m on true
      order by p.agent_id`),
    // Each agent's highest-priority live claimed todo, from one pass over the goal's todos.
    q.execute(sql`select distinct on (claimed_by) claimed_by, id, title from todos
      where goal_id = ${goalId} and status in ('OPEN', 'DEFERRED') and claimed_by is not null
      order by claimed_by, priority desc, created_at, id`),
  ]);
  const rows = rowsOf<{
    agent_id: string;
    vision_summary: string | null;
    material_seq: string | null;
    material_is_handoff: boolean | null;
    latest_material_at: string | null;
    handoff_in_seq: string | null;
  }>(agentRows);
  const tops = new Map(
    rowsOf<{ claimed_by: string; id: string; title: string }>(topRows).map((t) => [
      t.claimed_by,
      t,
    ]),
  );
  let total = rows.length;
  if (rows.length > cap) {
    const [count] = rowsOf<{ n: number }>(
      await q.execute(sql`select count(*)::int as n from (${active}) a`),
    );
    total = count?.n ?? rows.length;
  }
  const seqOf = (value: string | null) => (value === null ? -1n : BigInt(value));
  return {
    total,
    rows: rows.slice(0, cap).map((row) => {
      const top = tops.get(row.agent_id);
      return {
        agentId: row.agent_id,
        visionSummary: row.vision_summary,
        topTodoId: top?.id ?? null,
        topTodo: top?.title ?? null,
        handoffState:
          seqOf(row.handoff_in_seq) > seqOf(row.material_seq)
            ? 'INCOMING'
            : row.material_is_handoff
              ? 'OUTGOING'
              : 'NONE',
        latestMaterialAt: row.latest_material_at === null ? null : new Date(row.latest_material_at),
      };
    }),
  };
}

function ledgerQuery(goalId: string, agentId: string, extra = ''): string {
  return `evidenceLedger(goalId: ${JSON.stringify(goalId)}, agentId: ${JSON.stringify(agentId)}${extra})`;
}

/**
 * What must still be read before an autonomous or successor replan or a handoff: the
 * unfiltered read when this one was filtered or paged (a checkpoint cites the digest of an
 * unfiltered first page), the next older page when this page holds no replan checkpoint of
 * the agent and older rows exist, and the frontier when it was left out.
 */
function readerHints(
  goalId: string,
  agentId: string,
  filters: LedgerFilters,
  events: readonly LedgerEvent[],
  hasOlder: boolean,
): EvidenceLedgerPacket['readerHints'] {
  const reads: RequiredRead[] = [];
  if (isFiltered(filters)) {
    reads.push({
      query: ledgerQuery(goalId, agentId),
      reason:
        'this read was filtered or paged; a replan checkpoint cites the digest of an unfiltered first page',
    });
  }
  const checkpointed = events.some((e) => e.eventKind === 'REPLAN' && e.agentId === agentId);
  if (hasOlder && !checkpointed && events[0]) {
    reads.push({
      query: ledgerQuery(goalId, agentId, `, before: "${events[0].seq}"`),
      reason:
        'no replan checkpoint of this agent is on this page and older rows exist: read back to the last checkpoint',
    });
  }
  if (!filters.includeOtherAgentFrontier) {
    reads.push({
      query: ledgerQuery(goalId, agentId, ', includeOtherAgentFrontier: true'),
      reason: "a handoff needs the other agents' compressed frontier",
    });
  }
  return { requiredBefore: [...ledgerReadPurposes], nextRequiredReads: reads };
}

// ---- the digest ----------------------------------------------------------------------

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function canonicalRow(e: LedgerEvent): string {
  return JSON.stringify([
    e.seq.toString(),
    e.recordedAt.toISOString(),
    e.source,
    e.eventKind,
    e.agentId,
    e.todoId,
    e.gateId,
    e.relatedAgentId,
    e.classification,
    e.status,
    e.summary,
    e.evidenceRefs,
    e.material,
    e.goalChange,
    e.citedDigest,
    [
      e.boundary.rawLogsRecorded,
      e.boundary.rawTrajectoryRecorded,
      e.boundary.credentialValuesRecorded,
      e.boundary.absolutePathsRecorded,
      e.boundary.redactionCount,
    ],
    e.recordedBy.kind,
    e.recordedBy.agentId,
    e.relevance,
  ]);
}

/**
 * Digests of every prefix of `newestFirst`: entry L is the digest of its first L rows. The
 * canonical serialization is a header line naming the schema, goal and agent, then one
 * JSON line per row, newest first; so a page of L rows is a prefix of a page of L + 1 and
 * all of them cost one pass.
 */
function prefixDigests(goalId: string, agentId: string, newestFirst: readonly LedgerEvent[]) {
  const hash = createHash('sha256').update(JSON.stringify([SCHEMA_VERSION, goalId, agentId]));
  const digests = [`sha256:${hash.copy().digest('hex')}`];
  for (const row of newestFirst) {
    hash.update(`\n${canonicalRow(row)}`);
    digests.push(`sha256:${hash.copy().digest('hex')}`);
  }
  return digests;
}

/** The stable hash of a read's rows: sha256 of their canonical serialization. */
function digestOf(goalId: string, agentId: string, newestFirst: readonly LedgerEvent[]): string {
  return prefixDigests(goalId, agentId, newestFirst).at(-1) as string;
}

// ---- replan checkpoints --------------------------------------------------------------

export const replanKinds = ['PATCHED', 'PRESERVED', 'RETIRED', 'SUPERSEDED'] as const;
export type ReplanKind = (typeof replanKinds)[number];

export interface ReplanDelta {
  summary: string;
  evidenceRefs?: readonly string[] | null;
  roleScope?: string | null;
  visionSummary?: string | null;
  acceptanceSummary?: string | null;
  replanTriggerSummary?: string | null;
}

export interface RecordReplanCheckpointInput {
  goalId: string;
  agentId: string;
  digest: string;
  kind: string;
  delta: ReplanDelta;
}

export interface ReplanCheckpoint {
  readonly type: 'ReplanCheckpoint';
  readonly event: LedgerEvent;
  /** The vision after a PATCHED checkpoint; null otherwise. */
  readonly vision: Vision | null;
}

export interface LedgerDigestMismatch {
  readonly type: 'LedgerDigestMismatch';
  readonly goalId: string;
  readonly agentId: string;
  readonly citedDigest: string;
  readonly requiredRead: RequiredRead;
}

export type RecordReplanCheckpointResult =
  | ReplanCheckpoint
  | LedgerDigestMismatch
  | ScopeGap
  | UnknownAgent;

/**
 * Records a replan checkpoint that cites the digest of a ledger read. The digest is
 * verified by recomputation, not looked up: inside the write transaction, holding the
 * goal's ledger head lock (so no row can land in between), the agent's unfiltered newest
 * rows are read again and the digest must equal that of the newest L of them for some L
 * from min(30, all there are) to 200 — that is, of an unfiltered first page read with a
 * limit of at least the default, still current. A stale, filtered-only, foreign or made-up
 * digest is `LedgerDigestMismatch` and nothing is written. Accepted, it appends a REPLAN
 * row and, for PATCHED, applies the delta's vision fields in the same transaction.
 */
export async function recordReplanCheckpoint(
  db: Db,
  caller: Caller,
  input: RecordReplanCheckpointInput,
): Promise<RecordReplanCheckpointResult> {
  if (caller.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not record replan checkpoints');
  }
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateId('agentId', input.agentId);
  const kind = oneOf('kind', input.kind, replanKinds);
  if (!DIGEST.test(input.digest)) {
    throw new InputError(
      'digest must be the sha256:<64 hex> digest evidenceLedger returned',
      'digest',
    );
  }
  const delta = input.delta;
  const text = {
    summary: delta.summary,
    evidenceRefs: [...(delta.evidenceRefs ?? [])],
    classification: kind.toLowerCase(),
  };
  const screened = screenEvent(text);
  if (!screened.ok) throw refusalError({ ...screened, field: `delta.${screened.field}` });
  const visionText = (name: keyof VisionPatch, max: number) => {
    const value = delta[name];
    return value == null ? null : validateText(`delta.${name}`, value, max);
  };
  const patch: VisionPatch = {
    roleScope: visionText('roleScope', LIMITS.roleScope),
    visionSummary: visionText('visionSummary', LIMITS.summary),
    acceptanceSummary: visionText('acceptanceSummary', LIMITS.summary),
    replanTriggerSummary: visionText('replanTriggerSummary', LIMITS.summary),
  };
  const patches = Object.values(patch).some((v) => v !== null);
  if (kind === 'PATCHED' && !patches) {
    throw new InputError(
      'a PATCHED checkpoint carries at least one vision field in delta',
      'delta',
    );
  }
  if (kind !== 'PATCHED' && patches) {
    throw new InputError(
      `a ${kind} checkpoint does not change the vision: only PATCHED does`,
      'delta',
    );
  }

  return transactOrRefuse<RecordReplanCheckpointResult>(db, async (tx) => {
    const gap = await checkGoalScope(tx, caller, goalId);
    if (gap) return gap;
    const resolved = await resolveActor(tx, caller, goalId, agentId);
    if (resolved.type === 'UnknownAgent') return resolved;
    const actor = resolved.actor;
    // Lock order everywhere: the work sequence before the ledger head.
    if (kind === 'PATCHED') await moveWorkSeq(tx, goalId);
    await lockHead(tx, goalId, 'ledger');
    const scope = await loadAgentScope(tx, goalId, agentId);
    const current = await scopedRows(
      tx,
      scope,
      { todoId: null, eventKind: null, since: null, before: null, limit: LEDGER_LIMITS.maxLimit },
      null,
    );
    const digests = prefixDigests(goalId, agentId, current.newestFirst);
    const shortest = Math.min(LEDGER_LIMITS.minCheckpointRows, current.newestFirst.length);
    if (!digests.slice(shortest).includes(input.digest)) {
      refuse({
        type: 'LedgerDigestMismatch',
        goalId,
        agentId,
        citedDigest: input.digest,
        requiredRead: {
          query: ledgerQuery(goalId, agentId),
          reason:
            'the digest is not that of a current unfiltered read of this ledger (new rows landed, the read was filtered or too short, or it belongs to another ledger): read again and cite the new digest',
        },
      });
    }
    const vision = kind === 'PATCHED' ? await patchVision(tx, actor, goalId, agentId, patch) : null;
    const event = await appendEvent(tx, {
      goalId,
      source: 'REPLAN_CHECKPOINT',
      eventKind: 'REPLAN',
      agentId,
      ...text,
      status: 'accepted',
      material: true,
      citedDigest: input.digest,
      recordedBy: actor,
    });
    return { type: 'ReplanCheckpoint', event, vision } satisfies ReplanCheckpoint;
  });
}

// ---- the stream ----------------------------------------------------------------------

/** One page of a goal's ledger after `after`, unscoped: what the ledger hub reads per ring. */
export async function readLedgerPage(
  db: Queryable,
  goalId: string,
  after: bigint,
): Promise<Page<LedgerEvent>> {
  const rows = await db
    .select()
    .from(ledgerEventsTable)
    .where(and(eq(ledgerEventsTable.goalId, goalId), gt(ledgerEventsTable.seq, after)))
    .orderBy(asc(ledgerEventsTable.seq))
    .limit(LEDGER_LIMITS.streamPage);
  return {
    items: rows.map((row) => eventOf(row)),
    cursor: rows.at(-1)?.seq ?? after,
    more: rows.length === LEDGER_LIMITS.streamPage,
  };
}

/** Rows every agent's scope decides without reading the work graph. */
const decidedWithoutScope = (agentId: string, e: LedgerEvent) =>
  e.agentId === agentId ||
  e.relatedAgentId === agentId ||
  e.goalChange !== null ||
  (e.todoId === null && e.gateId === null);

/**
 * `agentId`'s ledger rows after `after` (or from now), live, in seq order, exactly once:
 * the same rows evidenceLedger would return, each judged against the agent's scope when
 * the stream reads it. The goal's rows come from the shared per-goal reader (StreamHub);
 * only batches holding a row on a todo or gate the agent does not own cost a scope read.
 * Out of scope: one ScopeGap, then the end.
 */
export async function ledgerEvents(
  db: Db,
  hub: StreamHub<LedgerEvent>,
  caller: Caller | null,
  goalIdArg: string,
  agentIdArg: string,
  after: string | null,
): Promise<AsyncIterable<LedgerEvent | ScopeGap>> {
  const goalId = validateId('goalId', goalIdArg);
  const agentId = validateId('agentId', agentIdArg);
  const access = await checkLedgerAccess(db, caller, goalId, agentId);
  if (access.type === 'ScopeGap') {
    return single(access);
  }
  const start = after === null ? access.headSeq : BigInt(after);
  return hub.subscribe(goalId, start, undefined, async (items) => {
    const undecided = items.some((e) => !decidedWithoutScope(agentId, e));
    // Rows decided without the work graph never consult the sets: empty ones do.
    const scope = undecided
      ? await loadAgentScope(db, goalId, agentId)
      : {
          goalId,
          agentId,
          lanePrefixes: [],
          claimed: new Set<string>(),
          lane: new Set<string>(),
          dependencies: new Set<string>(),
          gates: new Set<string>(),
        };
    return items.flatMap((e) => {
      const relevance = relevanceOf(scope, e);
      return relevance === null ? [] : [{ ...e, relevance }];
    });
  });
}
