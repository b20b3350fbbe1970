/** The frontier: every live todo with `runnable` and its guards, for one agent. */
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { ReplanObligationKindEnum } from '../../ledger/graphql/obligations.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { FRONTIER_LIMIT_MAX, type Frontier, type FrontierTodo, frontier } from '../frontier.ts';
import {
  type FrontierGuard,
  type FrontierGuardKind,
  type FrontierRow,
  type WorkspaceGuardReason,
  workspaceGuardReasons,
} from '../rules.ts';
import { leaseOf } from '../values.ts';
import { LeaseRef } from './leases.ts';
import { TaskClassEnum } from './todos.ts';
import { WorkspaceRef } from './workspaces.ts';
import { TodoStatusEnum } from './write.ts';

const FrontierGuardKindEnum = builder.enumType('FrontierGuardKind', {
  description:
    'Why a live todo is not runnable for an agent. Guards are listed in this order, which is the order they are checked.',
  values: {
    DEPENDENCY: {
      description:
        'A todo in `dependsOn` is not done (following supersede lineage to its replacement).',
    },
    RESUME_CONDITION: { description: 'A `resumeWhen` condition does not hold yet.' },
    DECISION_SCOPE: {
      description:
        'An open (or denied) gate covers a decision scope the todo requires. Priority never bypasses it; a claim or a lease does not either.',
    },
    CLAIMED_BY_OTHER: { description: 'Another agent claims it (the owner is named).' },
    CAPABILITY: {
      description: 'The agent has not declared the capability the todo requires.',
    },
    WORKSPACE: {
      description:
        "A repository-writing todo (a taskRepository and a write scope) and the agent's declared workspace does not do: none declared, another repository, or the canonical checkout (see `workspaceReason`). Independent of DECISION_SCOPE and CAPABILITY: none implies another.",
    },
    WRITE_SCOPE_CONFLICT: {
      description:
        'Another agent claims a live todo of the same repository whose write scope overlaps this one (one guard per such agent, naming its earliest such claim). Of two overlapping claimed todos only the later claim is held back. A claim is not a lock: this is the frontier saying the two should not run at once.',
    },
    LEASE_HELD: { description: 'Another agent holds an active lease on it.' },
    STALE: {
      description:
        'Deferred and its resume condition now holds: it may be out of date; replan, then resume or supersede it.',
    },
  } satisfies Record<FrontierGuardKind, unknown>,
});

const WorkspaceGuardReasonEnum = builder.enumType('WorkspaceGuardReason', {
  description: "Why the agent's declared workspace does not do for a repository-writing todo.",
  values: describeValues(workspaceGuardReasons, {
    NO_WORKSPACE: 'The agent has declared no workspace in the goal (declareWorkspace).',
    REPOSITORY_MISMATCH: "The agent's workspace is a checkout of another repository.",
    CANONICAL_CHECKOUT:
      'The workspace is the canonical checkout of the repository: writing needs a linked worktree.',
  } satisfies Record<WorkspaceGuardReason, string>),
});

export const FrontierGuardRef = builder.objectRef<FrontierGuard>('FrontierGuard').implement({
  description: 'One reason a todo is held back, naming what holds it.',
  fields: (t) => ({
    kind: t.expose('kind', {
      type: FrontierGuardKindEnum,
      description: 'Which guard.',
    }),
    detail: t.exposeString('detail', { description: 'A sentence for people.' }),
    todoId: t.exposeID('todoId', {
      nullable: true,
      description:
        'DEPENDENCY, RESUME_CONDITION on todo_done: the todo that must be done (the end of a supersede chain); WRITE_SCOPE_CONFLICT: the other todo.',
    }),
    todoStatus: t.expose('todoStatus', {
      type: TodoStatusEnum,
      nullable: true,
      description: "That todo's status.",
    }),
    gateId: t.exposeID('gateId', {
      nullable: true,
      description: 'DECISION_SCOPE, RESUME_CONDITION on gate_resolved: the gate.',
    }),
    scope: t.exposeString('scope', {
      nullable: true,
      description: 'DECISION_SCOPE: the required scope the gate covers.',
    }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description: 'CLAIMED_BY_OTHER and WRITE_SCOPE_CONFLICT: the owner; LEASE_HELD: the holder.',
    }),
    writeScope: t.exposeString('writeScope', {
      nullable: true,
      description:
        "WRITE_SCOPE_CONFLICT: the other todo's write-scope entry that overlaps this todo's (`todoId` names the other todo).",
    }),
    capability: t.exposeString('capability', {
      nullable: true,
      description: 'CAPABILITY, RESUME_CONDITION on capacity_available: the capability.',
    }),
    condition: t.exposeString('condition', {
      nullable: true,
      description: 'RESUME_CONDITION: the condition as written.',
    }),
    repository: t.exposeString('repository', {
      nullable: true,
      description:
        "RESUME_CONDITION on pr_merged: the repository the merge must be recorded in (null when the condition fails closed for want of one); WORKSPACE: the todo's repository; WRITE_SCOPE_CONFLICT: the shared repository (null when neither todo names one).",
    }),
    workspaceReason: t.expose('workspaceReason', {
      type: WorkspaceGuardReasonEnum,
      nullable: true,
      description: 'WORKSPACE: why the declared workspace does not do.',
    }),
  }),
});

const FrontierTodoRef = builder.objectRef<FrontierTodo>('FrontierTodo').implement({
  description:
    'The routing fields of a live todo, as the frontier read them. Read `todos` for the rest (write scope, lineage, actors, times).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The todo id.' }),
    title: t.exposeString('title', { description: 'Human-readable; never routed on.' }),
    taskClass: t.expose('taskClass', {
      type: TaskClassEnum,
      description: 'Its class, as declared.',
    }),
    status: t.expose('status', {
      type: TodoStatusEnum,
      description: 'OPEN or DEFERRED.',
    }),
    priority: t.exposeInt('priority', { description: 'Orders rows; never bypasses a guard.' }),
    dependsOn: t.exposeIDList('dependsOn', { description: 'Its dependencies.' }),
    resumeWhen: t.exposeStringList('resumeWhen', { description: 'Its resume conditions.' }),
    requiredDecisionScopes: t.exposeStringList('requiredDecisionScopes', {
      description: 'The decision scopes it needs.',
    }),
    requiredCapability: t.exposeString('requiredCapability', {
      nullable: true,
      description: 'The capability it needs.',
    }),
    taskRepository: t.exposeString('taskRepository', {
      nullable: true,
      description: 'The repository it writes to, if any.',
    }),
    writeScope: t.exposeStringList('writeScope', {
      description: 'The relative paths or globs it writes.',
    }),
    claimedBy: t.exposeID('claimedBy', {
      nullable: true,
      description: 'Its soft owner, if any.',
    }),
    lease: t.field({
      type: LeaseRef,
      resolve: (todo) => leaseOf(todo),
      description: 'Its occupancy lease (state NONE when there is none).',
    }),
  }),
});

const FrontierRowRef = builder.objectRef<FrontierRow<FrontierTodo>>('FrontierRow').implement({
  description: 'A live todo and whether the agent may run it now.',
  fields: (t) => ({
    todo: t.expose('todo', { type: FrontierTodoRef, description: 'The todo.' }),
    runnable: t.exposeBoolean('runnable', {
      description: 'True only when no guard holds it back. Not a claim, not an assignment.',
    }),
    guards: t.expose('guards', {
      type: [FrontierGuardRef],
      description: 'Every guard holding it back, in guard order; empty when runnable.',
    }),
  }),
});

const FrontierRef = builder.objectRef<Frontier>('Frontier').implement({
  description:
    "The goal's live work as one agent sees it: every OPEN or DEFERRED todo (unless `runnable` or `limit` selected fewer: see `omittedRowCount`) with `runnable` and its guards (dependency and resume → decision scope → claim → capability → workspace → write scope → lease → freshness). The counts are always of the whole frontier. Read from one snapshot; it assigns nothing.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent it was computed for.' }),
    seq: t.expose('seq', {
      type: 'Seq',
      description: "The goal's work sequence it reflects; any work write moves it.",
    }),
    capabilities: t.exposeStringList('capabilities', {
      description: "The agent's declared capabilities.",
    }),
    workspace: t.expose('workspace', {
      type: WorkspaceRef,
      nullable: true,
      description: "The agent's declared workspace; null when it declared none.",
    }),
    replanNotices: t.expose('replanNotices', {
      type: [ReplanObligationKindEnum],
      description:
        'VISION_CHECKPOINT_MISSING when the agent has a vision and has recorded no replan checkpoint; empty otherwise. Holds back no row: read replanObligations for everything owed.',
    }),
    rowCount: t.exposeInt('rowCount', {
      description:
        'How many rows the whole frontier has (every live todo), whatever `runnable` and `limit` selected.',
    }),
    runnableCount: t.exposeInt('runnableCount', {
      description:
        'How many rows of the whole frontier are runnable, whatever `runnable` and `limit` selected: with `runnable: true` and a limit, more runnable todos exist than `rows` holds when this is larger.',
    }),
    omittedRowCount: t.int({
      resolve: (f) => f.rowCount - f.rows.length,
      description:
        'How many rows of the whole frontier this answer leaves out, by the `runnable` filter or the `limit`: 0 only when `rows` is the whole frontier. Never read a frontier with omitted rows as complete.',
    }),
    rows: t.expose('rows', {
      type: [FrontierRowRef],
      description:
        'The rows selected: runnable rows first, then by priority (highest first), then oldest first; with `runnable`, only those of that kind, and with `limit`, the first that many of them in this order.',
    }),
  }),
});

const FrontierResult = builder.unionType('FrontierResult', {
  description: 'The frontier, or why it cannot be computed.',
  types: [FrontierRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

builder.queryFields((t) => ({
  frontier: t.withAuth({ reader: true }).field({
    type: FrontierResult,
    description:
      "Every live todo of the goal with `runnable` and the guards holding it back for one agent; `runnable` and `limit` narrow the rows returned (the agent's ready work: `runnable: true`), never the counts. Open is not runnable; priority never bypasses a gate; a claim does not prove the work is executable. Computed in a constant number of SQL statements.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        description:
          'The active agent to compute it for; a PEER may omit it for itself. Reading it grants nothing.',
      }),
      runnable: t.arg.boolean({
        description:
          'true: only the runnable rows (what the agent may take now); false: only the held rows, each with every guard; omitted: both, runnable first.',
      }),
      limit: t.arg.int({
        description: `At most this many rows of those selected, 0-${FRONTIER_LIMIT_MAX} (0: the counts alone); omitted: every row. A limit outside that range is refused (BAD_USER_INPUT).`,
      }),
    },
    resolve: (_root, args, { db, caller, deps }) =>
      frontier(
        db,
        caller,
        args.goalId,
        args.agentId,
        { runnable: args.runnable, limit: args.limit },
        deps.frontierTodos,
      ),
  }),
}));
