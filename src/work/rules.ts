/**
 * The work graph's pure rules: parsing decision scopes and resume conditions, gate coverage,
 * and the frontier guards. No database here: frontier.ts loads the facts and calls these.
 */

import { InputError } from '../core/errors.ts';
import { validateId } from '../core/validate.ts';
import {
  memoize,
  type ScopedWork,
  type WriteScopeConflict,
  type WriteScopeConflicts,
  writeScopeConflicts,
} from './conflicts.ts';
import {
  formatPullRequestRef,
  mergeKey,
  type PullRequestRef,
  parsePullRequestRef,
} from './repository.ts';
import {
  type GateGranularity,
  type GateKind,
  gateGranularities,
  gateKinds,
  type TodoStatus,
} from './tables.ts';

// ---- decision scopes -----------------------------------------------------------------

export interface DecisionScope {
  readonly kind: GateKind;
  readonly granularity: GateGranularity;
  readonly scopeKey: string;
}

const SCOPE_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
export const MAX_SCOPE_KEY = 100;

export function validateScopeKey(field: string, value: string, label = field): string {
  if (value.length === 0) throw new InputError(`${label} must not be empty`, field);
  if (value.length > MAX_SCOPE_KEY) {
    throw new InputError(`${label} must be at most ${MAX_SCOPE_KEY} characters`, field);
  }
  if (!SCOPE_KEY.test(value)) {
    throw new InputError(
      `${label} may contain only letters, digits, '.', '_', '-' and '/' (lanes), and must start with a letter or digit`,
      field,
    );
  }
  return value;
}

/** `kind:granularity:scopeKey`, e.g. `public_claim:action:bilingual_homepage` (kind and granularity in any case). */
export function parseDecisionScope(field: string, value: string): DecisionScope {
  const [kind, granularity, scopeKey, ...rest] = value.split(':');
  const upperKind = kind?.toUpperCase() as GateKind;
  const upperGranularity = granularity?.toUpperCase() as GateGranularity;
  if (rest.length > 0 || scopeKey === undefined) {
    throw new InputError(
      `${field}: "${value}" is not of the form kind:granularity:scopeKey`,
      field,
    );
  }
  if (!gateKinds.includes(upperKind)) {
    throw new InputError(
      `${field}: unknown kind "${kind}" (one of ${gateKinds.map((k) => k.toLowerCase()).join(', ')})`,
      field,
    );
  }
  if (!gateGranularities.includes(upperGranularity)) {
    throw new InputError(
      `${field}: unknown granularity "${granularity}" (one of ${gateGranularities.map((g) => g.toLowerCase()).join(', ')})`,
      field,
    );
  }
  return {
    kind: upperKind,
    granularity: upperGranularity,
    scopeKey: validateScopeKey(field, scopeKey, `${field}: the scopeKey of "${value}"`),
  };
}

/** The canonical text form: lower-case kind and granularity. */
export function formatDecisionScope(scope: DecisionScope): string {
  return `${scope.kind.toLowerCase()}:${scope.granularity.toLowerCase()}:${scope.scopeKey}`;
}

/**
 * Whether a gate's scope covers a scope a todo requires. Kinds must match; then:
 * - ACTION covers only the ACTION scope with the same key;
 * - LANE covers the LANE scope with the same key and every ACTION scope inside the lane,
 *   i.e. whose key starts with `<lane key>/`;
 * - GOAL, PROJECT and GLOBAL cover every scope of their kind. A gate lives in one goal and
 *   only ever holds back that goal's todos, so these three block the same todos; PROJECT and
 *   GLOBAL record how broadly the decision was asked for, they never reach another goal.
 * A narrower gate never covers a broader requirement (an ACTION gate does not block a todo
 * that needs a GOAL-wide decision).
 */
export function covers(gate: DecisionScope, required: DecisionScope): boolean {
  if (gate.kind !== required.kind) return false;
  switch (gate.granularity) {
    case 'ACTION':
      return required.granularity === 'ACTION' && required.scopeKey === gate.scopeKey;
    case 'LANE':
      return (
        (required.granularity === 'LANE' && required.scopeKey === gate.scopeKey) ||
        (required.granularity === 'ACTION' && required.scopeKey.startsWith(`${gate.scopeKey}/`))
      );
    default:
      return true;
  }
}

// ---- resume conditions ---------------------------------------------------------------

export type ResumeCondition =
  | { readonly kind: 'todo_done'; readonly todoId: string; readonly text: string }
  | { readonly kind: 'gate_resolved'; readonly gateId: string; readonly text: string }
  | { readonly kind: 'capacity_available'; readonly capability: string; readonly text: string }
  | ({ readonly kind: 'pr_merged'; readonly text: string } & PullRequestRef);

/**
 * `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>` or
 * `pr_merged:<owner/repo>#<n>` (`pr_merged:#<n>`: the todo's own taskRepository). A
 * `pr_merged:` condition is kept in its canonical form (`pr_merged:git:host/owner/repo#123`).
 */
export function parseResumeCondition(field: string, value: string): ResumeCondition {
  const colon = value.indexOf(':');
  const form = colon < 0 ? value : value.slice(0, colon);
  const arg = colon < 0 ? '' : value.slice(colon + 1);
  switch (form) {
    case 'todo_done':
      return { kind: form, todoId: validateId(field, arg), text: `${form}:${arg}` };
    case 'gate_resolved':
      return { kind: form, gateId: validateId(field, arg), text: `${form}:${arg}` };
    case 'capacity_available':
      return { kind: form, capability: validateId(field, arg), text: `${form}:${arg}` };
    case 'pr_merged': {
      const ref = parsePullRequestRef(field, arg);
      return { kind: form, ...ref, text: formatPullRequestRef(ref) };
    }
    default:
      throw new InputError(
        `${field}: "${value}" is not a resume condition (todo_done:<id>, gate_resolved:<id>, capacity_available:<capability>, pr_merged:<owner/repo>#<n>)`,
        field,
      );
  }
}

/**
 * The merge a `pr_merged:` condition waits for on a todo: its own repository, or for a bare
 * `#n` the todo's taskRepository; null (never satisfiable: it fails closed) when neither.
 */
export function mergeKeyOf(
  condition: PullRequestRef,
  taskRepository: string | null,
): string | null {
  const repository = condition.repository ?? taskRepository;
  return repository === null ? null : mergeKey(repository, condition.number);
}

// ---- the frontier --------------------------------------------------------------------

export const frontierGuardKinds = [
  'DEPENDENCY',
  'RESUME_CONDITION',
  'DECISION_SCOPE',
  'CLAIMED_BY_OTHER',
  'CAPABILITY',
  'WORKSPACE',
  'WRITE_SCOPE_CONFLICT',
  'LEASE_HELD',
  'STALE',
] as const;
export type FrontierGuardKind = (typeof frontierGuardKinds)[number];

/** Why a repository-writing todo cannot run in the agent's declared workspace. */
export const workspaceGuardReasons = [
  'NO_WORKSPACE',
  'REPOSITORY_MISMATCH',
  'CANONICAL_CHECKOUT',
] as const;
export type WorkspaceGuardReason = (typeof workspaceGuardReasons)[number];

/** The agent's declared workspace, as the WORKSPACE guard reads it. */
export interface FrontierWorkspace {
  readonly repository: string;
  readonly worktree: 'LINKED' | 'CANONICAL';
}

/** One reason a todo is held back, naming what holds it. */
export interface FrontierGuard {
  readonly kind: FrontierGuardKind;
  readonly detail: string;
  /** DEPENDENCY and RESUME_CONDITION (todo_done): the todo that must be done. */
  readonly todoId?: string;
  readonly todoStatus?: TodoStatus;
  /** DECISION_SCOPE and RESUME_CONDITION (gate_resolved): the gate. */
  readonly gateId?: string;
  /** DECISION_SCOPE: the required scope the gate covers. */
  readonly scope?: string;
  /** CLAIMED_BY_OTHER and WRITE_SCOPE_CONFLICT: the owner; LEASE_HELD: the holder. */
  readonly agentId?: string;
  /** WRITE_SCOPE_CONFLICT: the other todo's write-scope entry that overlaps this todo's. */
  readonly writeScope?: string;
  /** CAPABILITY and RESUME_CONDITION (capacity_available). */
  readonly capability?: string;
  /** RESUME_CONDITION: the condition as written. */
  readonly condition?: string;
  /** RESUME_CONDITION (pr_merged): the repository the merge must be recorded in; WORKSPACE: the todo's; WRITE_SCOPE_CONFLICT: the shared one. */
  readonly repository?: string;
  /** WORKSPACE: why the declared workspace does not do. */
  readonly workspaceReason?: WorkspaceGuardReason;
}

/** The live todo fields the guards read. */
export interface FrontierTodo extends ScopedWork {
  readonly id: string;
  readonly status: TodoStatus;
  readonly dependsOn: readonly string[];
  readonly resumeWhen: readonly string[];
  readonly requiredDecisionScopes: readonly string[];
  readonly requiredCapability: string | null;
  readonly taskRepository: string | null;
  readonly claimedBy: string | null;
  readonly leaseHolder: string | null;
  readonly leaseState: 'ACTIVE' | 'EXPIRED' | 'NONE';
}

/** A gate as the frontier sees it: its scope, and whether it still blocks. */
export interface FrontierGate extends DecisionScope {
  readonly id: string;
  /** OPEN or DENIED and not expired: it covers (blocks) the scopes it covers. */
  readonly inForce: boolean;
  /** Decided either way, or expired: `gate_resolved:<id>` holds. */
  readonly settled: boolean;
}

/** Where a referenced todo's supersede chain ends: the todo that must be DONE. */
export interface ChainEnd {
  readonly id: string;
  readonly status: TodoStatus;
}

/** A todo that left the frontier without being done: superseded (and by what) or closed. */
export interface Retired {
  readonly status: 'SUPERSEDED' | 'CLOSED_NO_FOLLOW_UP';
  readonly supersededBy: string | null;
}

export interface FrontierFacts<T extends FrontierTodo> {
  readonly agentId: string;
  readonly capabilities: ReadonlySet<string>;
  /** Where the agent declares it runs; null when it declared nothing. */
  readonly workspace: FrontierWorkspace | null;
  /** Live todos (OPEN, DEFERRED), in display order. */
  readonly todos: readonly T[];
  /** Where each referenced todo's supersede chain ends (lineageOf `todos` and the retired ones). */
  readonly lineage: Lineage;
  /** Gates in force, plus every gate a gate_resolved condition names. */
  readonly gates: readonly FrontierGate[];
  /** The referenced capabilities some active agent of the goal declares. */
  readonly availableCapabilities: ReadonlySet<string>;
  /** Recorded merges of the goal, as `mergeKey(repository, number)`. */
  readonly mergedPullRequests: ReadonlySet<string>;
}

export interface FrontierRow<T> {
  readonly todo: T;
  readonly runnable: boolean;
  readonly guards: FrontierGuard[];
}

/** Which rows of the frontier to return. Counts are always of the whole frontier. */
export interface FrontierSelection {
  /** true: only runnable rows; false: only held ones; null: both, runnable first. */
  readonly runnable: boolean | null;
  /** At most this many of those rows, in frontier order; null: all of them. */
  readonly limit: number | null;
}

export const EVERY_ROW: FrontierSelection = { runnable: null, limit: null };

/** The rows asked for, and the size of the whole frontier they were taken from. */
export interface FrontierAnswer<T> {
  readonly rows: FrontierRow<T>[];
  /** Every live todo: the whole frontier's rows, whatever was selected. */
  readonly rowCount: number;
  /** How many of the whole frontier's rows are runnable. */
  readonly runnableCount: number;
}

/** What every guard check reads, built once per frontier. */
interface GuardContext {
  readonly agentId: string;
  readonly capabilities: ReadonlySet<string>;
  readonly workspace: FrontierWorkspace | null;
  readonly availableCapabilities: ReadonlySet<string>;
  readonly mergedPullRequests: ReadonlySet<string>;
  readonly lineage: Lineage;
  readonly gatesById: ReadonlyMap<string, FrontierGate>;
  readonly gatesByKind: ReadonlyMap<GateKind, readonly FrontierGate[]>;
  /** WRITE_SCOPE_CONFLICT guards: todos writing the same entries share them (conflicts.ts). */
  readonly conflicts: WriteScopeConflicts<FrontierGuard>;
  /** Stored strings repeat across todos: parse each once (stored values were validated). */
  readonly scope: (text: string) => DecisionScope;
  readonly condition: (text: string) => ResumeCondition;
}

/**
 * Every live todo with the guards that hold it back for `agentId`, in guard order:
 * dependency and resume → decision scope → claim → capability → workspace → write scope →
 * lease → freshness. Decision scope, capability and workspace are independent: none implies
 * or waives another.
 * Priority plays no part in any guard; it only orders rows. Runnable rows come first.
 *
 * `selection` narrows the rows returned, never the counts. The cost follows the answer: when
 * not every held row is returned, each todo is first only asked whether it is held (the checks
 * stop at its first guard, conflicts at their first overlapping claim), and the guards are
 * built for the held rows returned alone.
 */
export function computeFrontier<T extends FrontierTodo>(
  facts: FrontierFacts<T>,
  selection: FrontierSelection = EVERY_ROW,
): FrontierAnswer<T> {
  const gatesByKind = new Map<GateKind, FrontierGate[]>();
  const gatesById = new Map<string, FrontierGate>();
  for (const gate of facts.gates) {
    gatesById.set(gate.id, gate);
    if (gate.inForce) gatesByKind.set(gate.kind, [...(gatesByKind.get(gate.kind) ?? []), gate]);
  }
  const context: GuardContext = {
    agentId: facts.agentId,
    capabilities: facts.capabilities,
    workspace: facts.workspace,
    availableCapabilities: facts.availableCapabilities,
    mergedPullRequests: facts.mergedPullRequests,
    lineage: facts.lineage,
    gatesById,
    gatesByKind,
    conflicts: writeScopeConflicts(facts.todos, facts.agentId, conflictGuard),
    scope: memoize((text: string) => parseDecisionScope('requiredDecisionScopes', text)),
    condition: memoize((text: string) => parseResumeCondition('resumeWhen', text)),
  };
  const rowCount = facts.todos.length;
  if (selection.runnable !== true && selection.limit === null) {
    // Every held row is returned with all its guards: build them once, in one pass.
    const runnable: FrontierRow<T>[] = [];
    const held: FrontierRow<T>[] = [];
    for (const todo of facts.todos) {
      const guards = guardsOf(todo, context);
      (guards.length === 0 ? runnable : held).push({ todo, runnable: guards.length === 0, guards });
    }
    const rows = selection.runnable === false ? held : runnable.concat(held);
    return { rows, rowCount, runnableCount: runnable.length };
  }
  const runnable: T[] = [];
  const held: T[] = [];
  for (const todo of facts.todos) (isHeld(todo, context) ? held : runnable).push(todo);
  const chosen =
    selection.runnable === true
      ? runnable
      : selection.runnable === false
        ? held
        : runnable.concat(held);
  const returned = selection.limit === null ? chosen : chosen.slice(0, selection.limit);
  const rows = returned.map((todo, i): FrontierRow<T> => {
    const isRunnable = selection.runnable ?? i < runnable.length;
    return { todo, runnable: isRunnable, guards: isRunnable ? [] : guardsOf(todo, context) };
  });
  return { rows, rowCount, runnableCount: runnable.length };
}

/** Every guard holding `todo` back, in guard order. */
function guardsOf(todo: FrontierTodo, context: GuardContext): FrontierGuard[] {
  const guards: FrontierGuard[] = [];
  dependencyGuards(todo, context, guards);
  const waiting = resumeGuards(todo, context, guards);
  decisionScopeGuards(todo, context, guards);
  claimGuards(todo, context, guards);
  capabilityGuards(todo, context, guards);
  workspaceGuards(todo, context, guards);
  guards.push(...context.conflicts.find(todo));
  leaseGuards(todo, context, guards);
  staleGuard(todo, waiting, guards);
  return guards;
}

/**
 * Whether `guardsOf` would give any guard, asking the same checks with no list (each stops
 * at its first unmet condition), the cheap ones first. A DEFERRED todo is always held: by a
 * resume condition while one is unmet, by STALE once they all hold.
 */
function isHeld(todo: FrontierTodo, context: GuardContext): boolean {
  return (
    staleGuard(todo, false, null) ||
    claimGuards(todo, context, null) ||
    capabilityGuards(todo, context, null) ||
    workspaceGuards(todo, context, null) ||
    leaseGuards(todo, context, null) ||
    dependencyGuards(todo, context, null) ||
    resumeGuards(todo, context, null) ||
    decisionScopeGuards(todo, context, null) ||
    context.conflicts.exists(todo)
  );
}

/**
 * Where a guard check puts what it finds: a list to fill with every guard of its kind, or
 * null when the caller asks only whether there is one (the check then returns at the first
 * and builds nothing). Each check returns whether it found any.
 */
type GuardSink = FrontierGuard[] | null;

/**
 * Freshness: a deferred todo whose resume condition now holds (`waiting` false) is back for
 * replanning, not runnable as written: the plan it was deferred with may be out of date.
 */
function staleGuard(todo: FrontierTodo, waiting: boolean, guards: GuardSink): boolean {
  if (todo.status !== 'DEFERRED' || waiting) return false;
  guards?.push({
    kind: 'STALE',
    detail:
      'deferred, and its resume condition now holds: replan it, then resumeTodo (or supersede it)',
  });
  return true;
}

function describeChain(ref: string, end: ChainEnd): string {
  const via = end.id === ref ? '' : `, superseded by ${end.id}`;
  return `${ref}${via} (${end.status})`;
}

/** The id a condition or dependency waits on is done when its supersede chain ends DONE. */
const notDone = (end: ChainEnd | undefined): end is ChainEnd =>
  end !== undefined && end.status !== 'DONE';

/** Why a reference whose chain ends at `end` (not done) is not done. */
function doneGuardDetail(ref: string, end: ChainEnd): string {
  const closed =
    end.status === 'CLOSED_NO_FOLLOW_UP'
      ? ': it was closed without follow-up and will never be done; replan (setDependencies, supersede or close this todo)'
      : '';
  return `${describeChain(ref, end)} is not done${closed}`;
}

/**
 * Where the supersede chain of each live or retired todo ends: the todo that must be done (a
 * live todo, or one closed without follow-up). An id not in it is done: references are checked
 * on write and todos are never deleted, so a referenced id that is neither live nor retired is
 * DONE, as is a chain that ends at one. Depends on the goal's todos alone, not on the agent:
 * built once per set of todos (work/frontier.ts keeps it with them) and never changed.
 */
export type Lineage = ReadonlyMap<string, ChainEnd>;

/** The lineage of the live todos `live` and the goal's superseded and closed ones, `retired`. */
export function lineageOf(
  live: readonly FrontierTodo[],
  retired: ReadonlyMap<string, Retired>,
): Lineage {
  const ends = new Map<string, ChainEnd>();
  for (const todo of live) ends.set(todo.id, todo);
  for (const ref of retired.keys()) {
    let id = ref;
    let end: ChainEnd | undefined;
    // Supersession only ever names a live todo, so a chain cannot loop; the bound is a guard.
    for (let hops = 0; hops < 1000; hops++) {
      const gone = retired.get(id);
      if (gone === undefined) {
        end = ends.get(id); // a live todo (ends holds no other id that is not retired), or done
        break;
      }
      if (gone.status !== 'SUPERSEDED' || gone.supersededBy === null) {
        end = { id, status: gone.status };
        break;
      }
      id = gone.supersededBy;
    }
    if (end) ends.set(ref, end);
  }
  return ends;
}

function dependencyGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  let found = false;
  for (const dep of todo.dependsOn) {
    const end = context.lineage.get(dep);
    if (!notDone(end)) continue;
    if (guards === null) return true;
    found = true;
    guards.push({
      kind: 'DEPENDENCY',
      detail: `depends on ${doneGuardDetail(dep, end)}`,
      todoId: end.id,
      todoStatus: end.status,
    });
  }
  return found;
}

/** A guard per unmet resume condition; true when there was one. */
function resumeGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  let found = false;
  for (const text of todo.resumeWhen) {
    const guard = resumeGuard(todo, context, text);
    if (guard === null) continue;
    if (guards === null) return true;
    found = true;
    guards.push(guard);
  }
  return found;
}

/** The guard of one resume condition; null when it holds. */
function resumeGuard(
  todo: FrontierTodo,
  context: GuardContext,
  text: string,
): FrontierGuard | null {
  const condition = context.condition(text);
  switch (condition.kind) {
    case 'todo_done': {
      const end = context.lineage.get(condition.todoId);
      if (!notDone(end)) return null;
      return {
        kind: 'RESUME_CONDITION',
        condition: text,
        detail: `waits for ${text}: ${doneGuardDetail(condition.todoId, end)}`,
        todoId: end.id,
        todoStatus: end.status,
      };
    }
    case 'gate_resolved':
      if (context.gatesById.get(condition.gateId)?.settled) return null;
      return {
        kind: 'RESUME_CONDITION',
        condition: text,
        detail: `waits for ${text}: the gate has no decision yet`,
        gateId: condition.gateId,
      };
    case 'capacity_available':
      if (context.availableCapabilities.has(condition.capability)) return null;
      return {
        kind: 'RESUME_CONDITION',
        condition: text,
        detail: `waits for ${text}: no active agent of the goal declares it`,
        capability: condition.capability,
      };
    case 'pr_merged': {
      // A bare `#n` means the todo's own repository; with none it fails closed, never
      // guessing a repository from the number.
      const key = mergeKeyOf(condition, todo.taskRepository);
      if (key !== null && context.mergedPullRequests.has(key)) return null;
      const repository = condition.repository ?? todo.taskRepository;
      return {
        kind: 'RESUME_CONDITION',
        condition: text,
        detail:
          repository === null
            ? `waits for ${text}: it names no repository and the todo has no taskRepository, so it fails closed`
            : `waits for ${text}: no merge of ${repository}#${condition.number} is recorded`,
        ...(repository === null ? {} : { repository }),
      };
    }
  }
}

function decisionScopeGuards(
  todo: FrontierTodo,
  context: GuardContext,
  guards: GuardSink,
): boolean {
  let found = false;
  for (const text of todo.requiredDecisionScopes) {
    const required = context.scope(text);
    for (const gate of context.gatesByKind.get(required.kind) ?? []) {
      if (!covers(gate, required)) continue;
      if (guards === null) return true;
      found = true;
      guards.push({
        kind: 'DECISION_SCOPE',
        detail: `needs ${text}, which gate ${gate.id} (${formatDecisionScope(gate)}) covers and has not granted`,
        gateId: gate.id,
        scope: text,
      });
    }
  }
  return found;
}

function claimGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  if (todo.claimedBy === null || todo.claimedBy === context.agentId) return false;
  guards?.push({
    kind: 'CLAIMED_BY_OTHER',
    detail: `claimed by ${todo.claimedBy}`,
    agentId: todo.claimedBy,
  });
  return true;
}

function capabilityGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  const needed = todo.requiredCapability;
  if (needed === null || context.capabilities.has(needed)) return false;
  guards?.push({
    kind: 'CAPABILITY',
    detail: `needs capability ${needed}, which this agent has not declared`,
    capability: needed,
  });
  return true;
}

/**
 * A repository-writing todo (a taskRepository and a write scope) runs only from a linked
 * worktree of that repository: no declared workspace, another repository, or the canonical
 * checkout hold it back. A todo naming no repository, or writing nothing, needs no workspace.
 */
function workspaceGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  const repository = todo.taskRepository;
  if (repository === null || todo.writeScope.length === 0) return false;
  const declared = context.workspace;
  const reason: WorkspaceGuardReason | null =
    declared === null
      ? 'NO_WORKSPACE'
      : declared.repository !== repository
        ? 'REPOSITORY_MISMATCH'
        : declared.worktree === 'CANONICAL'
          ? 'CANONICAL_CHECKOUT'
          : null;
  if (reason === null) return false;
  if (guards === null) return true;
  const detail = {
    NO_WORKSPACE: `writes ${repository}, and this agent has declared no workspace: it needs a linked worktree of that repository`,
    REPOSITORY_MISMATCH: `writes ${repository}, and this agent runs in ${declared?.repository}`,
    CANONICAL_CHECKOUT: `writes ${repository}, and this agent runs in its canonical checkout: repository-writing work needs a linked worktree`,
  }[reason];
  guards.push({ kind: 'WORKSPACE', detail, repository, workspaceReason: reason });
  return true;
}

function conflictGuard(conflict: WriteScopeConflict): FrontierGuard {
  return {
    kind: 'WRITE_SCOPE_CONFLICT',
    detail: `writes ${conflict.writeScope}, which overlaps ${conflict.otherWriteScope} of ${conflict.todoId}, claimed by ${conflict.owner}${conflict.repository ? ` in ${conflict.repository}` : ''}`,
    todoId: conflict.todoId,
    agentId: conflict.owner,
    writeScope: conflict.otherWriteScope,
    ...(conflict.repository ? { repository: conflict.repository } : {}),
  };
}

function leaseGuards(todo: FrontierTodo, context: GuardContext, guards: GuardSink): boolean {
  if (todo.leaseState !== 'ACTIVE' || todo.leaseHolder === context.agentId) return false;
  guards?.push({
    kind: 'LEASE_HELD',
    detail: `an active lease is held by ${todo.leaseHolder}`,
    agentId: todo.leaseHolder ?? undefined,
  });
  return true;
}
