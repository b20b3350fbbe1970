/** Input validation for work writes: todo specs, references, fences and lease durations. */

import { InputError } from '../core/errors.ts';
import {
  boundedList,
  LIMITS,
  oneOf,
  screenText,
  unique,
  validateId,
  validateOptionalId,
  validateText,
} from '../core/validate.ts';
import { parseRepository } from './repository.ts';
import {
  formatDecisionScope,
  parseDecisionScope,
  parseResumeCondition,
  type ResumeCondition,
} from './rules.ts';
import { normalizeWriteScope, writeScopeProblem } from './scopes.ts';
import {
  type ContinuationPolicy,
  continuationPolicies,
  type TaskClass,
  taskClasses,
} from './tables.ts';
import type { TodoActionInput } from './values.ts';

/** Relative, credential-free references: no absolute or home paths, no file: URLs. */
export function validateRelativeRef(field: string, value: string, max: number): string {
  const ref = validateText(field, value, max);
  if (/^([/\\~]|[A-Za-z]:[/\\]|file:)/i.test(ref)) {
    throw new InputError(`${field}: "${ref}" must be relative, not an absolute path`, field);
  }
  if (/\s/.test(ref)) throw new InputError(`${field}: "${ref}" must not contain spaces`, field);
  return ref;
}

function validateWriteScope(field: string, value: string): string {
  const scope = validateRelativeRef(field, value, LIMITS.writeScope);
  if (scope.split('/').includes('..')) {
    throw new InputError(`${field}: "${scope}" must not leave the repository ('..')`, field);
  }
  const problem = writeScopeProblem(scope);
  if (problem !== null) throw new InputError(`${field}: "${scope}" ${problem}`, field);
  return normalizeWriteScope(scope);
}

export function validateFence(value: string): bigint {
  if (!/^\d{1,19}$/.test(value)) {
    throw new InputError('fence must be the decimal fence token acquireLease returned', 'fence');
  }
  return BigInt(value);
}

export function validateTtl(ttlMs: number): number {
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > LIMITS.maxTtlMs) {
    throw new InputError(`ttlMs must be an integer from 1 to ${LIMITS.maxTtlMs}`, 'ttlMs');
  }
  return ttlMs;
}

/** What a todo is, as given to createTodo, or as a successor or replacement. */
export interface TodoSpecInput {
  title: string;
  taskClass: string;
  priority?: number | null;
  dependsOn?: readonly string[] | null;
  resumeWhen?: readonly string[] | null;
  requiredDecisionScopes?: readonly string[] | null;
  requiredCapability?: string | null;
  taskRepository?: string | null;
  writeScope?: readonly string[] | null;
  continuationPolicy?: string | null;
}

export interface TodoSpec {
  title: string;
  taskClass: TaskClass;
  priority: number;
  dependsOn: string[];
  resumeWhen: ResumeCondition[];
  requiredDecisionScopes: string[];
  requiredCapability: string | null;
  taskRepository: string | null;
  writeScope: string[];
  continuationPolicy: ContinuationPolicy;
}

export function validateSpec(input: TodoSpecInput, prefix = ''): TodoSpec {
  const f = (name: string) => `${prefix}${name}`;
  const priority = input.priority ?? 0;
  if (!Number.isInteger(priority) || priority < 0 || priority > LIMITS.maxPriority) {
    throw new InputError(
      `${f('priority')} must be an integer from 0 to ${LIMITS.maxPriority}`,
      f('priority'),
    );
  }
  const taskRepository =
    input.taskRepository == null
      ? null
      : parseRepository(f('taskRepository'), input.taskRepository);
  const resumeWhen = validateResumeWhen(f('resumeWhen'), input.resumeWhen);
  checkBarePullRequests(f('resumeWhen'), resumeWhen, taskRepository);
  return {
    title: screenText(f('title'), input.title, LIMITS.title, 1, 'one'),
    taskClass: oneOf(f('taskClass'), input.taskClass, taskClasses),
    priority,
    dependsOn: unique(
      boundedList(f('dependsOn'), input.dependsOn, LIMITS.dependsOn, (v) =>
        validateId(f('dependsOn'), v),
      ),
    ),
    resumeWhen,
    requiredDecisionScopes: unique(
      boundedList(
        f('requiredDecisionScopes'),
        input.requiredDecisionScopes,
        LIMITS.listEntries,
        (v) => formatDecisionScope(parseDecisionScope(f('requiredDecisionScopes'), v)),
      ),
    ),
    requiredCapability: validateOptionalId(f('requiredCapability'), input.requiredCapability),
    taskRepository,
    writeScope: unique(
      boundedList(f('writeScope'), input.writeScope, LIMITS.listEntries, (v) =>
        validateWriteScope(f('writeScope'), v),
      ),
    ),
    continuationPolicy: oneOf(
      f('continuationPolicy'),
      input.continuationPolicy ?? 'INDEPENDENT_HANDOFF',
      continuationPolicies,
    ),
  };
}

export function validateResumeWhen(
  field: string,
  values: readonly string[] | null | undefined,
): ResumeCondition[] {
  const parsed = boundedList(field, values, LIMITS.listEntries, (v) =>
    parseResumeCondition(field, v),
  );
  return parsed.filter((c, i) => parsed.findIndex((d) => d.text === c.text) === i);
}

/**
 * A bare `pr_merged:#n` names the todo's own repository: on a todo without a taskRepository
 * it could only be satisfied by guessing one from the number, so it is refused.
 */
export function checkBarePullRequests(
  field: string,
  conditions: readonly ResumeCondition[],
  taskRepository: string | null,
): void {
  const bare = conditions.find((c) => c.kind === 'pr_merged' && c.repository === null);
  if (bare && taskRepository === null) {
    throw new InputError(
      `${field}: "${bare.text}" names no repository and the todo has no taskRepository: write pr_merged:owner/repo#n, or give the todo a taskRepository`,
      field,
    );
  }
}

export function validateAction(input: TodoActionInput) {
  return {
    goalId: validateId('goalId', input.goalId),
    todoId: validateId('todoId', input.todoId),
    agentId: validateOptionalId('agentId', input.agentId),
  };
}
