/** Claims: the soft owner of a todo, who plans to execute it. Not a lock. */

import { sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { tag } from '../core/results.ts';
import { refuse } from '../core/transaction.ts';
import type { Db } from '../db/database.ts';
import { validateAction } from './spec.ts';
import type { TodoActionInput, TodoResult } from './values.ts';
import {
  checkLifecycleAuthority,
  checkLive,
  claimedByOther,
  loadTodo,
  transition,
  workWrite,
} from './write.ts';

/**
 * Makes the acting agent the todo's soft owner. Claiming your own claim again changes
 * nothing; another agent's claim is refused with the owner named.
 */
export async function claimTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor, seq) => {
      const todo = await loadTodo(tx, goalId, todoId);
      checkLive(todo, 'CLAIM');
      if (todo.claimedBy === actor.agentId) refuse(tag('Todo', todo));
      if (todo.claimedBy !== null) refuse(claimedByOther(todo));
      return tag(
        'Todo',
        await transition(tx, seq, actor, todo, 'CLAIM', {
          claimedBy: actor.agentId,
          claimedAt: sql`now()`,
        }),
      );
    },
    true,
  );
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
