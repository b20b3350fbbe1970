/** Bounded handoffs: handoffTodo, and the packet read with the guards for its reader. */
import { DeliveryRef, DeliveryRefusedRef } from '../../delivery/graphql/deliveries.ts';
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import {
  AUTHORITY_BOUNDARY,
  type EvidenceFreshness,
  evidenceFreshnesses,
  type GateApplication,
  gateApplications,
  type Handoff,
  type HandoffRead,
  type HandoffRefusalReason,
  type HandoffRefused,
  handoffRefusalReasons,
  handoffTodo,
  type PacketEvidence,
  type PacketGate,
  type PacketSnapshot,
  readHandoff,
  type UnknownHandoff,
} from '../handoffs.ts';
import type { HandoffRow } from '../tables.ts';
import { FrontierGuardRef } from './frontier.ts';
import { GateStateEnum } from './gates.ts';
import { LeaseHeldRef, LeaseRef } from './leases.ts';
import { TaskClassEnum, TodoRef } from './todos.ts';
import { WorkspaceRef } from './workspaces.ts';
import { refusals, TodoStatusEnum } from './write.ts';

const EvidenceFreshnessEnum = builder.enumType('EvidenceFreshness', {
  description: 'How fresh an evidence ref was when the work was handed off.',
  values: describeValues(evidenceFreshnesses, {
    FRESH: 'Recorded at or after the sender declared the workspace (revision) it handed off from.',
    STALE:
      'Recorded before the sender declared that workspace: it may not hold for the revision handed off; validate again.',
    UNKNOWN: 'The sender declared no workspace, so the revision it held cannot be compared.',
  } satisfies Record<EvidenceFreshness, string>),
});

const GateApplicationEnum = builder.enumType('GateApplication', {
  description: 'Why a gate applies to a todo.',
  values: describeValues(gateApplications, {
    COVERS_REQUIRED_SCOPE: 'The gate covers a decision scope the todo requires.',
    RESUME_CONDITION: 'A `gate_resolved:` condition of the todo names the gate.',
  } satisfies Record<GateApplication, string>),
});

const HandoffRefusalReasonEnum = builder.enumType('HandoffRefusalReason', {
  description: 'Why a handoff was refused. Nothing was written.',
  values: describeValues(handoffRefusalReasons, {
    UNKNOWN_RECEIVER: '`to` names no active agent of the goal.',
    RECEIVER_LACKS_CAPABILITY:
      'The receiver has not declared the capability the todo requires (`capability`).',
    DELIVERY_REFUSED:
      'The CONTEXT delivery to the receiver was refused (`delivery` says why, e.g. AGENT_BLOCKED).',
  } satisfies Record<HandoffRefusalReason, string>),
});

const PacketEvidenceRef = builder.objectRef<PacketEvidence>('HandoffEvidence').implement({
  description:
    'An evidence ref recorded on the todo before the handoff (newest first), with its freshness. A reference to re-read, not a copy of the evidence.',
  fields: (t) => ({
    ref: t.exposeString('ref', { description: 'The relative evidence reference.' }),
    ledgerSeq: t.field({
      type: 'Seq',
      resolve: (e) => e.ledgerSeq,
      description: 'The ledger row that recorded it.',
    }),
    recordedAt: t.field({
      type: 'DateTime',
      resolve: (e) => new Date(e.recordedAt),
      description: 'When it was recorded.',
    }),
    freshness: t.expose('freshness', {
      type: EvidenceFreshnessEnum,
      description: 'How fresh it was at handoff.',
    }),
  }),
});

const PacketGateRef = builder.objectRef<PacketGate>('HandoffGate').implement({
  description: 'A gate that applies to the handed-off todo.',
  fields: (t) => ({
    gateId: t.exposeID('gateId', { description: 'The gate.' }),
    scope: t.exposeString('scope', { description: 'Its decision scope.' }),
    state: t.expose('state', { type: GateStateEnum, description: 'Its state.' }),
    applies: t.expose('applies', { type: GateApplicationEnum, description: 'Why it applies.' }),
  }),
});

type PacketParts = { row: HandoffRow; packet: PacketSnapshot };

const HandoffTodoSnapshotRef = builder.objectRef<PacketSnapshot>('HandoffTodoSnapshot').implement({
  description:
    'The todo as the sender saw it when handing off: a record, not the current state (read `HandoffRead` fields for now).',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Its title.' }),
    taskClass: t.field({
      type: TaskClassEnum,
      resolve: (p) => p.taskClass as never,
      description: 'Its class.',
    }),
    status: t.expose('status', { type: TodoStatusEnum, description: 'Its status then.' }),
    requiredCapability: t.exposeString('requiredCapability', {
      nullable: true,
      description: 'The capability it requires.',
    }),
    requiredDecisionScopes: t.exposeStringList('requiredDecisionScopes', {
      description: 'The decision scopes it requires.',
    }),
    dependsOn: t.exposeIDList('dependsOn', { description: 'Its dependencies.' }),
    resumeWhen: t.exposeStringList('resumeWhen', { description: 'Its resume conditions.' }),
    taskRepository: t.exposeString('taskRepository', {
      nullable: true,
      description: 'The repository it writes to.',
    }),
    writeScope: t.exposeStringList('writeScope', { description: 'What it writes.' }),
    gates: t.expose('gates', {
      type: [PacketGateRef],
      description: 'The gates that applied, with their state then.',
    }),
  }),
});

/** The fields a packet has however it is read. */
const HandoffPacketRef = builder
  .interfaceRef<PacketParts & { type: string }>('HandoffPacket')
  .implement({
    description:
      "A bounded handoff packet as written: goal, todo and stop condition, the sender's workspace and revision, the gates and authority boundary, evidence refs with freshness, next action and validation, and what was omitted.",
    resolveType: byType,
    fields: (t) => ({
      id: t.field({ type: 'ID', resolve: (p) => p.row.id, description: 'The handoff.' }),
      goalId: t.field({ type: 'ID', resolve: (p) => p.row.goalId, description: 'The goal.' }),
      todoId: t.field({
        type: 'ID',
        resolve: (p) => p.row.todoId,
        description: 'The todo handed off.',
      }),
      sender: t.field({
        type: 'ID',
        nullable: true,
        resolve: (p) => p.row.fromAgent,
        description: 'The agent that handed it off; null when an ADMIN or STEWARD acted as itself.',
      }),
      receiver: t.field({
        type: 'ID',
        nullable: true,
        resolve: (p) => p.row.toAgent,
        description:
          'The named receiver (now its claimant); null: left unclaimed for any qualified peer (independent handoff).',
      }),
      todoAtHandoff: t.field({
        type: HandoffTodoSnapshotRef,
        resolve: (p) => p.packet,
        description: 'The todo, its gates and its requirements as the sender saw them.',
      }),
      nextAction: t.field({
        type: 'String',
        resolve: (p) => p.row.nextAction,
        description: 'What to do next.',
      }),
      validation: t.field({
        type: 'String',
        resolve: (p) => p.row.validation,
        description: 'How to tell the work is right.',
      }),
      stopCondition: t.field({
        type: 'String',
        resolve: (p) => p.row.stopCondition,
        description: 'When to stop (done, or hand back).',
      }),
      omitted: t.field({
        type: ['String'],
        resolve: (p) => p.row.omitted,
        description:
          'What the packet leaves out or is private: to be re-acquired through a legal route, never guessed.',
      }),
      senderWorkspace: t.field({
        type: WorkspaceRef,
        nullable: true,
        resolve: (p) =>
          p.row.repository === null ||
          p.row.worktree === null ||
          p.row.revision === null ||
          p.row.workspaceDeclaredAt === null
            ? null
            : {
                repository: p.row.repository,
                worktree: p.row.worktree,
                revision: p.row.revision,
                declaredAt: p.row.workspaceDeclaredAt,
              },
        description:
          "The sender's declared workspace (repository, worktree, revision) at handoff; null when it declared none.",
      }),
      evidence: t.field({
        type: [PacketEvidenceRef],
        resolve: (p) => p.packet.evidence,
        description: `Evidence refs recorded on the todo (at most 20, newest first), with their freshness.`,
      }),
      authorityBoundary: t.field({
        type: ['String'],
        resolve: () => [...AUTHORITY_BOUNDARY],
        description: 'What the handoff does not grant, stated so that no reader infers it.',
      }),
      leaseTransferred: t.field({
        type: 'Boolean',
        resolve: () => false,
        description:
          "Always false: the sender's lease ended with the handoff; the receiver acquires its own (a new fence).",
      }),
      deliveryId: t.field({
        type: 'ID',
        nullable: true,
        resolve: (p) => p.row.deliveryId,
        description: 'The CONTEXT delivery to the named receiver; null for an unnamed handoff.',
      }),
      ledgerSeq: t.field({
        type: 'Seq',
        resolve: (p) => p.row.ledgerSeq,
        description: 'The HANDOFF ledger row.',
      }),
      createdAt: t.field({
        type: 'DateTime',
        resolve: (p) => p.row.createdAt,
        description: 'When it was handed off.',
      }),
    }),
  });

const HandoffRef = builder.objectRef<Handoff>('Handoff').implement({
  description:
    'A handoff as written: the packet, the todo after it, and the CONTEXT delivery. The guards that apply are not in it: read `handoff` as the receiver for them as they are now.',
  interfaces: [HandoffPacketRef],
  fields: (t) => ({
    todo: t.expose('todo', { type: TodoRef, description: 'The todo after the handoff.' }),
    delivery: t.expose('delivery', {
      type: DeliveryRef,
      nullable: true,
      description: 'The CONTEXT delivery to the named receiver; null for an unnamed handoff.',
    }),
  }),
});

const HandoffReadRef = builder.objectRef<HandoffRead>('HandoffRead').implement({
  description:
    "A handoff packet read by one agent: the packet as written, and the todo's guards evaluated for that agent now (its frontier), not the sender's view at handoff.",
  interfaces: [HandoffPacketRef],
  fields: (t) => ({
    readFor: t.exposeID('readFor', { description: 'The agent the guards were evaluated for.' }),
    status: t.expose('status', { type: TodoStatusEnum, description: "The todo's status now." }),
    live: t.exposeBoolean('live', {
      description: 'The todo is still OPEN or DEFERRED; otherwise there is nothing to take.',
    }),
    runnable: t.exposeBoolean('runnable', {
      description: 'Live and no guard holds it back for `readFor` now. Not a claim or a lease.',
    }),
    guards: t.expose('guards', {
      type: [FrontierGuardRef],
      description: 'The guards holding it back for `readFor` now, in guard order.',
    }),
    claimedBy: t.exposeID('claimedBy', {
      nullable: true,
      description: 'Its claimant now.',
    }),
    lease: t.expose('lease', {
      type: LeaseRef,
      nullable: true,
      description: 'Its lease now (null once it is not live).',
    }),
    gates: t.expose('gates', {
      type: [PacketGateRef],
      description: 'The gates that apply now, with their state now.',
    }),
    capabilities: t.exposeStringList('capabilities', {
      description: "`readFor`'s declared capabilities now.",
    }),
    workSeq: t.field({
      type: 'Seq',
      resolve: (r) => r.workSeq,
      description: "The goal's work sequence the guards reflect.",
    }),
  }),
});

const HandoffRefusedRef = builder.objectRef<HandoffRefused>('HandoffRefused').implement({
  description: 'The handoff was refused before anything was written.',
  fields: (t) => ({
    refusal: t.expose('reason', { type: HandoffRefusalReasonEnum, description: 'Why.' }),
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    receiver: t.exposeID('receiver', { nullable: true, description: 'The receiver named.' }),
    capability: t.exposeString('capability', {
      nullable: true,
      description: 'RECEIVER_LACKS_CAPABILITY: the capability the todo requires.',
    }),
    delivery: t.expose('delivery', {
      type: DeliveryRefusedRef,
      nullable: true,
      description: 'DELIVERY_REFUSED: the delivery refusal.',
    }),
  }),
});

const UnknownHandoffRef = builder.objectRef<UnknownHandoff>('UnknownHandoff').implement({
  description: 'No handoff with this id in the goal.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    handoffId: t.exposeID('handoffId', { description: 'The id that matched nothing.' }),
  }),
});

const HandoffTodoResult = builder.unionType('HandoffTodoResult', {
  description: 'The handoff as written, or why not (nothing was written).',
  types: [HandoffRef, HandoffRefusedRef, LeaseHeldRef, ...refusals],
  resolveType: byType,
});

const HandoffReadResult = builder.unionType('HandoffReadResult', {
  description: 'The packet with its guards for the reader, or why not.',
  types: [HandoffReadRef, UnknownHandoffRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const HandoffTodoInput = builder.inputType('HandoffTodoInput', {
  description:
    'A bounded handoff: enough for the receiver to reconstruct the work without a transcript.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The live todo to hand off.' }),
    to: t.id({
      description:
        'The receiver (an active agent of the goal, declaring any capability the todo requires); it becomes the claimant. Omitted: the todo is left unclaimed for any qualified peer.',
    }),
    agentId: t.id({
      description: 'ADMIN/STEWARD: the agent handing off. A PEER hands off as itself.',
    }),
    nextAction: t.string({
      required: true,
      description: 'What to do next (at most 500 characters).',
    }),
    validation: t.string({
      required: true,
      description: 'How to tell the work is right (at most 500 characters).',
    }),
    stopCondition: t.string({
      required: true,
      description: 'When to stop: done, or hand back (at most 500 characters).',
    }),
    omitted: t.stringList({
      required: true,
      description:
        'What the packet leaves out or is private (at most 20 entries of 500 characters; empty when nothing is).',
    }),
  }),
});

builder.queryFields((t) => ({
  handoff: t.withAuth({ reader: true }).field({
    type: HandoffReadResult,
    description:
      "A handoff packet with the todo's guards evaluated for the reader now: a PEER reads for itself, an ADMIN or STEWARD for the named receiver unless `agentId` names another. Constant number of SQL statements.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      handoffId: t.arg.id({ required: true, description: 'The handoff.' }),
      agentId: t.arg.id({ description: 'The agent to evaluate the guards for.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      readHandoff(db, caller, args.goalId, args.handoffId, args.agentId),
  }),
}));

builder.mutationFields((t) => ({
  handoffTodo: t.withAuth({ reader: true }).field({
    type: HandoffTodoResult,
    description:
      "Hands a live todo to a named peer (it becomes the claimant) or leaves it unclaimed for any qualified peer, with one packet (todo and stop condition, revision and workspace, gates and authority boundary, evidence refs with freshness, next action and validation, what was omitted). Ends the sender's lease (never transferred), appends a HANDOFF ledger row and, for a named receiver, writes a CONTEXT delivery, in one transaction. By the claimant, anyone while unclaimed, or an ADMIN/STEWARD.",
    args: {
      input: t.arg({
        type: HandoffTodoInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => handoffTodo(db, caller, input),
  }),
}));
