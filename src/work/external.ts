/** External facts a resume condition can name: recorded merges of pull requests. */

import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { Listing } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse } from '../core/transaction.ts';
import { oneOf, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db, Tx } from '../db/database.ts';
import { appendEvent } from '../ledger/append.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { externalEventEvent } from './events.ts';
import { mergeKey, parseRepository } from './repository.ts';
import { mergeKeyOf, parseResumeCondition } from './rules.ts';
import { todoLiveSql } from './sql.ts';
import {
  type ExternalEventKind,
  type ExternalEventRow,
  externalEventKinds,
  externalEventsTable,
  todosTable,
} from './tables.ts';
import { workWrite } from './write.ts';

export interface RecordExternalEventInput {
  goalId: string;
  kind: string;
  repository: string;
  ref: string;
  observedAt: Date;
  agentId?: string | null;
}

export interface ExternalEvent {
  readonly type: 'ExternalEvent';
  readonly row: ExternalEventRow;
  /** Live todos with a condition this fact satisfies, when it was recorded. */
  readonly waitingTodoIds: string[];
  /** The fact was recorded already: this is the original, and nothing was written. */
  readonly replayed: boolean;
}

export type RecordExternalEventResult = ExternalEvent | ScopeGap | UnknownAgent;

/** How far ahead of the gateway's clock an observation may be (clock skew between hosts). */
const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * Records an external fact — PR_MERGED: pull request `ref` of `repository` was merged — by
 * an ADMIN, STEWARD or PEER of the goal (a PEER as itself), with an EXTERNAL_EVENT ledger row
 * in the same transaction, which moves the work sequence: conditions naming the fact now hold.
 * Recording a fact again returns the original and writes nothing.
 */
export async function recordExternalEvent(
  db: Db,
  caller: Caller,
  input: RecordExternalEventInput,
): Promise<RecordExternalEventResult> {
  if (caller.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not record external events');
  }
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const kind = oneOf('kind', input.kind, externalEventKinds) as ExternalEventKind;
  const repository = parseRepository('repository', input.repository);
  if (!/^#?\d{1,10}$/.test(input.ref) || Number(input.ref.replace('#', '')) === 0) {
    throw new InputError('ref must be the pull request number (123 or #123)', 'ref');
  }
  const ref = String(Number(input.ref.replace('#', '')));
  const observedAt = input.observedAt;
  if (Number.isNaN(observedAt.getTime()) || observedAt.getTime() > Date.now() + MAX_CLOCK_SKEW_MS) {
    throw new InputError('observedAt must be a valid time, not in the future', 'observedAt');
  }
  return workWrite(db, caller, goalId, agentId, async (tx, actor) => {
    const [row] = await tx
      .insert(externalEventsTable)
      .values({
        id: `ext_${randomUUID()}`,
        goalId,
        kind,
        repository,
        ref,
        observedAt,
        recordedByKind: actor.kind,
        recordedByAgent: actor.agentId,
        credentialId: actor.credentialId,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) refuse(await original(tx, goalId, kind, repository, ref));
    const waitingTodoIds = await waitingFor(tx, goalId, mergeKey(repository, ref));
    await appendEvent(tx, externalEventEvent(actor, row, waitingTodoIds));
    return { type: 'ExternalEvent', row, waitingTodoIds, replayed: false } satisfies ExternalEvent;
  });
}

async function original(
  tx: Tx,
  goalId: string,
  kind: ExternalEventKind,
  repository: string,
  ref: string,
): Promise<ExternalEvent> {
  const e = externalEventsTable;
  const [row] = await tx
    .select()
    .from(e)
    .where(
      and(eq(e.goalId, goalId), eq(e.kind, kind), eq(e.repository, repository), eq(e.ref, ref)),
    );
  if (!row) throw new Error('an external event conflicted but cannot be read');
  return { type: 'ExternalEvent', row, waitingTodoIds: [], replayed: true };
}

/** Live todos of the goal with a `pr_merged:` condition the merge `key` satisfies. */
async function waitingFor(tx: Tx, goalId: string, key: string): Promise<string[]> {
  const t = todosTable;
  const todos = await tx
    .select({ id: t.id, resumeWhen: t.resumeWhen, taskRepository: t.taskRepository })
    .from(t)
    .where(
      and(
        eq(t.goalId, goalId),
        todoLiveSql,
        sql`exists (select 1 from unnest(${t.resumeWhen}) c where c like 'pr_merged:%')`,
      ),
    );
  return todos
    .filter((todo) =>
      todo.resumeWhen.some((text) => {
        const condition = parseResumeCondition('resumeWhen', text);
        return condition.kind === 'pr_merged' && mergeKeyOf(condition, todo.taskRepository) === key;
      }),
    )
    .map((todo) => todo.id);
}

/** The goal's recorded external facts, oldest first. */
export async function listExternalEvents(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<ExternalEventRow>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const e = externalEventsTable;
  const rows = await db
    .select()
    .from(e)
    .where(eq(e.goalId, goalId))
    .orderBy(asc(e.recordedAt), asc(e.id));
  return { goalId, rows, scopeGap: null };
}
