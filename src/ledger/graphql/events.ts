/**
 * Ledger rows: the LedgerEvent type with its enums and privacy boundary, recordEvent (its
 * input and result), and ledgerEvents, the scoped live stream of the same rows.
 */

import type { Boundary } from '../../core/privacy.ts';
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { ActorRef, UnknownTodoRef } from '../../work/graphql/write.ts';
import { type LedgerEvent, type LedgerRelevance, ledgerRelevances } from '../append.ts';
import { recordEvent } from '../record.ts';
import { goalLedgerEvents, ledgerEvents } from '../stream.ts';
import {
  type GoalChange,
  goalChanges,
  type LedgerEventKind,
  type LedgerSource,
  ledgerEventKinds,
  ledgerSources,
} from '../tables.ts';

export const LedgerEventKindEnum = builder.enumType('LedgerEventKind', {
  description: 'What a ledger row records. A kind, not a verdict: the row says what was observed.',
  values: describeValues(ledgerEventKinds, {
    TODO_UPDATE:
      'A todo changed (every work-graph transition writes one) or an agent noted progress on it. Not proof the work is good.',
    VALIDATION: 'A check ran on some work, with its outcome in `status`. Not a gate decision.',
    QUOTA_SHOULD_RUN: 'A host decided whether an agent lane should act now. Not an assignment.',
    HANDOFF:
      'Work handed from `agentId` to `relatedAgentId`. Records the intent; not proof the other agent took it.',
    GATE: 'A gate opened or was decided (openGate/resolveGate), or a host observed one. Not the decision itself: read `gates`.',
    BLOCKER: 'Something an agent cannot get past without help. Not a todo status.',
    PROJECTION: 'A change of a projected state (status, frontier, route) worth replanning on.',
    REPLAN:
      'A replan checkpoint, written only by recordReplanCheckpoint after its digest was verified.',
    DELIVERY: 'A delivery to or from the agent, written only by deliveries (not yet wired).',
    EXTERNAL_EVENT:
      'An external fact (a pull request merged in a repository), written only by recordExternalEvent. What the recorder says it observed; Switchboard does not check the forge.',
    GOAL_CLOSED:
      'The goal was closed, written only by closeGoal once goalClosure found no reason against it; its evidence refs are the acceptance refs cited.',
  } satisfies Record<LedgerEventKind, string>),
});

const LedgerEventSourceEnum = builder.enumType('LedgerEventSource', {
  description: 'Which path wrote a row.',
  values: describeValues(ledgerSources, {
    RECORDED: 'recordEvent, by an agent or a host (ADMIN/STEWARD).',
    WORK_GRAPH: 'A work-graph transition or gate change, in the same transaction as the change.',
    REPLAN_CHECKPOINT: 'recordReplanCheckpoint, after its digest was verified.',
    DELIVERY: 'Deliveries (not yet wired).',
  } satisfies Record<LedgerSource, string>),
});

const GoalChangeEnum = builder.enumType('GoalChange', {
  description:
    "What a goal-level row changes. Goal-level rows appear in every agent's ledger of the goal; they are marked at write (global gates by the gateway, the rest by an ADMIN or STEWARD) and never inferred at read.",
  values: describeValues(goalChanges, {
    ROUTE: "The goal's route (direction, order of lanes) changed.",
    ACCEPTANCE: 'What counts as done for the goal changed.',
    GLOBAL_GATE: 'A GOAL, PROJECT or GLOBAL gate opened or was decided.',
    NEXT_ACTION: "The goal's active next action changed.",
    REPLAN_OBLIGATION: 'Agents of the goal must replan (read their ledger, then checkpoint).',
  } satisfies Record<GoalChange, string>),
});

const LedgerRelevanceEnum = builder.enumType('LedgerRelevance', {
  description:
    "Why a row is in this agent's ledger: the first scoping rule it meets, in this order. Not a priority.",
  values: describeValues(ledgerRelevances, {
    HANDOFF: 'A handoff from or to the agent.',
    OWN: 'The agent acted or recorded it (agentId is the agent).',
    CLAIMED_TODO: 'It is on a todo the agent claims (any status).',
    LANE_TODO:
      "It is on an unclaimed live todo in the agent's lane (a writeScope under a path word of its vision roleScope).",
    NEXT_ACTION:
      "A material row that changes the agent's next action: on a todo its live work depends on or waits for, on a gate covering a scope its live work requires (or that it waits for), or naming it as relatedAgentId.",
    GOAL_LEVEL: 'A goal-level row (see GoalChange), shown to every agent.',
  } satisfies Record<LedgerRelevance, string>),
});

const LedgerBoundaryRef = builder.objectRef<Boundary>('LedgerBoundary').implement({
  description:
    'What a row declares it does not hold: the privacy boundary it passed at write. All four flags are false on every row; a row that could not be made safe was refused, not stored.',
  fields: (t) => ({
    rawLogsRecorded: t.exposeBoolean('rawLogsRecorded', {
      description: 'Whether raw logs (stdout, stderr, stack traces) are in the row. Always false.',
    }),
    rawTrajectoryRecorded: t.exposeBoolean('rawTrajectoryRecorded', {
      description: 'Whether a chat transcript or trajectory is in the row. Always false.',
    }),
    credentialValuesRecorded: t.exposeBoolean('credentialValuesRecorded', {
      description: 'Whether credential values are in the row. Always false.',
    }),
    absolutePathsRecorded: t.exposeBoolean('absolutePathsRecorded', {
      description: 'Whether absolute local paths are in the row. Always false.',
    }),
    redactionCount: t.exposeInt('redactionCount', {
      description:
        'How many credentials and local paths were replaced by `[redacted:…]` markers on the way in. Not a count of secrets the writer holds.',
    }),
  }),
});

export const LedgerEventRef = builder.objectRef<LedgerEvent>('LedgerEvent').implement({
  description:
    'One append-only evidence row: a compact, public-safe pointer to something that happened. Never a raw log, a transcript or a private body; never edited or deleted.',
  fields: (t) => ({
    eventId: t.id({
      resolve: (e) => `evt:${e.goalId}:${e.seq}`,
      description: 'Stable id, `evt:<goalId>:<seq>`.',
    }),
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    seq: t.expose('seq', {
      type: 'Seq',
      description:
        "The row's place in the goal's ledger: forward-only, gap-free in commit order. Pass it as `after` (ledgerEvents) or `before` (evidenceLedger).",
    }),
    recordedAt: t.expose('recordedAt', {
      type: 'DateTime',
      description: 'When it was written. Order by seq, not by this.',
    }),
    source: t.expose('source', {
      type: LedgerEventSourceEnum,
      description: 'Which path wrote it.',
    }),
    eventKind: t.expose('eventKind', {
      type: LedgerEventKindEnum,
      description: 'What it records.',
    }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description:
        'The agent it is about (the one that acted or recorded); null for a host’s or steward’s own row.',
    }),
    todoId: t.exposeID('todoId', { nullable: true, description: 'The todo it is on, if any.' }),
    gateId: t.exposeID('gateId', { nullable: true, description: 'The gate it is on, if any.' }),
    relatedAgentId: t.exposeID('relatedAgentId', {
      nullable: true,
      description:
        'The counterpart: who a handoff goes to, or who a blocker waits on. Not a recipient of the row.',
    }),
    classification: t.exposeString('classification', {
      nullable: true,
      description:
        'A short token classifying it (for work-graph rows, the transition: `claim`, `complete`, …).',
    }),
    status: t.exposeString('status', {
      nullable: true,
      description:
        'A short status token (for work-graph rows, the todo status after it). Not the todo’s current status.',
    }),
    summary: t.exposeString('summary', {
      description:
        'At most 500 characters and 8 lines, credentials and local paths redacted. A summary, never the log it summarizes.',
    }),
    evidenceRefs: t.exposeStringList('evidenceRefs', {
      description:
        'Relative repository paths or http(s) URLs of the evidence. Never absolute local paths.',
    }),
    material: t.exposeBoolean('material', {
      description:
        'Whether it changes what someone does next (status changes, gates, blockers, validations, projections, handoffs, replans), rather than being its agent’s own trail.',
    }),
    goalChange: t.expose('goalChange', {
      type: GoalChangeEnum,
      nullable: true,
      description: 'Set on goal-level rows only: what it changes for the whole goal.',
    }),
    citedDigest: t.exposeString('citedDigest', {
      nullable: true,
      description: 'REPLAN rows: the ledger digest the checkpoint cited, verified at write.',
    }),
    boundary: t.expose('boundary', {
      type: LedgerBoundaryRef,
      description: 'The privacy boundary it passed.',
    }),
    recordedBy: t.expose('recordedBy', {
      type: ActorRef,
      description: 'Who wrote it: the caller kind and the agent it acted as.',
    }),
    relevance: t.expose('relevance', {
      type: LedgerRelevanceEnum,
      nullable: true,
      description:
        "Why it is in the ledger being read (evidenceLedger, ledgerEvents); null where no agent's scope was applied (recordEvent's answer).",
    }),
  }),
});

const RecordEventResult = builder.unionType('RecordEventResult', {
  description: 'The appended row, or why nothing was written.',
  types: [LedgerEventRef, ScopeGapRef, UnknownAgentRef, UnknownTodoRef],
  resolveType: byType,
});

const RecordEventInput = builder.inputType('RecordEventInput', {
  description:
    'One event. Free text is screened at write: credentials and local paths are redacted, and what redaction cannot make safe (logs, transcripts, absolute evidence refs) is refused as BAD_USER_INPUT with nothing written.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    eventKind: t.field({
      type: LedgerEventKindEnum,
      required: true,
      description: 'What it records. REPLAN and DELIVERY are refused (the gateway writes them).',
    }),
    agentId: t.id({
      description:
        'PEER: itself (or omit). ADMIN/STEWARD: an active agent of the goal it is about, or omit for a host row.',
    }),
    todoId: t.id({ description: 'A todo of the goal it is on.' }),
    relatedAgentId: t.id({
      description:
        'The counterpart (required for HANDOFF: who the work goes to); that agent’s ledger shows the row.',
    }),
    classification: t.string({
      description: "A token of up to 64 letters, digits, '_', '.', ':' or '-'.",
    }),
    status: t.string({ description: 'A token, like classification.' }),
    summary: t.string({
      required: true,
      description: 'At most 500 characters and 8 lines: a summary, never the log itself.',
    }),
    evidenceRefs: t.stringList({
      description:
        'At most 20 refs, each relative to the repository (no `..` above it) or an http(s) URL. Absolute local paths are refused.',
    }),
    goalChange: t.field({
      type: GoalChangeEnum,
      description: 'ADMIN/STEWARD only: marks the row goal-level (every agent sees it).',
    }),
  }),
});

builder.mutationFields((t) => ({
  recordEvent: t.withAuth({ reader: true }).field({
    type: RecordEventResult,
    description:
      'Appends an evidence row. A PEER records as itself; an ADMIN or STEWARD may name an agent; a PROVIDER may not. Goal-level marking is ADMIN/STEWARD only.',
    args: {
      input: t.arg({ type: RecordEventInput, required: true, description: 'The event.' }),
    },
    resolve: (_root, { input }, { db, caller }) => recordEvent(db, caller, input),
  }),
}));

const LedgerStreamItem = builder.unionType('LedgerStreamItem', {
  description: 'A scoped ledger row; or, once and then the end, the scope gap.',
  types: [LedgerEventRef, ScopeGapRef],
  resolveType: byType,
});

builder.subscriptionFields((t) => ({
  ledgerEvents: t.withAuth({ reader: true }).field({
    type: LedgerStreamItem,
    description:
      "An agent's scoped ledger rows, live, in seq order, each exactly once: gap-free under concurrent writers and resumable with `after` (no duplicates across reconnects). Rows are judged against the agent's scope when the stream reads them. Authority and fail-closed rules as evidenceLedger.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent whose ledger to stream.' }),
      after: t.arg({
        type: 'Seq',
        description:
          'Resume after this seq (the last one received, or page.headSeq of a read); omitted means rows from now on.',
      }),
    },
    subscribe: (_root, args, { db, deps, caller }) =>
      ledgerEvents(db, deps.ledger, caller, args.goalId, args.agentId, args.after ?? null),
    resolve: (item) => item,
  }),
  goalLedgerEvents: t.withAuth({ reader: true }).field({
    type: LedgerStreamItem,
    description:
      "Every ledger row of a goal, live, in seq order, each exactly once, resumable with `after`; unscoped (relevance null). ADMIN, or a STEWARD of the goal; a PEER gets a NOT_OWN_LEDGER scope gap (its own ledger is ledgerEvents). Every work-graph change writes a row, so a view of the goal's work re-reads on each.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      after: t.arg({
        type: 'Seq',
        description:
          'Resume after this seq (the last one received, or the ledgerSeq of a todos read); omitted means rows from now on.',
      }),
    },
    subscribe: (_root, args, { db, deps, caller }) =>
      goalLedgerEvents(db, deps.ledger, caller, args.goalId, args.after ?? null),
    resolve: (item) => item,
  }),
}));
