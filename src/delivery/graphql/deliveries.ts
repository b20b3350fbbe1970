/**
 * Deliveries as their sender sees them: the Delivery type (who handed what to whom, pinned how,
 * with which receipts), `delivery`, and `deliver` with its input and refusals. What is known
 * after submission is outcomes.ts.
 */

import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { BlockedKindEnum, LivenessEnum } from '../../presence/graphql/presence.ts';
import {
  type ConflictField,
  type DeliveryRefused,
  deliver,
  type IdempotencyConflict,
  MAX_BODY_BYTES,
  notReadyReasons,
  refusalReasons,
} from '../deliver.ts';
import { type Delivery, readDelivery, type UnknownDelivery } from '../read.ts';
import { type DeliveryRow, deliveryKinds, pinStates } from '../tables.ts';
import { DeliveryNoticeRef } from './notices.ts';

export const DeliveryKindEnum = builder.enumType('DeliveryKind', {
  description: 'What the sender hands over. Neither kind is a work edit, a claim or an order.',
  values: describeValues(deliveryKinds, {
    REQUEST: 'Asks the recipient to do or answer something. Not an assignment: it grants nothing.',
    CONTEXT: 'Information the recipient may use. Not a request for a reply.',
  }),
});

const DeliveryPinStateEnum = builder.enumType('DeliveryPinState', {
  description: 'Whether the recipient could be pinned at submission, so activity can be observed.',
  values: describeValues(pinStates, {
    PINNED: 'Pinned to its current location and occupant, with a baseline.',
    NO_PROVIDER: 'No presence provider reports for this goal.',
    NO_PRESENCE_AT_SUBMISSION:
      'No provider saw the recipient at submission. Not absence: it is still a delivery target.',
    PROVIDER_WITHOUT_PINNED_WAITS:
      "The recipient's provider does not declare pinned-wait support, so no change can be trusted.",
    COVERAGE_LOST:
      "The recipient's presence had lapsed at submission (see CoverageGap): its provider could not see it. Not absence: it is still a delivery target.",
  }),
});

const RefusalReasonEnum = builder.enumType('DeliveryRefusalReason', {
  description: 'Why a delivery was refused before anything was written (no row, no event).',
  values: describeValues(refusalReasons, {
    AGENT_BLOCKED:
      "The recipient is at a question or approval gate (presence BLOCKED). Resolving that gate is its owner's, not the sender's.",
    SCOPE_GAP:
      "The goal is not in the caller's scope (see scopeGap); says nothing about its existence.",
    UNKNOWN_TARGET: 'No agent with that id was ever registered to the goal.',
    AMBIGUOUS_TARGET:
      'No `to`, no primary peer, and several connected peers: name one of `choices`. Never a guess.',
    NOT_READY: 'The target cannot receive now (see notReadyReason).',
  }),
});

const NotReadyReasonEnum = builder.enumType('DeliveryNotReadyReason', {
  description: 'Why a target was not ready.',
  values: describeValues(notReadyReasons, {
    TARGET_RETIRED: 'The agent was retired: no longer a member, it will not read its inbox.',
    NO_CONNECTED_PEER:
      'No `to`, and the caller roster has neither a primary nor a connected peer: addPeer or name `to`.',
  }),
});

const ConflictFieldEnum = builder.enumType('DeliveryField', {
  description: 'A field of a delivery request, as the sender passed it.',
  values: {
    TO: { value: 'to', description: '`to` (null when the roster chose the target).' },
    KIND: { value: 'kind', description: '`kind`.' },
    SUBJECT: { value: 'subject', description: '`subject` (trimmed).' },
    BODY: { value: 'body', description: '`body`.' },
    TODO_ID: { value: 'todoId', description: '`todoId`.' },
    THREAD_ID: { value: 'threadId', description: '`threadId` as passed (not as derived).' },
    REPLY_TO: { value: 'replyTo', description: '`replyTo`.' },
  } satisfies Record<string, { value: ConflictField; description: string }>,
});

type Sent = Pick<
  DeliveryRow,
  'senderKind' | 'senderGoalId' | 'senderAgentId' | 'senderCredentialId'
>;

export const DeliverySenderRef = builder.objectRef<Sent>('DeliverySender').implement({
  description:
    'Who sent a delivery, from its credential. A PEER is its agent; a STEWARD or ADMIN is its credential, never an agent.',
  fields: (t) => ({
    kind: t.field({
      type: CallerKindEnum,
      resolve: (s) => s.senderKind,
      description: 'The kind of caller that sent it.',
    }),
    goalId: t.id({
      nullable: true,
      resolve: (s) => s.senderGoalId,
      description: 'PEER: the goal its agent is registered to (may differ for a delegated goal).',
    }),
    agentId: t.id({
      nullable: true,
      resolve: (s) => s.senderAgentId,
      description: 'PEER: its agent. Null for STEWARD and ADMIN senders.',
    }),
    credentialId: t.id({
      nullable: true,
      resolve: (s) => s.senderCredentialId,
      description:
        'STEWARD or ADMIN: the credential it sent with; null for a PEER and for the operator token.',
    }),
  }),
});

const ReceiptRef = builder.objectRef<Delivery>('DeliveryReceipt').implement({
  description:
    "The recipient's receipts, each a separate time. Notified or pushed is not read, read is not processed; none of them is done.",
  fields: (t) => ({
    submittedAt: t.field({
      type: 'DateTime',
      resolve: (d) => d.row.submittedAt,
      description: 'When it was written to the inbox.',
    }),
    notifiedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => d.notices.find((n) => n.via !== 'TERMINAL_SIGNAL')?.observedAt ?? null,
      description:
        'When a provider first told the recipient about it at a safe point (see notices; a TERMINAL_SIGNAL, shown to the person only, does not count); null until then. Not proof the agent read it.',
    }),
    notices: t.field({
      type: [DeliveryNoticeRef],
      resolve: (d) => d.notices,
      description:
        'Each safe-point notice (a lifecycle hook hand-over, or a notice typed at an idle prompt), in the order recorded.',
    }),
    pushedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => d.row.pushedAt,
      description:
        "When the recipient's MCP server (`switchboard mcp`) first pushed it into the recipient's live session as a Claude Code channel event; null until then. Pushed to the session, which is neither SUBMITTED (stored) nor ACTIVITY_OBSERVED (the recipient went busy): nothing acknowledges a push, and a client that did not load the server as a channel drops it unseen. Not proof it was read.",
    }),
    pushCount: t.int({
      resolve: (d) => d.row.pushCount,
      description:
        'How many pushes into a live session were recorded. `switchboard mcp` pushes a message at most once per session, so more than one means the recipient started a new session while the message was still its active one.',
    }),
    readAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => d.row.readAt,
      description: 'First marked read (or taken) by the recipient; null until then.',
    }),
    processedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => d.row.processedAt,
      description:
        'When the recipient resolved it (processed). Not that the request succeeded; null until then.',
    }),
  }),
});

const PinRef = builder.objectRef<DeliveryRow>('DeliveryPin').implement({
  description:
    'The recipient as resolved once at submission. Never re-resolved: a replacement occupant is not the recipient.',
  fields: (t) => ({
    state: t.field({
      type: DeliveryPinStateEnum,
      resolve: (r) => r.pinState,
      description: 'Whether it could be pinned.',
    }),
    provider: t.id({
      nullable: true,
      resolve: (r) => r.pinProvider,
      description: 'The provider; null when not pinned.',
    }),
    providerSessionRef: t.string({
      nullable: true,
      resolve: (r) => r.pinSessionRef,
      description: 'The location inside that provider session. Opaque; never an identity.',
    }),
    occupantRef: t.string({
      nullable: true,
      resolve: (r) => r.pinOccupantRef,
      description: 'The occupant pinned.',
    }),
    baselineSeq: t.expose('baselineSeq', {
      type: 'Seq',
      description: 'Its stateChangeSeq at submission: only a change above it is activity.',
    }),
  }),
});

export const DeliveryRef = builder.objectRef<Delivery>('Delivery').implement({
  description:
    'A delivery as evidence: who handed what to whom, and what is known since. Not execution, not a claim, not a work edit; it carries a body preview, never the body.',
  fields: (t) => ({
    id: t.id({ resolve: (d) => d.row.id, description: 'Stable id; reply with it as replyTo.' }),
    goalId: t.id({ resolve: (d) => d.row.goalId, description: 'The goal.' }),
    seq: t.field({
      type: 'Seq',
      resolve: (d) => d.row.seq,
      description: "Its position in the goal's inbox stream: the order of submission.",
    }),
    from: t.id({
      nullable: true,
      resolve: (d) => d.row.senderAgentId,
      description: 'The sending agent; null when a STEWARD or ADMIN sent it (see sender).',
    }),
    sender: t.field({
      type: DeliverySenderRef,
      resolve: (d) => d.row,
      description: 'Who sent it, as its credential says.',
    }),
    to: t.id({ resolve: (d) => d.row.toAgentId, description: 'The recipient agent.' }),
    kind: t.field({ type: DeliveryKindEnum, resolve: (d) => d.row.kind, description: 'Its kind.' }),
    todoId: t.id({
      nullable: true,
      resolve: (d) => d.row.todoId,
      description: 'The todo it is about, as the sender named it. Not a claim on it.',
    }),
    subject: t.string({ resolve: (d) => d.row.subject, description: 'The subject line.' }),
    threadId: t.id({
      resolve: (d) => d.row.threadId,
      description: 'Its thread: the replied message thread, the one named, or its own id.',
    }),
    replyTo: t.id({
      nullable: true,
      resolve: (d) => d.row.replyTo,
      description: 'The message it answers; null when it answers none. Never "the latest".',
    }),
    bodyPreview: t.string({
      resolve: (d) => d.row.bodyPreview,
      description:
        'At most 120 characters of the body on one line, with credentials and absolute paths redacted. Not the body.',
    }),
    submittedAt: t.field({
      type: 'DateTime',
      resolve: (d) => d.row.submittedAt,
      description: 'When it was written.',
    }),
    idempotencyKey: t.string({
      resolve: (d) => d.row.idempotencyKey,
      description: 'The key it was sent with; unique per sender and goal.',
    }),
    replayed: t.exposeBoolean('replayed', {
      description:
        'This answer returns the original for a retried idempotencyKey: nothing was written or sent again.',
    }),
    pin: t.field({ type: PinRef, resolve: (d) => d.row, description: 'The recipient as pinned.' }),
    activityWindowMs: t.int({
      resolve: (d) => d.row.activityWindowMs,
      description: 'Activity later than this after submission first reads STALLED.',
    }),
    timeoutMs: t.int({
      resolve: (d) => d.row.timeoutMs,
      description: "The sender's timeout; after it, no activity counts.",
    }),
    windowEndsAt: t.field({
      type: 'DateTime',
      resolve: (d) => d.row.windowEndsAt,
      description: 'submittedAt + activityWindowMs.',
    }),
    deadline: t.field({
      type: 'DateTime',
      resolve: (d) => d.row.deadline,
      description: 'submittedAt + timeoutMs. Nothing is resent at, or after, it.',
    }),
    receipt: t.field({
      type: ReceiptRef,
      resolve: (d) => d,
      description: "The recipient's receipts.",
    }),
  }),
});

const BlockedRef = builder
  .objectRef<NonNullable<DeliveryRefused['blocked']>>('BlockedTarget')
  .implement({
    description: 'The presence that showed the recipient at a gate. Advisory, like all presence.',
    fields: (t) => ({
      liveness: t.expose('liveness', {
        type: LivenessEnum,
        description: 'BLOCKED.',
      }),
      kind: t.expose('kind', {
        type: BlockedKindEnum,
        nullable: true,
        description:
          'What it waits for (a permission, an answer, a login), as its status source said; null when the source did not say.',
      }),
      observedAt: t.expose('observedAt', {
        type: 'DateTime',
        description: 'When the provider last saw it.',
      }),
      stateChangeSeq: t.expose('stateChangeSeq', {
        type: 'Seq',
        description: 'The change that put it there.',
      }),
    }),
  });

export const DeliveryRefusedRef = builder.objectRef<DeliveryRefused>('DeliveryRefused').implement({
  description: 'Refused before any write: no delivery, no inbox event, no notification.',
  fields: (t) => ({
    reason: t.expose('reason', { type: RefusalReasonEnum, description: 'Why.' }),
    goalId: t.exposeID('goalId', { description: 'The goal asked about.' }),
    target: t.exposeID('target', {
      nullable: true,
      description: 'The target, named or from the roster; null when none could be chosen.',
    }),
    choices: t.exposeIDList('choices', {
      description: 'AMBIGUOUS_TARGET: the connected peers to choose from; empty otherwise.',
    }),
    notReadyReason: t.expose('notReadyReason', {
      type: NotReadyReasonEnum,
      nullable: true,
      description: 'NOT_READY: why.',
    }),
    scopeGap: t.expose('scopeGap', {
      type: ScopeGapRef,
      nullable: true,
      description: 'SCOPE_GAP: the gap.',
    }),
    blocked: t.expose('blocked', {
      type: BlockedRef,
      nullable: true,
      description: 'AGENT_BLOCKED: what showed the gate.',
    }),
  }),
});

const IdempotencyConflictRef = builder
  .objectRef<IdempotencyConflict>('IdempotencyConflict')
  .implement({
    description:
      'The idempotency key was used before, by this sender in this goal, for a different request. Nothing was written; the original stands.',
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      idempotencyKey: t.exposeString('idempotencyKey', { description: 'The key.' }),
      differingFields: t.expose('differingFields', {
        type: [ConflictFieldEnum],
        description: 'The fields in which this request differs from the original.',
      }),
      original: t.expose('original', {
        type: DeliveryRef,
        description: 'The original delivery, with its current outcome.',
      }),
    }),
  });

export const UnknownDeliveryRef = builder.objectRef<UnknownDelivery>('UnknownDelivery').implement({
  description:
    "No delivery with this id that the caller may see (its sender, its recipient, or a steward or admin of its goal). Says nothing about other callers' deliveries.",
  fields: (t) => ({ deliveryId: t.exposeID('deliveryId', { description: 'The id asked for.' }) }),
});

const DeliverResult = builder.unionType('DeliverResult', {
  description:
    'The delivery (new, or the original for a retried key), a refusal that wrote nothing, or a key conflict.',
  types: [DeliveryRef, DeliveryRefusedRef, IdempotencyConflictRef],
  resolveType: byType,
});
const DeliveryLookup = builder.unionType('DeliveryLookup', {
  description: 'A delivery, or none the caller may see.',
  types: [DeliveryRef, UnknownDeliveryRef],
  resolveType: byType,
});

const DeliverInputRef = builder.inputType('DeliverInput', {
  description: 'A bounded request or context for one agent.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    to: t.id({
      description:
        'The recipient agent. Omit only with a primary peer or exactly one connected peer in your roster; otherwise the refusal lists the choices.',
    }),
    todoId: t.id({ description: 'The todo it is about. Names it; claims nothing.' }),
    kind: t.field({ type: DeliveryKindEnum, required: true, description: 'REQUEST or CONTEXT.' }),
    subject: t.string({ required: true, description: `Up to 200 characters; shown as evidence.` }),
    body: t.string({
      required: true,
      description: `Up to ${MAX_BODY_BYTES} bytes (UTF-8). Larger content belongs in a durable artifact you reference.`,
    }),
    threadId: t.id({
      description: 'A thread to join; with replyTo it must be that message thread.',
    }),
    replyTo: t.id({
      description: 'The message this answers (one you sent or received). There is no "latest".',
    }),
    idempotencyKey: t.string({
      required: true,
      description:
        'Up to 128 characters, unique per sender and goal. A retry with it returns the original; nothing is ever resent.',
    }),
    activityWindowMs: t.int({
      description:
        'How long activity may take before the outcome reads STALLED: at most timeoutMs; default the smaller of 600000 and timeoutMs (then it expires rather than stalls).',
    }),
    timeoutMs: t.int({
      description:
        'How long you care: activity after it does not count (default 3600000, at most 86400000).',
    }),
  }),
});

builder.queryFields((t) => ({
  delivery: t.withAuth({ reader: true }).field({
    type: DeliveryLookup,
    description:
      'A delivery with its current outcome (settled from the presence log and clock when read) and receipts.',
    args: { id: t.arg.id({ required: true, description: 'The delivery id.' }) },
    resolve: (_root, args, { db, caller }) => readDelivery(db, caller, args.id),
  }),
}));

builder.mutationFields((t) => ({
  deliver: t.withAuth({ reader: true }).field({
    type: DeliverResult,
    description:
      'Writes a bounded request or context to one agent inbox, or refuses without writing. Never resends; grants nothing.',
    args: {
      input: t.arg({ type: DeliverInputRef, required: true, description: 'What to deliver.' }),
    },
    resolve: (_root, { input }, { db, caller }) => deliver(db, caller, input),
  }),
}));
