import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql.ts';
import { ActorRef, UnknownTodoRef, VisionRef } from '../../work/graphql.ts';
import { type LedgerEvent, type LedgerRelevance, ledgerRelevances } from '../append.ts';
import {
  type LedgerDigestMismatch,
  type ReplanCheckpoint,
  type ReplanKind,
  recordReplanCheckpoint,
  replanKinds,
} from '../checkpoint.ts';
import { type HandoffState, handoffStates, type OtherAgentFrontierRow } from '../frontier.ts';
import type { Boundary } from '../privacy.ts';
import {
  type EvidenceLedgerPacket,
  evidenceLedger,
  type LedgerReadPurpose,
  ledgerReadPurposes,
  type RequiredRead,
} from '../read.ts';
import { recordEvent } from '../record.ts';
import { ledgerEvents } from '../stream.ts';
import {
  type GoalChange,
  goalChanges,
  type LedgerEventKind,
  type LedgerSource,
  ledgerEventKinds,
  ledgerSources,
} from '../tables.ts';

// ---- enums ---------------------------------------------------------------------------

const LedgerEventKindEnum = builder.enumType('LedgerEventKind', {
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

const HandoffStateEnum = builder.enumType('HandoffState', {
  description:
    "Whether a handoff is pending for an agent, judged from the ledger's rows alone. Not proof that anyone took or acted on the work.",
  values: describeValues(handoffStates, {
    NONE: 'No pending handoff: none names it, or it recorded material work after the latest one.',
    OUTGOING:
      'Its latest material row is a handoff it made to another agent: it has handed work off and done nothing material since.',
    INCOMING:
      'A handoff to it is newer than its latest material row: it received work and has not recorded acting on it.',
  } satisfies Record<HandoffState, string>),
});

const LedgerReadPurposeEnum = builder.enumType('LedgerReadPurpose', {
  description: 'An action an agent must read its ledger before.',
  values: describeValues(ledgerReadPurposes, {
    AUTONOMOUS_REPLAN: 'Replanning on its own initiative.',
    SUCCESSOR_REPLAN: 'Planning the successor of finished or superseded work.',
    HANDOFF: 'Handing work to another agent.',
  } satisfies Record<LedgerReadPurpose, string>),
});

const ReplanKindEnum = builder.enumType('ReplanKind', {
  description: 'What a replan checkpoint did to the agent’s direction.',
  values: describeValues(replanKinds, {
    PATCHED: "The direction changed: the delta's vision fields replace the agent's vision.",
    PRESERVED: 'The direction stands after reading the ledger.',
    RETIRED: 'The lane is intentionally closed (the delta says why).',
    SUPERSEDED: 'The direction is replaced by a successor todo or a handoff route.',
  } satisfies Record<ReplanKind, string>),
});

const OtherAgentDetailEnum = builder.enumType('OtherAgentDetail', {
  description: 'How much of other agents a packet shows. Never their rows.',
  values: {
    COMPRESSED_FRONTIER: { description: 'One bounded otherAgentFrontier row per other agent.' },
    OMITTED: { description: 'Nothing (includeOtherAgentFrontier was false, or a scope gap).' },
  },
});

// ---- objects -------------------------------------------------------------------------

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
    seq: t.field({
      type: 'Seq',
      resolve: (e) => e.seq,
      description:
        "The row's place in the goal's ledger: forward-only, gap-free in commit order. Pass it as `after` (ledgerEvents) or `before` (evidenceLedger).",
    }),
    recordedAt: t.expose('recordedAt', {
      type: 'DateTime',
      description: 'When it was written. Order by seq, not by this.',
    }),
    source: t.field({
      type: LedgerEventSourceEnum,
      resolve: (e) => e.source,
      description: 'Which path wrote it.',
    }),
    eventKind: t.field({
      type: LedgerEventKindEnum,
      resolve: (e) => e.eventKind,
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
    goalChange: t.field({
      type: GoalChangeEnum,
      nullable: true,
      resolve: (e) => e.goalChange,
      description: 'Set on goal-level rows only: what it changes for the whole goal.',
    }),
    citedDigest: t.exposeString('citedDigest', {
      nullable: true,
      description: 'REPLAN rows: the ledger digest the checkpoint cited, verified at write.',
    }),
    boundary: t.field({
      type: LedgerBoundaryRef,
      resolve: (e) => e.boundary,
      description: 'The privacy boundary it passed.',
    }),
    recordedBy: t.field({
      type: ActorRef,
      resolve: (e) => e.recordedBy,
      description: 'Who wrote it: the caller kind and the agent it acted as.',
    }),
    relevance: t.field({
      type: LedgerRelevanceEnum,
      nullable: true,
      resolve: (e) => e.relevance,
      description:
        "Why it is in the ledger being read (evidenceLedger, ledgerEvents); null where no agent's scope was applied (recordEvent's answer).",
    }),
  }),
});

const LedgerSourcesRef = builder
  .objectRef<EvidenceLedgerPacket['source']>('LedgerSources')
  .implement({
    description: 'Which sources the packet was built from.',
    fields: (t) => ({
      eventLog: t.exposeBoolean('eventLog', { description: 'The append-only ledger rows.' }),
      workGraph: t.exposeBoolean('workGraph', {
        description: 'Claims, lanes, dependencies and gates, for scoping and the frontier.',
      }),
      deliveries: t.exposeBoolean('deliveries', {
        description: 'Delivery rows. False until deliveries write to the ledger.',
      }),
    }),
  });

const LedgerScopeRef = builder.objectRef<EvidenceLedgerPacket['scope']>('LedgerScope').implement({
  description: 'What the packet shows of whom.',
  fields: (t) => ({
    audience: t.field({
      type: CallerKindEnum,
      nullable: true,
      resolve: (s) => s.audience,
      description: 'The caller kind that read it (ADMIN, STEWARD or PEER).',
    }),
    currentAgentDetail: t.exposeBoolean('currentAgentDetail', {
      description: "Whether the agent's own scoped rows are shown in detail (false on a gap).",
    }),
    otherAgentDetail: t.field({
      type: OtherAgentDetailEnum,
      resolve: (s) => s.otherAgentDetail,
      description: 'How other agents are shown. Never row by row.',
    }),
    lanePrefixes: t.exposeStringList('lanePrefixes', {
      description:
        "The path prefixes read from the agent's vision roleScope that define its lane; empty when it has none.",
    }),
  }),
});

const LedgerFiltersRef = builder
  .objectRef<EvidenceLedgerPacket['filters']>('LedgerFilters')
  .implement({
    description: 'The filters applied, echoed back so a packet can be read on its own.',
    fields: (t) => ({
      todoId: t.exposeID('todoId', { nullable: true, description: 'Only this todo.' }),
      eventKind: t.field({
        type: LedgerEventKindEnum,
        nullable: true,
        resolve: (f) => f.eventKind,
        description: 'Only this kind.',
      }),
      since: t.expose('since', {
        type: 'DateTime',
        nullable: true,
        description: 'Only rows recorded after this.',
      }),
      before: t.field({
        type: 'Seq',
        nullable: true,
        resolve: (f) => f.before,
        description: 'Only rows before this seq (a page further back).',
      }),
      limit: t.exposeInt('limit', { description: 'At most this many rows.' }),
      includeOtherAgentFrontier: t.exposeBoolean('includeOtherAgentFrontier', {
        description: 'Whether the other-agent frontier was asked for.',
      }),
    }),
  });

const LedgerPageRef = builder.objectRef<EvidenceLedgerPacket['page']>('LedgerPage').implement({
  description: 'Where the rows sit in the ledger, for paging back and streaming forward.',
  fields: (t) => ({
    headSeq: t.field({
      type: 'Seq',
      resolve: (p) => p.headSeq,
      description:
        "The goal ledger's last committed seq when the packet was read: subscribe to ledgerEvents with `after: headSeq` to continue without a gap.",
    }),
    olderCursor: t.field({
      type: 'Seq',
      nullable: true,
      resolve: (p) => p.olderCursor,
      description: 'Pass as `before` for the next older page; null when there is none.',
    }),
    hasOlder: t.exposeBoolean('hasOlder', {
      description:
        'Whether older rows pass the same scope and filters. A page without them is not the whole history.',
    }),
  }),
});

const OtherAgentFrontierRowRef = builder
  .objectRef<OtherAgentFrontierRow>('OtherAgentFrontierRow')
  .implement({
    description:
      'Another agent of the goal, compressed: enough to see the shared direction, never its rows or private trail. Grants nothing over its work.',
    fields: (t) => ({
      agentId: t.exposeID('agentId', { description: 'The other agent.' }),
      visionSummary: t.exposeString('visionSummary', {
        nullable: true,
        description: 'Where it says it is heading (its vision); null when it set none.',
      }),
      topTodoId: t.exposeID('topTodoId', {
        nullable: true,
        description: 'Its highest-priority live claimed todo.',
      }),
      topTodo: t.exposeString('topTodo', {
        nullable: true,
        description: 'That todo’s title. Not a promise that it is working on it now.',
      }),
      handoffState: t.field({
        type: HandoffStateEnum,
        resolve: (r) => r.handoffState,
        description: 'Whether a handoff to or from it is pending.',
      }),
      latestMaterialAt: t.expose('latestMaterialAt', {
        type: 'DateTime',
        nullable: true,
        description:
          'When it last recorded a material row; null when never. Not liveness: see presence.',
      }),
    }),
  });

const RequiredReadRef = builder.objectRef<RequiredRead>('RequiredRead').implement({
  description: 'A read still owed before the actions in requiredBefore.',
  fields: (t) => ({
    query: t.exposeString('query', { description: 'The GraphQL field call to make.' }),
    reason: t.exposeString('reason', { description: 'Why it is required.' }),
  }),
});

const ReaderHintsRef = builder
  .objectRef<EvidenceLedgerPacket['readerHints']>('LedgerReaderHints')
  .implement({
    description:
      'What an agent must read before replanning or handing off. Hints about reads; they assign no work.',
    fields: (t) => ({
      requiredBefore: t.field({
        type: [LedgerReadPurposeEnum],
        resolve: (h) => h.requiredBefore,
        description: 'The actions this ledger read is required before.',
      }),
      nextRequiredReads: t.field({
        type: [RequiredReadRef],
        resolve: (h) => h.nextRequiredReads,
        description:
          'Reads still owed: the unfiltered first page when this read was filtered or paged, the next older page when no replan checkpoint of the agent is on this one and older rows exist, the frontier when it was left out. Empty when this read suffices.',
      }),
    }),
  });

const EvidenceLedgerPacketRef = builder
  .objectRef<EvidenceLedgerPacket>('EvidenceLedgerPacket')
  .implement({
    description:
      "agent_scoped_evidence_ledger_v0: one agent's thin chronology — its own rows in detail, other agents compressed — to read before replanning or handing off. A read model: it grants no claim, lease or priority, and it replaces neither todos nor status.",
    fields: (t) => ({
      schemaVersion: t.exposeString('schemaVersion', {
        description: '"agent_scoped_evidence_ledger_v0".',
      }),
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      agentId: t.exposeID('agentId', { description: 'The agent whose ledger this is.' }),
      generatedAt: t.expose('generatedAt', {
        type: 'DateTime',
        description: 'When it was read.',
      }),
      source: t.field({
        type: LedgerSourcesRef,
        resolve: (p) => p.source,
        description: 'What it was built from.',
      }),
      scope: t.field({
        type: LedgerScopeRef,
        resolve: (p) => p.scope,
        description: 'What it shows of whom.',
      }),
      filters: t.field({
        type: LedgerFiltersRef,
        resolve: (p) => p.filters,
        description: 'The filters applied.',
      }),
      events: t.field({
        type: [LedgerEventRef],
        resolve: (p) => p.events,
        description:
          "The newest `limit` rows of the agent's scope that pass the filters, oldest first. Empty on a scope gap.",
      }),
      page: t.field({
        type: LedgerPageRef,
        resolve: (p) => p.page,
        description: 'Cursors for older pages and for the stream.',
      }),
      otherAgentFrontier: t.field({
        type: [OtherAgentFrontierRowRef],
        resolve: (p) => p.otherAgentFrontier,
        description: 'Every other active agent of the goal, by id, compressed (at most 100).',
      }),
      omittedFrontierRowCount: t.exposeInt('omittedFrontierRowCount', {
        description: 'Other agents left out of otherAgentFrontier by its cap.',
      }),
      readerHints: t.field({
        type: ReaderHintsRef,
        resolve: (p) => p.readerHints,
        description: 'Reads required before replanning or handing off.',
      }),
      digest: t.exposeString('digest', {
        description:
          '`sha256:<hex>` of the canonical serialization of `events` (with goal and agent): the same read gives the same digest, any new row in it another. Cite it in recordReplanCheckpoint. Not a signature and not secret.',
      }),
      scopeGap: t.field({
        type: ScopeGapRef,
        nullable: true,
        resolve: (p) => p.scopeGap,
        description:
          "Set, with no rows, when the goal is out of the caller's scope or a PEER asked for another agent's ledger (NOT_OWN_LEDGER).",
      }),
    }),
  });

const ReplanCheckpointRef = builder.objectRef<ReplanCheckpoint>('ReplanCheckpoint').implement({
  description:
    'An accepted replan checkpoint: the digest matched a current read of the ledger. It records a replan; it does not by itself change any todo.',
  fields: (t) => ({
    event: t.field({
      type: LedgerEventRef,
      resolve: (c) => c.event,
      description: 'The REPLAN row it appended.',
    }),
    vision: t.field({
      type: VisionRef,
      nullable: true,
      resolve: (c) => c.vision,
      description: 'The vision after a PATCHED checkpoint; null for the other kinds.',
    }),
  }),
});

const LedgerDigestMismatchRef = builder
  .objectRef<LedgerDigestMismatch>('LedgerDigestMismatch')
  .implement({
    description:
      "The cited digest is not that of a current, unfiltered first-page read (limit ≥ 30 or every row) of this agent's ledger: stale, filtered, foreign or made up. Nothing was written; the replan obligation stands.",
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      agentId: t.exposeID('agentId', { description: 'The agent.' }),
      citedDigest: t.exposeString('citedDigest', { description: 'The digest that was cited.' }),
      requiredRead: t.field({
        type: RequiredReadRef,
        resolve: (m) => m.requiredRead,
        description: 'The read to make, whose digest to cite instead.',
      }),
    }),
  });

const RecordEventResult = builder.unionType('RecordEventResult', {
  description: 'The appended row, or why nothing was written.',
  types: [LedgerEventRef, ScopeGapRef, UnknownAgentRef, UnknownTodoRef],
  resolveType: byType,
});

const RecordReplanCheckpointResult = builder.unionType('RecordReplanCheckpointResult', {
  description: 'The accepted checkpoint, or why nothing was written.',
  types: [ReplanCheckpointRef, LedgerDigestMismatchRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const LedgerStreamItem = builder.unionType('LedgerStreamItem', {
  description: 'A scoped ledger row; or, once and then the end, the scope gap.',
  types: [LedgerEventRef, ScopeGapRef],
  resolveType: byType,
});

// ---- inputs --------------------------------------------------------------------------

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

const ReplanDeltaInput = builder.inputType('ReplanDeltaInput', {
  description:
    'The bounded replan delta. The summary is screened like any ledger row; the vision fields are for PATCHED only.',
  fields: (t) => ({
    summary: t.string({
      required: true,
      description: 'What changed and why, at most 500 characters and 8 lines.',
    }),
    evidenceRefs: t.stringList({ description: 'Relative refs, as in recordEvent.' }),
    roleScope: t.string({ description: 'PATCHED: the new roleScope (its lane), ≤ 200.' }),
    visionSummary: t.string({ description: 'PATCHED: the new vision summary, ≤ 500.' }),
    acceptanceSummary: t.string({ description: 'PATCHED: the new acceptance summary, ≤ 500.' }),
    replanTriggerSummary: t.string({ description: 'PATCHED: the new replan trigger, ≤ 500.' }),
  }),
});

// ---- fields --------------------------------------------------------------------------

const LIMIT_DESCRIPTION = 'At most this many rows, 1 to 200.';

builder.queryFields((t) => ({
  evidenceLedger: t.withAuth({ reader: true }).field({
    type: EvidenceLedgerPacketRef,
    description:
      "One agent's scoped evidence ledger. Fails closed: an agent id the goal does not know (a host surface such as `codex` is not one) is BAD_USER_INPUT, never a fallback. A PEER reads only its own ledger (another agent's: scopeGap NOT_OWN_LEDGER); an ADMIN or STEWARD any agent's in its goals; a PROVIDER none.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        required: true,
        description: 'A registered (or delegated) agent id of the goal.',
      }),
      todoId: t.arg.id({
        description:
          "That todo's rows, plus goal-level gate rows that block it and goal-level blockers naming no todo (within the agent's scope).",
      }),
      since: t.arg({ type: 'DateTime', description: 'Only rows recorded after this instant.' }),
      eventKind: t.arg({ type: LedgerEventKindEnum, description: 'Only rows of this kind.' }),
      limit: t.arg.int({ defaultValue: 30, description: LIMIT_DESCRIPTION }),
      before: t.arg({
        type: 'Seq',
        description: 'Keyset cursor: only rows before this seq (page.olderCursor).',
      }),
      includeOtherAgentFrontier: t.arg.boolean({
        defaultValue: true,
        description: 'Include the compressed other-agent frontier.',
      }),
    },
    resolve: (_root, args, { db, caller, deps }) =>
      evidenceLedger(
        db,
        caller,
        {
          goalId: String(args.goalId),
          agentId: String(args.agentId),
          todoId: args.todoId == null ? null : String(args.todoId),
          since: args.since ?? null,
          eventKind: args.eventKind ?? null,
          limit: args.limit ?? 30,
          before: args.before ?? null,
          includeOtherAgentFrontier: args.includeOtherAgentFrontier ?? true,
        },
        deps.ledgerFrontiers,
      ),
  }),
}));

builder.mutationFields((t) => ({
  recordEvent: t.withAuth({ reader: true }).field({
    type: RecordEventResult,
    description:
      'Appends an evidence row. A PEER records as itself; an ADMIN or STEWARD may name an agent; a PROVIDER may not. Goal-level marking is ADMIN/STEWARD only.',
    args: {
      input: t.arg({ type: RecordEventInput, required: true, description: 'The event.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      recordEvent(db, caller, {
        goalId: String(input.goalId),
        eventKind: input.eventKind,
        agentId: input.agentId == null ? null : String(input.agentId),
        todoId: input.todoId == null ? null : String(input.todoId),
        relatedAgentId: input.relatedAgentId == null ? null : String(input.relatedAgentId),
        classification: input.classification ?? null,
        status: input.status ?? null,
        summary: input.summary,
        evidenceRefs: input.evidenceRefs ?? [],
        goalChange: input.goalChange ?? null,
      }),
  }),
  recordReplanCheckpoint: t.withAuth({ reader: true }).field({
    type: RecordReplanCheckpointResult,
    description:
      "Records a replan checkpoint citing the digest of the agent's ledger read. The digest is recomputed, not trusted: it must be that of a current unfiltered first-page read (limit ≥ 30 or every row). A PEER checkpoints for itself; an ADMIN or STEWARD may name an agent.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent that replanned.' }),
      digest: t.arg.string({
        required: true,
        description: 'The `digest` of the evidenceLedger read the replan is based on.',
      }),
      kind: t.arg({ type: ReplanKindEnum, required: true, description: 'What the replan did.' }),
      delta: t.arg({ type: ReplanDeltaInput, required: true, description: 'The bounded delta.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      recordReplanCheckpoint(db, caller, {
        goalId: String(args.goalId),
        agentId: String(args.agentId),
        digest: args.digest,
        kind: args.kind,
        delta: args.delta,
      }),
  }),
}));

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
      ledgerEvents(
        db,
        deps.ledger,
        caller,
        String(args.goalId),
        String(args.agentId),
        args.after ?? null,
      ),
    resolve: (item) => item,
  }),
}));
