/** Creating todos and changing their dependencies. */

import type { Caller } from '../core/caller.ts';
import type { Tagged } from '../core/results.ts';
import { tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { boundedList, LIMITS, unique, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { type TodoSpecInput, validateAction, validateSpec } from './spec.ts';
import type { Todo, TodoActionInput, TodoResult } from './values.ts';
import {
  checkLifecycleAuthority,
  checkLive,
  checkReferences,
  insertTodo,
  loadTodo,
  transition,
  workWrite,
} from './write.ts';

export interface CreateTodoInput extends TodoSpecInput {
  goalId: string;
  agentId?: string | null;
}

export type CreateTodoResult = Tagged<'Todo', Todo> | ScopeGap | UnknownAgent;

export async function createTodo(
  db: Db,
  caller: Caller,
  input: CreateTodoInput,
): Promise<CreateTodoResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const spec = validateSpec(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    await checkReferences(tx, goalId, null, spec.dependsOn, spec.resumeWhen);
    return tag('Todo', await insertTodo(tx, seq, actor, goalId, spec));
  });
}

/** Replaces a live todo's dependencies; unknown ids and cycles are refused as bad input. */
export async function setDependencies(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { dependsOn: readonly string[] },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const dependsOn = unique(
    boundedList('dependsOn', input.dependsOn, LIMITS.dependsOn, (v) => validateId('dependsOn', v)),
  );
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'SET_DEPENDENCIES');
    checkLifecycleAuthority(todo, actor);
    await checkReferences(tx, goalId, todoId, dependsOn, []);
    return tag(
      'Todo',
      await transition(tx, seq, actor, todo, 'SET_DEPENDENCIES', { dependsOn }, { dependsOn }),
    );
  });
}
