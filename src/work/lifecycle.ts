/** Lifecycle: the only ways work leaves the frontier (complete, supersede, close), and defer/resume. */

import { and, eq } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { tag } from '../core/results.ts';
import { refuse } from '../core/transaction.ts';
import { boundedList, LIMITS, screenText, unique, validateOptionalId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import {
  checkBarePullRequests,
  type TodoSpec,
  type TodoSpecInput,
  validateAction,
  validateRelativeRef,
  validateResumeWhen,
  validateSpec,
} from './spec.ts';
import { todoColumns } from './sql.ts';
import { todosTable } from './tables.ts';
import type { Todo, TodoActionInput, TodoRefusal, TodoResult } from './values.ts';
import {
  checkLifecycleAuthority,
  checkLive,
  checkReferences,
  continuationOwner,
  illegal,
  insertTodo,
  isFinal,
  leaveFrontier,
  loadTodo,
  transition,
  workWrite,
} from './write.ts';

export interface CompletedTodo {
  readonly type: 'CompletedTodo';
  readonly todo: Todo;
  readonly successor: Todo | null;
}
export type CompleteTodoResult = CompletedTodo | TodoRefusal;

/**
 * Marks the todo DONE with evidence, and optionally creates its successor in the same
 * transaction (claimed by the same agent under SAME_AGENT_NON_DELIVERY, unclaimed otherwise).
 */
export async function completeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { evidenceRefs: readonly string[]; successor?: TodoSpecInput | null },
): Promise<CompleteTodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const evidenceRefs = unique(
    boundedList('evidenceRefs', input.evidenceRefs, LIMITS.listEntries, (v) =>
      validateRelativeRef('evidenceRefs', v, LIMITS.evidenceRef),
    ),
  );
  if (evidenceRefs.length === 0) {
    throw new InputError('evidenceRefs must name at least one piece of evidence', 'evidenceRefs');
  }
  const successor = input.successor ? validateSpec(input.successor, 'successor.') : null;
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'COMPLETE');
    checkLifecycleAuthority(todo, actor);
    if (successor) {
      await checkReferences(tx, goalId, null, successor.dependsOn, successor.resumeWhen);
    }
    const done = await transition(
      tx,
      seq,
      actor,
      todo,
      'COMPLETE',
      { status: 'DONE', evidenceRefs, ...leaveFrontier },
      { evidenceRefs },
    );
    const next = successor
      ? await insertTodo(tx, seq, actor, goalId, successor, {
          successorOf: todo.id,
          claimedBy: continuationOwner(todo, actor),
          via: 'COMPLETE',
        })
      : null;
    return { type: 'CompletedTodo', todo: done, successor: next } satisfies CompletedTodo;
  });
}

export interface SupersededTodo {
  readonly type: 'SupersededTodo';
  readonly todo: Todo;
  readonly replacement: Todo;
}
export type SupersedeTodoResult = SupersededTodo | TodoRefusal;

/**
 * Replaces the todo: it becomes SUPERSEDED (never DONE) with `supersededBy` pointing at the
 * replacement, which is created here or named (a live todo of the same goal). Dependents
 * now wait for the replacement: a dependency is met when its supersede chain ends DONE.
 */
export async function supersedeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & {
    reason: string;
    replacement?: TodoSpecInput | null;
    replacementId?: string | null;
  },
): Promise<SupersedeTodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const reason = screenText('reason', input.reason, LIMITS.reason);
  const replacementId = validateOptionalId('replacementId', input.replacementId);
  const replacement = input.replacement ? validateSpec(input.replacement, 'replacement.') : null;
  if ((replacementId === null) === (replacement === null)) {
    throw new InputError('give exactly one of replacement or replacementId', 'replacement');
  }
  if (replacementId === todoId) {
    throw new InputError('a todo cannot replace itself', 'replacementId');
  }
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'SUPERSEDE');
    checkLifecycleAuthority(todo, actor);
    let next: Todo;
    if (replacementId !== null) {
      const [named] = await tx
        .select(todoColumns)
        .from(todosTable)
        .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, replacementId)));
      if (!named) {
        throw new InputError(`unknown todo in this goal: ${replacementId}`, 'replacementId');
      }
      if (isFinal(named.status)) {
        throw new InputError(
          `replacement ${replacementId} is ${named.status}; name a live todo or create one`,
          'replacementId',
        );
      }
      if (named.successorOf !== null && named.successorOf !== todo.id) {
        throw new InputError(
          `replacement ${replacementId} already continues ${named.successorOf}; name another or create one`,
          'replacementId',
        );
      }
      // Lineage both ways: the replacement names the todo it replaces.
      const [adopted] = await tx
        .update(todosTable)
        .set({ successorOf: todo.id })
        .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, named.id)))
        .returning(todoColumns);
      next = adopted as Todo;
    } else {
      const spec = replacement as TodoSpec;
      await checkReferences(tx, goalId, null, spec.dependsOn, spec.resumeWhen);
      next = await insertTodo(tx, seq, actor, goalId, spec, {
        successorOf: todo.id,
        claimedBy: continuationOwner(todo, actor),
        via: 'SUPERSEDE',
      });
    }
    const superseded = await transition(
      tx,
      seq,
      actor,
      todo,
      'SUPERSEDE',
      { status: 'SUPERSEDED', supersededBy: next.id, supersedeReason: reason, ...leaveFrontier },
      { replacement: next.id, reason },
    );
    return { type: 'SupersededTodo', todo: superseded, replacement: next } satisfies SupersededTodo;
  });
}

/**
 * Defers (or blocks) the todo until every condition in `resumeWhen` holds. It stays on the
 * frontier, held by RESUME_CONDITION, then by STALE until someone resumes it after replanning.
 */
export async function deferTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { resumeWhen: readonly string[]; reason?: string | null },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const resumeWhen = validateResumeWhen('resumeWhen', input.resumeWhen);
  if (resumeWhen.length === 0) {
    throw new InputError('resumeWhen must name at least one condition', 'resumeWhen');
  }
  const reason = input.reason == null ? null : screenText('reason', input.reason, LIMITS.reason);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'DEFER');
    checkLifecycleAuthority(todo, actor);
    checkBarePullRequests('resumeWhen', resumeWhen, todo.taskRepository);
    await checkReferences(tx, goalId, todoId, [], resumeWhen);
    const conditions = resumeWhen.map((c) => c.text);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'DEFER',
        { status: 'DEFERRED', resumeWhen: conditions, deferReason: reason },
        { resumeWhen: conditions, reason },
      ),
    );
  });
}

/**
 * Puts a deferred todo back to OPEN: a replanning decision. Its resume conditions stay, so
 * one that does not hold yet still holds it back.
 */
export async function resumeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    if (todo.status !== 'DEFERRED') refuse(illegal(todo, 'RESUME'));
    checkLifecycleAuthority(todo, actor);
    return tag('Todo', await transition(tx, seq, actor, todo, 'RESUME', { status: 'OPEN' }));
  });
}

/** Closes the todo with no successor, for a stated reason. */
export async function closeNoFollowUp(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { reason: string },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const reason = screenText('reason', input.reason, LIMITS.reason);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'CLOSE_NO_FOLLOW_UP');
    checkLifecycleAuthority(todo, actor);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'CLOSE_NO_FOLLOW_UP',
        { status: 'CLOSED_NO_FOLLOW_UP', noFollowUpReason: reason, ...leaveFrontier },
        { reason },
      ),
    );
  });
}
