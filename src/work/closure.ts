/**
 * Goal closure: whether a goal may be closed, with every reason it may not, and closeGoal,
 * which closes it only when there is none. Completing every todo never closes a goal: only
 * closeGoal does, and it records the closure in the ledger.
 */

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse } from '../core/transaction.ts';
import { boundedList, LIMITS, screenText, unique, validateId } from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { lockHead } from '../events/sequence.ts';
import { appendEvent } from '../ledger/append.ts';
import { obligationsOf, type ReplanObligationKind } from '../ledger/obligations.ts';
import { ledgerEventsTable } from '../ledger/tables.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { agentsTable } from '../registry/tables.ts';
import { validateRelativeRef } from './spec.ts';
import { gateOpenSql, todoLiveSql } from './sql.ts';
import {
  type GoalClosureRow,
  gatesTable,
  goalClosuresTable,
  type TaskClass,
  type TodoStatus,
  todosTable,
  visionsTable,
} from './tables.ts';
import { workWrite } from './write.ts';

export const goalClosureReasonKinds = [
  'ALREADY_CLOSED',
  'UNRESOLVED_GATE',
  'MONITOR_DUE',
  'LIVE_ADVANCEMENT_TODO',
  'LIVE_TODO',
  'PENDING_CONTINUATION',
  'REPLAN_OWED',
  'CLOSED_WITHOUT_REASON',
  'NO_ACCEPTANCE_EVIDENCE',
] as const;
export type GoalClosureReasonKind = (typeof goalClosureReasonKinds)[number];

/** One reason a goal may not be closed, naming what holds it open. */
export interface GoalClosureReason {
  readonly kind: GoalClosureReasonKind;
  readonly detail: string;
  readonly todoId?: string;
  readonly taskClass?: TaskClass;
  readonly todoStatus?: TodoStatus;
  readonly gateId?: string;
  readonly agentId?: string;
  /** REPLAN_OWED: what the agent owes. */
  readonly obligations?: ReplanObligationKind[];
}

export interface GoalClosure {
  readonly type: 'GoalClosure';
  readonly goalId: string;
  readonly closable: boolean;
  /** Every reason, in kind order; empty when closable. */
  readonly reasons: GoalClosureReason[];
  /** The closure, once the goal is closed. */
  readonly closure: GoalClosureRow | null;
  /** Recorded acceptance evidence: goal-level ACCEPTANCE rows that cite evidence. */
  readonly acceptanceEvidenceCount: number;
}

export type GoalClosureResult = GoalClosure | ScopeGap;

/** How many reasons of one kind are listed (the detail says when there are more). */
export const MAX_REASONS_PER_KIND = 50;

/**
 * Whether the goal may be closed, and every reason it may not: an open gate, a live
 * continuous monitor, a live todo (advancement or other; a successor or replacement counts
 * as a pending continuation), an agent that owes a replan checkpoint, a todo closed with no
 * follow-up and no reason, no recorded acceptance evidence, or a closure already recorded.
 * One snapshot, a constant number of statements.
 */
export async function goalClosure(
  db: Db,
  caller: Caller | null,
  goalIdArg: string,
): Promise<GoalClosureResult> {
  const goalId = validateId('goalId', goalIdArg);
  return db.transaction(
    async (tx) => {
      const gap = await checkGoalScope(tx, caller, goalId);
      if (gap) return gap;
      return assess(tx, goalId);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

async function assess(q: Queryable, goalId: string): Promise<GoalClosure> {
  const t = todosTable;
  const g = gatesTable;
  const e = ledgerEventsTable;
  const a = agentsTable;
  const v = visionsTable;
  const c = goalClosuresTable;
  const replaced = sql`exists (select 1 from ${todosTable} as r
    where r.goal_id = ${t.goalId} and r.superseded_by = ${t.id})`;
  const [gates, todos, unreasoned, accepted, agents, closures] = await Promise.all([
    q
      .select({ id: g.id, kind: g.kind, granularity: g.granularity, scopeKey: g.scopeKey })
      .from(g)
      .where(and(eq(g.goalId, goalId), gateOpenSql)),
    q
      .select({
        id: t.id,
        title: t.title,
        taskClass: t.taskClass,
        status: t.status,
        successorOf: t.successorOf,
        replacement: sql<boolean>`${replaced}`,
      })
      .from(t)
      .where(and(eq(t.goalId, goalId), todoLiveSql))
      .orderBy(t.createdAt, t.id),
    q
      .select({ id: t.id, taskClass: t.taskClass })
      .from(t)
      .where(
        and(
          eq(t.goalId, goalId),
          eq(t.status, 'CLOSED_NO_FOLLOW_UP'),
          sql`coalesce(btrim(${t.noFollowUpReason}), '') = ''`,
        ),
      )
      .limit(MAX_REASONS_PER_KIND),
    q.execute(sql`select count(*)::int as n from ${e}
      where ${e.goalId} = ${goalId} and ${e.goalChange} = 'ACCEPTANCE'
        and cardinality(${e.evidenceRefs}) > 0`),
    q
      .select({ agentId: a.agentId, roleScope: v.roleScope })
      .from(a)
      .leftJoin(v, and(eq(v.goalId, a.goalId), eq(v.agentId, a.agentId)))
      .where(and(eq(a.goalId, goalId), isNull(a.retiredAt)))
      .orderBy(a.agentId),
    q.select().from(c).where(eq(c.goalId, goalId)),
  ]);
  const owed = await obligationsOf(
    q,
    goalId,
    agents.map((agent) => ({ agentId: agent.agentId, roleScope: agent.roleScope ?? null })),
  );
  const acceptanceEvidenceCount = Number(rowsOf<{ n: number }>(accepted)[0]?.n ?? 0);
  const closure = closures[0] ?? null;

  const reasons: GoalClosureReason[] = [];
  if (closure !== null) {
    reasons.push({
      kind: 'ALREADY_CLOSED',
      detail: `the goal was closed at ${closure.closedAt.toISOString()}`,
    });
  }
  for (const gate of gates) {
    reasons.push({
      kind: 'UNRESOLVED_GATE',
      detail: `gate ${gate.id} (${gate.kind.toLowerCase()}:${gate.granularity.toLowerCase()}:${gate.scopeKey}) has no decision`,
      gateId: gate.id,
    });
  }
  const live = (kind: GoalClosureReasonKind, todo: (typeof todos)[number], detail: string) =>
    reasons.push({
      kind,
      detail: `todo ${todo.id} ("${todo.title}") ${detail}`,
      todoId: todo.id,
      taskClass: todo.taskClass,
      todoStatus: todo.status,
    });
  for (const todo of todos) {
    if (todo.taskClass === 'CONTINUOUS_MONITOR') {
      live(
        'MONITOR_DUE',
        todo,
        todo.status === 'OPEN'
          ? 'is a continuous monitor that is due: run it, or close it with no follow-up when monitoring ends'
          : 'is a continuous monitor deferred until its condition: it will be due again; close it with no follow-up when monitoring ends',
      );
    } else if (todo.successorOf !== null || todo.replacement) {
      live(
        'PENDING_CONTINUATION',
        todo,
        `is a pending ${todo.successorOf !== null ? `successor of ${todo.successorOf}` : 'replacement of a superseded todo'}`,
      );
    } else if (todo.taskClass === 'ADVANCEMENT_TASK') {
      live('LIVE_ADVANCEMENT_TODO', todo, `is ${todo.status.toLowerCase()}`);
    } else {
      live('LIVE_TODO', todo, `(${todo.taskClass.toLowerCase()}) is ${todo.status.toLowerCase()}`);
    }
  }
  for (const agent of owed) {
    if (!agent.owed) continue;
    const kinds = agent.obligations.map((o) => o.kind);
    reasons.push({
      kind: 'REPLAN_OWED',
      detail: `agent ${agent.agentId} owes a replan checkpoint (${kinds.join(', ')})`,
      agentId: agent.agentId,
      obligations: kinds,
    });
  }
  for (const todo of unreasoned) {
    reasons.push({
      kind: 'CLOSED_WITHOUT_REASON',
      detail: `todo ${todo.id} was closed with no follow-up and records no reason`,
      todoId: todo.id,
      taskClass: todo.taskClass,
      todoStatus: 'CLOSED_NO_FOLLOW_UP',
    });
  }
  if (acceptanceEvidenceCount === 0) {
    reasons.push({
      kind: 'NO_ACCEPTANCE_EVIDENCE',
      detail:
        'no acceptance evidence is recorded: an ADMIN or STEWARD records it with recordEvent (goalChange ACCEPTANCE, evidenceRefs)',
    });
  }
  const ordered = goalClosureReasonKinds.flatMap((kind) => {
    const ofKind = reasons.filter((r) => r.kind === kind);
    if (ofKind.length <= MAX_REASONS_PER_KIND) return ofKind;
    const kept = ofKind.slice(0, MAX_REASONS_PER_KIND);
    const last = kept[kept.length - 1] as GoalClosureReason;
    kept[kept.length - 1] = {
      ...last,
      detail: `${last.detail} (and ${ofKind.length - MAX_REASONS_PER_KIND} more of this kind)`,
    };
    return kept;
  });
  return {
    type: 'GoalClosure',
    goalId,
    closable: ordered.length === 0,
    reasons: ordered,
    closure,
    acceptanceEvidenceCount,
  };
}

export interface CloseGoalInput {
  goalId: string;
  acceptanceRefs: readonly string[];
  reason: string;
}

export interface GoalClosed {
  readonly type: 'GoalClosed';
  readonly closure: GoalClosureRow;
}

export interface GoalClosureRefused {
  readonly type: 'GoalClosureRefused';
  readonly goalId: string;
  /** Every reason, as goalClosure gives them. */
  readonly reasons: GoalClosureReason[];
}

export type CloseGoalResult = GoalClosed | GoalClosureRefused | ScopeGap;

/**
 * Closes a goal, by an ADMIN or STEWARD: validated in full, then in one transaction that
 * holds the goal's work sequence and ledger head (so no work write or ledger row can land
 * between the check and the closure) it assesses the goal as goalClosure does and refuses
 * with every reason while any holds; otherwise it records the closure and a goal-level
 * GOAL_CLOSED ledger row (ACCEPTANCE) citing the acceptance refs.
 */
export async function closeGoal(
  db: Db,
  caller: Caller,
  input: CloseGoalInput,
): Promise<CloseGoalResult> {
  if (caller.kind !== 'ADMIN' && caller.kind !== 'STEWARD') {
    throw new ForbiddenError('only an ADMIN or STEWARD closes a goal');
  }
  const goalId = validateId('goalId', input.goalId);
  const reason = screenText('reason', input.reason, LIMITS.reason);
  const acceptanceRefs = unique(
    boundedList('acceptanceRefs', input.acceptanceRefs, LIMITS.listEntries, (v) =>
      validateRelativeRef('acceptanceRefs', v, LIMITS.evidenceRef),
    ),
  );
  if (acceptanceRefs.length === 0) {
    throw new InputError(
      'acceptanceRefs must name at least one piece of acceptance evidence',
      'acceptanceRefs',
    );
  }
  const result = await workWrite<GoalClosed>(db, caller, goalId, null, async (tx, actor, seq) => {
    await lockHead(tx, goalId, 'ledger');
    const assessed = await assess(tx, goalId);
    if (!assessed.closable) {
      refuse({
        type: 'GoalClosureRefused',
        goalId,
        reasons: assessed.reasons,
      } satisfies GoalClosureRefused);
    }
    // The row's refs passed the ledger's privacy screen: the closure stores those.
    const event = await appendEvent(tx, {
      goalId,
      source: 'WORK_GRAPH',
      eventKind: 'GOAL_CLOSED',
      agentId: null,
      classification: 'closed',
      status: 'closed',
      summary: summaryOf(actor.kind, reason),
      evidenceRefs: acceptanceRefs,
      material: true,
      goalChange: 'ACCEPTANCE',
      recordedBy: actor,
    });
    return {
      type: 'GoalClosed',
      closure: await insertClosure(tx, goalId, reason, event.evidenceRefs, actor, seq, event.seq),
    };
  });
  if (result.type === 'UnknownAgent') throw new Error('closeGoal names no agent');
  return result;
}

function summaryOf(who: string, reason: string): string {
  const text = `${who} closed the goal: ${reason.replace(/\s+/g, ' ')}`;
  return text.length <= LIMITS.summary ? text : `${text.slice(0, LIMITS.summary - 1)}…`;
}

async function insertClosure(
  tx: Tx,
  goalId: string,
  reason: string,
  acceptanceRefs: string[],
  actor: {
    kind: GoalClosureRow['closedByKind'];
    agentId: string | null;
    credentialId: string | null;
  },
  seq: bigint,
  ledgerSeq: bigint,
): Promise<GoalClosureRow> {
  const [row] = await tx
    .insert(goalClosuresTable)
    .values({
      goalId,
      reason,
      acceptanceRefs,
      closedByKind: actor.kind,
      closedByAgent: actor.agentId,
      credentialId: actor.credentialId,
      workSeq: seq,
      ledgerSeq,
    })
    .returning();
  if (!row) throw new Error('closure was written but cannot be read');
  return row;
}
