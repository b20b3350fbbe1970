/** Claims: the soft owner of a todo, who plans to execute it. Not a lock. */

import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { tag } from '../core/results.ts';
import { refuse } from '../core/transaction.ts';
import type { Db, Tx } from '../db/database.ts';
import { type WriteScopeConflict, writeScopeConflicts } from './conflicts.ts';
import { validateAction } from './spec.ts';
import { claimOrderSql, todoLiveSql } from './sql.ts';
import { todosTable } from './tables.ts';
import type { Todo, TodoActionInput, TodoRefusal, TodoResult } from './values.ts';
import {
  checkLifecycleAuthority,
  checkLive,
  claimedByOther,
  loadTodo,
  transition,
  workWrite,
} from './write.ts';

export interface ClaimWarning extends WriteScopeConflict {
  readonly kind: 'WRITE_SCOPE_CONFLICT';
}

/** The claim, and what it overlaps: a claim stays a soft owner, never a lock. */
export interface ClaimedTodo {
  readonly type: 'ClaimedTodo';
  readonly todo: Todo;
  readonly warnings: ClaimWarning[];
}

export type ClaimTodoResult = ClaimedTodo | TodoRefusal;

/**
 * Makes the acting agent the todo's soft owner. Claiming your own claim again changes
 * nothing; another agent's claim is refused with the owner named. The answer warns of other
 * agents' claimed live todos of the same repository whose write scope overlaps this one's
 * (one per agent): the claim is made all the same, and the frontier holds back the later of
 * two overlapping claims.
 */
export async function claimTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<ClaimTodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor, seq) => {
      const todo = await loadTodo(tx, goalId, todoId);
      checkLive(todo, 'CLAIM');
      if (todo.claimedBy !== null && todo.claimedBy !== actor.agentId) {
        refuse(claimedByOther(todo));
      }
      const warnings = await claimWarnings(tx, todo, actor.agentId as string);
      if (todo.claimedBy === actor.agentId) refuse(claimed(todo, warnings));
      const updated = await transition(tx, seq, actor, todo, 'CLAIM', {
        claimedBy: actor.agentId,
        claimedAt: sql`now()`,
      });
      return claimed(updated, warnings);
    },
    true,
  );
}

const claimed = (todo: Todo, warnings: ClaimWarning[]): ClaimedTodo => ({
  type: 'ClaimedTodo',
  todo,
  warnings,
});

/** Other agents' claimed live todos of the todo's repository whose write scope overlaps it. */
async function claimWarnings(tx: Tx, todo: Todo, agentId: string): Promise<ClaimWarning[]> {
  if (todo.writeScope.length === 0) return [];
  const t = todosTable;
  const others = await tx
    .select({
      id: t.id,
      taskRepository: t.taskRepository,
      writeScope: t.writeScope,
      claimedBy: t.claimedBy,
      claimOrder: claimOrderSql,
    })
    .from(t)
    .where(
      and(
        eq(t.goalId, todo.goalId),
        todoLiveSql,
        ne(t.claimedBy, agentId),
        todo.taskRepository === null
          ? isNull(t.taskRepository)
          : eq(t.taskRepository, todo.taskRepository),
        sql`cardinality(${t.writeScope}) > 0`,
      ),
    );
  // As if unclaimed: every overlapping claim is reported, whichever is older.
  return writeScopeConflicts(others, agentId, (conflict) => ({
    kind: 'WRITE_SCOPE_CONFLICT' as const,
    ...conflict,
  })).find({ ...todo, claimedBy: null, claimOrder: null });
}

/** Drops the claim: by its owner, or by an ADMIN or STEWARD (reassignment). The lease is untouched. */
export async function releaseClaim(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'RELEASE_CLAIM');
    if (todo.claimedBy === null) refuse(tag('Todo', todo));
    checkLifecycleAuthority(todo, actor);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'RELEASE_CLAIM',
        { claimedBy: null, claimedAt: null },
        { previousOwner: todo.claimedBy },
      ),
    );
  });
}
