/**
 * deliveryHealth: whether delivery in a goal is healthy, for an operator (the oldest unread
 * message per agent, messages offered and not taken, stalled and expired deliveries) with the
 * state of the gateway's doorbell.
 */

import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import {
  type DeliveryAlert,
  type DeliveryHealth,
  deliveryHealth,
  EXPIRED_WINDOW_MS,
  HEALTH_ROWS,
  type UnreadBacklog,
} from '../health.ts';

const DeliveryAlertRef = builder.objectRef<DeliveryAlert>('DeliveryAlert').implement({
  description: 'A delivery the health read names, with since when it is so.',
  fields: (t) => ({
    deliveryId: t.exposeID('deliveryId', {
      description: 'The delivery (read it with `delivery`).',
    }),
    to: t.exposeID('to', { description: 'Its recipient.' }),
    from: t.exposeID('from', {
      nullable: true,
      description: 'The sending agent; null when an operator or steward sent it.',
    }),
    subject: t.exposeString('subject', { description: 'Its subject.' }),
    since: t.expose('since', {
      type: 'DateTime',
      description:
        'Since when: submitted (unread), pushed into the session (offered), the window end (stalled), the deadline (expired).',
    }),
  }),
});

const UnreadBacklogRef = builder.objectRef<UnreadBacklog>('UnreadBacklog').implement({
  description: "An agent's unread messages: how many, and the oldest.",
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The recipient.' }),
    count: t.exposeInt('count', { description: 'Messages to it not yet read.' }),
    oldest: t.field({
      type: DeliveryAlertRef,
      resolve: (b) => b.oldest,
      description: 'The oldest of them; `since` is when it was submitted.',
    }),
  }),
});

const DoorbellStateRef = builder
  .objectRef<{ listening: boolean; reason: string | null; since: Date | null }>('DoorbellState')
  .implement({
    description:
      "Whether the answering gateway instance hears the database's notifications now. While deaf, its streams, waits and deliveries catch up on a timer: late, not lost.",
    fields: (t) => ({
      listening: t.exposeBoolean('listening', { description: 'It hears them now.' }),
      reason: t.exposeString('reason', {
        nullable: true,
        description: 'Why not; null when it does.',
      }),
      since: t.expose('since', {
        type: 'DateTime',
        nullable: true,
        description: 'Since when it does not; null when it does.',
      }),
    }),
  });

const DeliveryHealthRef = builder
  .objectRef<
    DeliveryHealth & { doorbell: { listening: boolean; reason: string | null; since: Date | null } }
  >('DeliveryHealth')
  .implement({
    description: `Whether delivery in a goal is healthy. Each list holds at most ${HEALTH_ROWS} rows, oldest first; all empty and the doorbell listening means all is well. Overdue deliveries are settled before the read.`,
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      checkedAt: t.expose('checkedAt', { type: 'DateTime', description: 'When it was read.' }),
      scopeGap: t.expose('scopeGap', {
        type: ScopeGapRef,
        nullable: true,
        description: 'Set when the goal is not in scope; every list is then empty.',
      }),
      unread: t.field({
        type: [UnreadBacklogRef],
        resolve: (h) => h.unread,
        description: 'Each agent with unread messages, the one whose oldest is oldest first.',
      }),
      offeredNotTaken: t.field({
        type: [DeliveryAlertRef],
        resolve: (h) => h.offeredNotTaken,
        description:
          "Messages pushed into the recipient's session and neither taken (takeNextMessage) nor read.",
      }),
      stalled: t.field({
        type: [DeliveryAlertRef],
        resolve: (h) => h.stalled,
        description: 'Deliveries STALLED now: no activity seen within their window.',
      }),
      expired: t.field({
        type: [DeliveryAlertRef],
        resolve: (h) => h.expired,
        description: `Deliveries that EXPIRED in the last ${EXPIRED_WINDOW_MS / 60_000} minutes, newest first.`,
      }),
      doorbell: t.field({
        type: DoorbellStateRef,
        resolve: (h) => h.doorbell,
        description: "The answering instance's doorbell.",
      }),
    }),
  });

builder.queryFields((t) => ({
  deliveryHealth: t.withAuth({ reader: true }).field({
    type: DeliveryHealthRef,
    description:
      'Whether delivery in a goal is healthy: oldest unread per agent, offered and not taken, stalled now, expired in the last hour, and the doorbell. ADMIN, or a STEWARD of the goal (a PEER is refused FORBIDDEN: it reads its own inbox).',
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: async (_root, args, { db, caller, deps }) => {
      const health = await deliveryHealth(db, caller, args.goalId);
      const status = deps.doorbell.status();
      return {
        ...health,
        doorbell: status.listening
          ? { listening: true, reason: null, since: null }
          : { listening: false, reason: status.reason, since: status.since },
      };
    },
  }),
}));
