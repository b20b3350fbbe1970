import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { validateId } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { textArray } from '../db/sql.ts';
import { minSeq } from '../events/sequence.ts';
import { classifyChange, currentPins, feedChanges } from '../presence/pins.ts';
import type { Liveness, PresenceChangeRow } from '../presence/tables.ts';
import { findAgent, type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { checkTodoInGoal } from '../work/reads.ts';
import { todosTable } from '../work/tables.ts';
import {
  type PinState,
  type WaitReason,
  type WaitRow,
  type WaitStatus,
  type WaitTargetRow,
  waitsTable,
  waitTargetsTable,
} from './tables.ts';

/** Longest a wait may run. */
export const MAX_WAIT_MS = 3_600_000;
export const MAX_WAIT_TARGETS = 20;

export interface Wait {
  readonly type: 'Wait';
  readonly row: WaitRow;
  readonly targets: WaitTargetRow[];
}

export interface UnknownWait {
  readonly type: 'UnknownWait';
  readonly waitId: string;
}

export interface WaitInput {
  goalId: string;
  /** One or more agents; the first to satisfy its own pin settles the wait. */
  agentIds: string[];
  todoId?: string | null;
  accept: Liveness[];
  timeoutMs: number;
}

export type StartWaitResult = Wait | ScopeGap | UnknownAgent;

/**
 * Starts a wait: resolves each target once to its current location and occupant and pins
 * that, with the baseline it must move beyond. A target with no presence, or behind a
 * provider that does not support pinned waits, is recorded as such; if no target can be
 * pinned the wait ends at once with that typed outcome.
 */
export async function startWait(
  db: Db,
  caller: Caller,
  input: WaitInput,
): Promise<StartWaitResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentIds = [...new Set(input.agentIds.map((id) => validateId('agentId', id)))];
  if (agentIds.length === 0 || agentIds.length > MAX_WAIT_TARGETS) {
    throw new InputError(`name from 1 to ${MAX_WAIT_TARGETS} agents`, 'agentIds');
  }
  if (input.todoId != null) validateId('todoId', input.todoId);
  if (!Number.isInteger(input.timeoutMs) || input.timeoutMs < 1 || input.timeoutMs > MAX_WAIT_MS) {
    throw new InputError(`timeoutMs must be an integer from 1 to ${MAX_WAIT_MS}`, 'timeoutMs');
  }
  const accept = [...new Set(input.accept)];
  if (accept.length === 0) throw new InputError('accept must name at least one liveness', 'accept');
  if (accept.includes('UNREACHABLE') || accept.includes('UNKNOWN')) {
    throw new InputError(
      'accept may not include UNREACHABLE or UNKNOWN: neither is a settled state',
      'accept',
    );
  }
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  await checkTodoInGoal(db, goalId, input.todoId ?? null);
  for (const agentId of agentIds) {
    const agent = await findAgent(db, goalId, agentId);
    if (!agent || agent.retiredAt) return unknownAgent(goalId, agentId);
  }

  return db.transaction(async (tx) => {
    const pins = await currentPins(tx, goalId, agentIds);
    const currentTodos = await claimedTodos(tx, goalId, agentIds);
    const pinState = (agentId: string): PinState => {
      const pin = pins.get(agentId);
      if (!pin) return 'NO_PRESENCE_AT_START';
      if (!pin.supportsPinnedWaits) return 'PROVIDER_WITHOUT_PINNED_WAITS';
      return pin.lapsed ? 'COVERAGE_LOST' : 'PINNED';
    };
    const id = `wait_${randomUUID()}`;
    const [row] = await tx
      .insert(waitsTable)
      .values({
        id,
        goalId,
        accept,
        timeoutMs: input.timeoutMs,
        deadline: sql`now() + ${`${input.timeoutMs} milliseconds`}::interval`,
        createdByKind: caller.kind,
        createdByAgent: caller.kind === 'PEER' ? caller.agentId : null,
        createdByCredential: caller.credentialId,
      })
      .returning();
    const targets = await tx
      .insert(waitTargetsTable)
      .values(
        agentIds.map((agentId, position) => {
          const pin = pins.get(agentId);
          return {
            waitId: id,
            position,
            goalId,
            agentId,
            todoId: input.todoId ?? currentTodos.get(agentId) ?? null,
            state: pinState(agentId),
            provider: pin?.provider ?? null,
            providerSessionRef: pin?.providerSessionRef ?? null,
            occupantRef: pin?.occupantRef ?? null,
            baselineSeq: pin?.stateChangeSeq ?? 0n,
          };
        }),
      )
      .returning();
    const wait: Wait = { type: 'Wait', row: row as WaitRow, targets };
    const immediate = new Settler(wait).start();
    if (!immediate) return wait;
    const [settled] = await recordOutcomes(tx, [{ waitId: id, outcome: immediate }]);
    return { ...wait, row: settled as WaitRow };
  });
}

/** Each agent's current todo: the open one it claims, highest priority first. */
async function claimedTodos(
  db: Queryable,
  goalId: string,
  agentIds: string[],
): Promise<Map<string, string>> {
  const rows = await db
    .selectDistinctOn([todosTable.claimedBy], {
      claimedBy: todosTable.claimedBy,
      id: todosTable.id,
    })
    .from(todosTable)
    .where(
      and(
        eq(todosTable.goalId, goalId),
        eq(todosTable.status, 'OPEN'),
        inArray(todosTable.claimedBy, agentIds),
      ),
    )
    .orderBy(todosTable.claimedBy, desc(todosTable.priority), asc(todosTable.claimedAt));
  return new Map(rows.map((row) => [row.claimedBy as string, row.id]));
}

// ---- settling ------------------------------------------------------------------------

export interface Outcome {
  readonly status: Exclude<WaitStatus, 'PENDING'>;
  readonly reason: WaitReason | null;
  readonly agentId: string | null;
  readonly seq: bigint | null;
  readonly liveness: Liveness | null;
}

/**
 * Applies presence changes, in sequence order, to one wait. Each pinned target settles the
 * wait when a change after its baseline shows its own occupant in an accepted liveness; a
 * change showing another occupant, an end, a lapse (coverage lost) or UNREACHABLE drops that
 * target; when every target is dropped the first drop is the outcome. Changes recorded after the deadline do
 * not count, so the outcome does not depend on when (or where) this runs.
 */
export class Settler {
  /** The dropped targets' positions, a bit each (a wait has at most MAX_WAIT_TARGETS). */
  private dropped = 0;
  private firstDrop: Outcome | null = null;
  /**
   * The pinned targets, each of another agent (startWait). Held while the wait is pending, so
   * the targets themselves when all are pinned: a filtered array keeps room for 17 (~150 bytes).
   */
  readonly pinned: readonly WaitTargetRow[];
  /** Changes at or below this were already applied. */
  seenSeq: bigint;
  /**
   * The outcome a change decided, answered again by every later settle: the deciding change
   * is behind `seenSeq` by then, so a settle whose record failed records it on the next try.
   */
  decided: Outcome | null = null;

  constructor(readonly wait: Wait) {
    const pinned = wait.targets.filter((t) => t.state === 'PINNED');
    this.pinned = pinned.length === wait.targets.length ? wait.targets : pinned;
    this.seenSeq = minSeq(
      this.pinned.map((t) => t.baselineSeq),
      0n,
    );
  }

  /** The outcome known without any change: no target could be pinned. */
  start(): Outcome | null {
    if (this.pinned.length > 0) return null;
    const first = this.wait.targets[0] as WaitTargetRow;
    return first.state === 'NO_PRESENCE_AT_START'
      ? outcome('NOT_RUNNING', 'NO_PRESENCE_AT_START', first.agentId)
      : outcome('UNOBSERVABLE', first.state as WaitReason, first.agentId);
  }

  /**
   * Applies a page of the goal's changes (in sequence order, `byAgent` the same changes by
   * agent). Only changes of a pinned target's agent can concern it (classifyChange), so just
   * those are looked at; the rest only move `seenSeq`.
   */
  applyPage(
    changes: readonly PresenceChangeRow[],
    byAgent: ReadonlyMap<string, readonly PresenceChangeRow[]>,
  ): Outcome | null {
    const last = changes.at(-1);
    if (!last) return null;
    const relevant = this.pinned.flatMap((target) => byAgent.get(target.agentId) ?? []);
    if (this.pinned.length > 1) relevant.sort((a, b) => (a.seq < b.seq ? -1 : 1));
    for (const change of relevant) {
      this.decided = this.apply(change);
      if (this.decided) return this.decided;
    }
    if (last.seq > this.seenSeq) this.seenSeq = last.seq;
    return null;
  }

  private apply(change: PresenceChangeRow): Outcome | null {
    if (change.seq <= this.seenSeq) return null;
    this.seenSeq = change.seq;
    if (change.recordedAt.getTime() > this.wait.row.deadline.getTime()) return null;
    for (const target of this.pinned) {
      if (this.dropped & (1 << target.position)) continue;
      const meaning = classifyChange(target, change);
      if (!meaning) continue;
      const at = { agentId: target.agentId, seq: change.seq, liveness: change.liveness };
      let drop: Outcome | null = null;
      if (meaning.kind === 'REPLACED')
        drop = outcome('NOT_RUNNING', 'PINNED_OCCUPANT_REPLACED', at);
      else if (meaning.kind === 'ENDED') drop = outcome('NOT_RUNNING', 'PRESENCE_ENDED', at);
      else if (meaning.kind === 'COVERAGE_LOST')
        drop = outcome('UNOBSERVABLE', 'COVERAGE_LOST', { ...at, liveness: 'UNKNOWN' });
      else if (meaning.kind === 'UNREACHABLE') drop = outcome('UNREACHABLE', null, at);
      else if (this.wait.row.accept.includes(meaning.liveness))
        return outcome('SATISFIED', null, at);
      if (drop) {
        this.dropped |= 1 << target.position;
        this.firstDrop ??= drop;
        if (this.pinned.every((t) => this.dropped & (1 << t.position))) return this.firstDrop;
      }
    }
    return null;
  }

  /** TIMED_OUT once the deadline has passed (after every change up to now was applied). */
  expire(now: Date): Outcome | null {
    return now.getTime() >= this.wait.row.deadline.getTime()
      ? outcome('TIMED_OUT', 'DEADLINE_PASSED', this.wait.targets[0]?.agentId ?? null)
      : null;
  }
}

function outcome(
  status: Outcome['status'],
  reason: WaitReason | null,
  at: string | null | { agentId: string; seq: bigint; liveness: Liveness },
): Outcome {
  return typeof at === 'object' && at !== null
    ? { status, reason, ...at }
    : { status, reason, agentId: at, seq: null, liveness: null };
}

/**
 * Records outcomes for pending waits in one statement (and one more read when another
 * instance settled some first). A wait some other instance settled first keeps that
 * outcome: the `status = 'PENDING'` guard makes the first writer win, and every caller gets
 * back what is recorded.
 */
export async function recordOutcomes(
  db: Queryable,
  settled: { waitId: string; outcome: Outcome }[],
): Promise<WaitRow[]> {
  if (settled.length === 0) return [];
  const column = (pick: (o: Outcome) => string | null) =>
    textArray(settled.map((s) => pick(s.outcome) ?? ''));
  const recorded: WaitRow[] = await db
    .update(waitsTable)
    .set({
      status: sql`v.status`,
      reason: sql`nullif(v.reason, '')`,
      resolvedAgentId: sql`nullif(v.agent_id, '')`,
      resolvedSeq: sql`nullif(v.seq, '')::bigint`,
      resolvedLiveness: sql`nullif(v.liveness, '')`,
      resolvedAt: sql`now()`,
    })
    .from(
      sql`unnest(${textArray(settled.map((s) => s.waitId))}, ${column((o) => o.status)},
          ${column((o) => o.reason)}, ${column((o) => o.agentId)},
          ${column((o) => o.seq?.toString() ?? null)}, ${column((o) => o.liveness)})
        as v(id, status, reason, agent_id, seq, liveness)`,
    )
    .where(and(sql`${waitsTable.id} = v.id`, eq(waitsTable.status, 'PENDING')))
    // Drizzle types an update with a raw FROM as returning nothing; it returns the waits' columns.
    .returning()
    .then((rows) => rows as unknown as WaitRow[]);
  // What is recorded now: this writer's outcomes, and those another instance recorded first
  // (read only when there are any).
  if (recorded.length === settled.length) return recorded;
  const mine = new Set(recorded.map((row) => row.id));
  const others = settled.map((s) => s.waitId).filter((id) => !mine.has(id));
  return [
    ...recorded,
    ...(await db.select().from(waitsTable).where(inArray(waitsTable.id, others))),
  ];
}

/** Loads waits with their targets (two statements whatever the count). */
export async function loadWaits(db: Queryable, ids: string[]): Promise<Map<string, Wait>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(waitsTable).where(inArray(waitsTable.id, ids));
  const targets = await db
    .select()
    .from(waitTargetsTable)
    .where(inArray(waitTargetsTable.waitId, ids))
    .orderBy(asc(waitTargetsTable.waitId), asc(waitTargetsTable.position));
  return new Map(
    rows.map((row) => [
      row.id,
      { type: 'Wait', row, targets: targets.filter((t) => t.waitId === row.id) },
    ]),
  );
}

/**
 * A wait as it stands now. A pending one is settled first from the change log and the
 * deadline, so a reader never sees PENDING for a wait whose outcome is already decided.
 */
export async function readWait(
  db: Db,
  caller: Caller | null,
  waitId: string,
): Promise<Wait | UnknownWait | ScopeGap> {
  const wait = (await loadWaits(db, [waitId])).get(waitId);
  if (!wait) return { type: 'UnknownWait', waitId };
  const gap = await checkGoalScope(db, caller, wait.row.goalId);
  // A wait of another goal is as unknown as one that does not exist.
  if (gap) return { type: 'UnknownWait', waitId };
  return settleNow(db, wait);
}

/** Brings a pending wait up to date: applies every change after its baseline, then the deadline. */
export async function settleNow(db: Db, wait: Wait): Promise<Wait> {
  if (wait.row.status !== 'PENDING') return wait;
  const settler = new Settler(wait);
  const decided = (await decideOutcomes(db, wait.row.goalId, [settler])).get(settler);
  if (!decided) return wait;
  const [row] = await recordOutcomes(db, [{ waitId: wait.row.id, outcome: decided }]);
  return { ...wait, row: row as WaitRow };
}

/** A page of changes by agent, each agent's in sequence order. */
export function byAgent(changes: readonly PresenceChangeRow[]): Map<string, PresenceChangeRow[]> {
  const index = new Map<string, PresenceChangeRow[]>();
  for (const change of changes) {
    const list = index.get(change.agentId);
    if (list) list.push(change);
    else index.set(change.agentId, [change]);
  }
  return index;
}

/**
 * The outcomes decided now for some pending waits of one goal: every change after their
 * cursors is applied (one read per page for all of them, from the lowest cursor), then the
 * deadline. Waits still open are absent from the answer.
 */
export async function decideOutcomes(
  db: Queryable,
  goalId: string,
  settlers: readonly Settler[],
): Promise<Map<Settler, Outcome>> {
  const decided = new Map<Settler, Outcome>();
  for (const settler of settlers) {
    const immediate = settler.decided ?? settler.start();
    if (immediate) decided.set(settler, immediate);
  }
  let page: readonly PresenceChangeRow[] | null = null;
  let index = new Map<string, PresenceChangeRow[]>();
  await feedChanges(
    db,
    goalId,
    () => settlers.filter((s) => !decided.has(s)),
    (settler, changes) => {
      // Every settler gets the same page: index it once.
      if (changes !== page) [page, index] = [changes, byAgent(changes)];
      const outcome = settler.applyPage(changes, index);
      if (outcome) decided.set(settler, outcome);
    },
  );
  const now = new Date();
  for (const settler of settlers) {
    const expired = decided.has(settler) ? null : settler.expire(now);
    if (expired) decided.set(settler, expired);
  }
  return decided;
}
