/**
 * Safe-point notices: the receipt a provider records when it told a delivery's recipient about
 * it at a lifecycle safe point (recordDeliveryNotice), and what a terminal provider may notify
 * (pendingNotices). The receipt's fields on Delivery are in deliveries.ts (DeliveryReceipt).
 */

import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { LivenessEnum } from '../../presence/graphql/presence.ts';
import {
  type DeliveryNoticeRefused,
  MAX_NOTICE_TEXT,
  MAX_PENDING_NOTICES,
  noticeRefusalReasons,
  type PendingNotice,
  type PendingNotices,
  pendingNotices,
  recordDeliveryNotice,
} from '../notices.ts';
import { type DeliveryNoticeRow, noticeVias } from '../tables.ts';

const NoticeViaEnum = builder.enumType('DeliveryNoticeVia', {
  description: 'How a recipient was told about a delivery at a safe point.',
  values: describeValues(noticeVias, {
    LIFECYCLE_HOOK:
      "The agent's own lifecycle hook handed the message over at a turn boundary (Claude Code's Stop hook answering `decision: block` with the message), through its provider.",
    TERMINAL_NOTICE:
      'The terminal provider typed a one-line notice ("N unread messages: run switchboard next") at a recognised agent\'s own idle prompt with an empty input line.',
    TERMINAL_SIGNAL:
      "The terminal provider could not type safely there (not a recognised agent's prompt, or a prompt asking a question), so it showed the person a message in tmux (display-message, the pane option @switchboard_unread) without touching the pane's input. The agent itself was not told: not a notification, and it does not set notifiedAt.",
  }),
});

export const DeliveryNoticeRef = builder.objectRef<DeliveryNoticeRow>('DeliveryNotice').implement({
  description:
    'A safe-point receipt: a provider told the recipient about this delivery at a lifecycle safe point (never while it showed it BLOCKED, never over a draft). It is not proof the agent read it or acted on it, and it does not change the outcome: SUBMITTED stays SUBMITTED until activity is observed.',
  fields: (t) => ({
    deliveryId: t.exposeID('deliveryId', { description: 'The delivery.' }),
    via: t.expose('via', { type: NoticeViaEnum, description: 'How it was told.' }),
    provider: t.exposeID('providerId', { description: 'The provider that recorded it.' }),
    providerSessionRef: t.exposeString('providerSessionRef', {
      description:
        'Where, inside that provider session (e.g. a tmux pane). Opaque; never an identity.',
    }),
    occupantRef: t.exposeString('occupantRef', {
      description: "The occupant there at the time, as the provider's presence row named it.",
    }),
    text: t.exposeString('text', {
      nullable: true,
      description:
        'What was shown (screened like any text another caller reads); null when the provider gave none. Never the body.',
    }),
    observedAt: t.expose('observedAt', {
      type: 'DateTime',
      description: "When it happened, by the provider's clock.",
    }),
    recordedAt: t.expose('recordedAt', {
      type: 'DateTime',
      description: 'When the gateway recorded it.',
    }),
    seq: t.expose('seq', {
      type: 'Seq',
      description: "Its position in the goal's inbox stream.",
    }),
  }),
});

const NoticeRefusalReasonEnum = builder.enumType('DeliveryNoticeRefusalReason', {
  description: 'Why a notice was not recorded (nothing was written).',
  values: describeValues(noticeRefusalReasons, {
    UNKNOWN_DELIVERY: 'No delivery with this id in this goal.',
    NOT_PROVIDERS_AGENT:
      "This provider does not see the delivery's recipient at that location now (no presence row of its current instance, or the occupant ended).",
    AGENT_BLOCKED:
      'This provider last reported the recipient BLOCKED there: a question or approval prompt is never a safe point.',
    ALREADY_PROCESSED: 'The recipient already resolved the message: there is nothing to tell it.',
    ALREADY_NOTIFIED:
      'A TERMINAL_NOTICE (or TERMINAL_SIGNAL) was already recorded for this delivery: each is given at most once per delivery.',
  }),
});

const NoticeRefusedRef = builder
  .objectRef<DeliveryNoticeRefused>('DeliveryNoticeRefused')
  .implement({
    description: 'A notice that was not recorded: no row, no sequence number, no ring.',
    fields: (t) => ({
      reason: t.expose('reason', { type: NoticeRefusalReasonEnum, description: 'Why.' }),
      goalId: t.exposeID('goalId', { description: 'The goal asked about.' }),
      deliveryId: t.exposeID('deliveryId', { description: 'The delivery asked about.' }),
      liveness: t.expose('liveness', {
        type: LivenessEnum,
        nullable: true,
        description:
          "The recipient's liveness at that location as this provider last reported it; null when it reports none there.",
      }),
    }),
  });

const RecordNoticeResult = builder.unionType('RecordDeliveryNoticeResult', {
  description: 'The recorded notice, a refusal that wrote nothing, or a scope gap.',
  types: [DeliveryNoticeRef, NoticeRefusedRef, ScopeGapRef],
  resolveType: byType,
});

const RecordNoticeInput = builder.inputType('RecordDeliveryNoticeInput', {
  description: 'A safe-point notice, as the provider that gave it saw it.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal of the delivery.' }),
    deliveryId: t.id({ required: true, description: 'The delivery the recipient was told about.' }),
    via: t.field({ type: NoticeViaEnum, required: true, description: 'How.' }),
    providerSessionRef: t.string({
      required: true,
      description:
        "The location where it happened (the pane): the recipient's presence row of this provider there must be live and not BLOCKED.",
    }),
    text: t.string({
      description: `What was shown, one line, up to ${MAX_NOTICE_TEXT} characters (screened). Never the body.`,
    }),
    observedAt: t.field({
      type: 'DateTime',
      description: 'When it happened (default: now); at most a minute ahead of the gateway clock.',
    }),
  }),
});

const PendingNoticeRef = builder.objectRef<PendingNotice>('PendingNotice').implement({
  description:
    'A delivery a terminal provider may type a notice about: addressed to an agent it sees, unread, unprocessed, never noticed. Names no subject, body or sender.',
  fields: (t) => ({
    deliveryId: t.exposeID('deliveryId', { description: 'The delivery.' }),
    agentId: t.exposeID('agentId', { description: 'Its recipient.' }),
    providerSessionRef: t.exposeString('providerSessionRef', {
      description: 'Where this provider sees the recipient.',
    }),
    occupantRef: t.exposeString('occupantRef', { description: 'The occupant it sees there.' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', description: 'When it was sent.' }),
  }),
});

const PendingNoticesRef = builder.objectRef<PendingNotices>('PendingNotices').implement({
  description: 'What a terminal provider may notify in one goal, oldest first.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    notices: t.expose('notices', {
      type: [PendingNoticeRef],
      description: `At most ${MAX_PENDING_NOTICES}, oldest first.`,
    }),
  }),
});

const PendingNoticesResult = builder.unionType('PendingNoticesResult', {
  description: 'The pending notices, or a scope gap.',
  types: [PendingNoticesRef, ScopeGapRef],
  resolveType: byType,
});

builder.queryFields((t) => ({
  pendingNotices: t.withAuth({ provider: true }).field({
    type: PendingNoticesResult,
    description:
      "Provider credentials only: the goal's deliveries to agents this provider sees now that are unread, unprocessed and have no TERMINAL_NOTICE yet. Delivery ids and recipients only.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => pendingNotices(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  recordDeliveryNotice: t.withAuth({ provider: true }).field({
    type: RecordNoticeResult,
    description:
      'Provider credentials only: records that the recipient was told about a delivery at a safe point (a hook hand-over or a typed notice), as a receipt the sender sees. Not proof the agent read it; the outcome does not change.',
    args: {
      input: t.arg({ type: RecordNoticeInput, required: true, description: 'The notice.' }),
    },
    resolve: (_root, { input }, { db, caller }) => recordDeliveryNotice(db, caller, input),
  }),
}));
