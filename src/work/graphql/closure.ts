/** Goal closure: goalClosure (closable, and every reason not) and closeGoal. */
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { ReplanObligationKindEnum } from '../../ledger/graphql/obligations.ts';
import {
  closeGoal,
  type GoalClosed,
  type GoalClosure,
  type GoalClosureReason,
  type GoalClosureReasonKind,
  type GoalClosureRefused,
  goalClosure,
  goalClosureReasonKinds,
} from '../closure.ts';
import type { GoalClosureRow } from '../tables.ts';
import { TaskClassEnum } from './todos.ts';
import { ActorRef, TodoStatusEnum } from './write.ts';

const GoalClosureReasonKindEnum = builder.enumType('GoalClosureReasonKind', {
  description: 'Why a goal may not be closed. goalClosure lists every reason that holds.',
  values: describeValues(goalClosureReasonKinds, {
    ALREADY_CLOSED: 'The goal is closed already (see `closure`).',
    UNRESOLVED_GATE: 'A gate is open: undecided and not expired (`gateId`).',
    MONITOR_DUE:
      'A continuous monitor is live (open: due now; deferred: due again when its condition holds). Close it with no follow-up when monitoring ends.',
    LIVE_ADVANCEMENT_TODO: 'An advancement todo is still OPEN or DEFERRED (`todoId`).',
    LIVE_TODO: 'A user gate, user action or blocker todo is still OPEN or DEFERRED (`todoId`).',
    PENDING_CONTINUATION:
      'A successor (created on completion) or a replacement (of a superseded todo) is still live (`todoId`).',
    REPLAN_OWED:
      'An active agent owes a digest-checked replan checkpoint (`agentId`, `obligations`): see replanObligations.',
    CLOSED_WITHOUT_REASON:
      'A todo was closed with no follow-up and records no reason for it (`todoId`).',
    NO_ACCEPTANCE_EVIDENCE:
      'No acceptance evidence is recorded: a goal-level ACCEPTANCE ledger row citing evidence refs (recordEvent by an ADMIN or STEWARD).',
  } satisfies Record<GoalClosureReasonKind, string>),
});

const GoalClosureReasonRef = builder.objectRef<GoalClosureReason>('GoalClosureReason').implement({
  description: 'One reason a goal may not be closed, naming what holds it open.',
  fields: (t) => ({
    kind: t.expose('kind', { type: GoalClosureReasonKindEnum, description: 'Which reason.' }),
    detail: t.exposeString('detail', { description: 'A sentence for people.' }),
    todoId: t.exposeID('todoId', { nullable: true, description: 'The todo, for todo reasons.' }),
    taskClass: t.expose('taskClass', {
      type: TaskClassEnum,
      nullable: true,
      description: "That todo's class.",
    }),
    todoStatus: t.expose('todoStatus', {
      type: TodoStatusEnum,
      nullable: true,
      description: "That todo's status.",
    }),
    gateId: t.exposeID('gateId', { nullable: true, description: 'UNRESOLVED_GATE: the gate.' }),
    agentId: t.exposeID('agentId', { nullable: true, description: 'REPLAN_OWED: the agent.' }),
    obligations: t.field({
      type: [ReplanObligationKindEnum],
      nullable: true,
      resolve: (r) => r.obligations ?? null,
      description: 'REPLAN_OWED: what the agent owes.',
    }),
  }),
});

const GoalClosureRecordRef = builder.objectRef<GoalClosureRow>('GoalClosureRecord').implement({
  description: "A goal's recorded closure (closeGoal).",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    reason: t.exposeString('reason', { description: 'Why it was closed (screened).' }),
    acceptanceRefs: t.exposeStringList('acceptanceRefs', {
      description: 'The acceptance evidence it cites (relative refs).',
    }),
    closedAt: t.expose('closedAt', { type: 'DateTime', description: 'When.' }),
    closedBy: t.field({
      type: ActorRef,
      resolve: (c) => ({ kind: c.closedByKind, agentId: c.closedByAgent }),
      description: 'Who closed it.',
    }),
    ledgerSeq: t.expose('ledgerSeq', { type: 'Seq', description: 'Its GOAL_CLOSED ledger row.' }),
    workSeq: t.expose('workSeq', {
      type: 'Seq',
      description: "The goal's work sequence it moved to.",
    }),
  }),
});

const GoalClosureRef = builder.objectRef<GoalClosure>('GoalClosure').implement({
  description:
    'Whether a goal may be closed now, and every reason it may not. Completing every todo never closes a goal: only closeGoal does.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    closable: t.exposeBoolean('closable', {
      description: 'No reason holds: an ADMIN or STEWARD may closeGoal. Closes nothing by itself.',
    }),
    reasons: t.expose('reasons', {
      type: [GoalClosureReasonRef],
      description: 'Every reason that holds (at most 50 per kind), in kind order.',
    }),
    closure: t.expose('closure', {
      type: GoalClosureRecordRef,
      nullable: true,
      description: 'The closure, once the goal is closed.',
    }),
    acceptanceEvidenceCount: t.exposeInt('acceptanceEvidenceCount', {
      description: 'Goal-level ACCEPTANCE ledger rows that cite evidence refs.',
    }),
  }),
});

const GoalClosedRef = builder.objectRef<GoalClosed>('GoalClosed').implement({
  description: 'The goal is closed: the closure and its GOAL_CLOSED ledger row are recorded.',
  fields: (t) => ({
    closure: t.expose('closure', { type: GoalClosureRecordRef, description: 'The closure.' }),
  }),
});

const GoalClosureRefusedRef = builder
  .objectRef<GoalClosureRefused>('GoalClosureRefused')
  .implement({
    description: 'The goal was not closed: every reason that holds. Nothing was written.',
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      reasons: t.expose('reasons', {
        type: [GoalClosureReasonRef],
        description: 'Every reason, as goalClosure gives them.',
      }),
    }),
  });

const GoalClosureResult = builder.unionType('GoalClosureResult', {
  description: 'Whether the goal may be closed, or a scope gap.',
  types: [GoalClosureRef, ScopeGapRef],
  resolveType: byType,
});

const CloseGoalResult = builder.unionType('CloseGoalResult', {
  description: 'The closure, or every reason against it (nothing written), or a scope gap.',
  types: [GoalClosedRef, GoalClosureRefusedRef, ScopeGapRef],
  resolveType: byType,
});

const CloseGoalInput = builder.inputType('CloseGoalInput', {
  description: 'Closes a goal once nothing holds it open.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    acceptanceRefs: t.stringList({
      required: true,
      description: 'Relative refs to the acceptance evidence (1 to 20).',
    }),
    reason: t.string({
      required: true,
      description: 'Why it is closed (at most 500 characters; screened).',
    }),
  }),
});

builder.queryFields((t) => ({
  goalClosure: t.withAuth({ reader: true }).field({
    type: GoalClosureResult,
    description:
      'Whether the goal may be closed and, when not, every typed reason: an open gate, a due continuous monitor, a live advancement (or other) todo, a pending successor or replacement, an unmet replan obligation, a todo closed without its no-follow-up reason, no acceptance evidence. Constant number of SQL statements.',
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => goalClosure(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  closeGoal: t.withAuth({ reader: true }).field({
    type: CloseGoalResult,
    description:
      'Closes the goal (ADMIN or STEWARD only): refused with every reason while any holds (goalClosure), otherwise records the closure and a goal-level GOAL_CLOSED ledger row citing the acceptance refs, in one transaction.',
    args: {
      input: t.arg({
        type: CloseGoalInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => closeGoal(db, caller, input),
  }),
}));
