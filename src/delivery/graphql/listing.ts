/** One agent's deliveries, to and from it, a keyset page at a time: `deliveries`. */

import { builder } from '../../graphql/builder.ts';
import { listingRef } from '../../graphql/shared.ts';
import { describeValues } from '../../graphql/values.ts';
import {
  DEFAULT_DELIVERIES_LIMIT,
  type DeliveryListing,
  deliveryDirections,
  deliveryListingLimitations,
  listDeliveries,
  MAX_DELIVERIES_LIMIT,
} from '../listing.ts';
import type { Delivery } from '../read.ts';
import { DeliveryRef } from './deliveries.ts';

const DeliveryDirectionEnum = builder.enumType('DeliveryDirection', {
  description: "Which of an agent's deliveries: addressed to it, sent by it, or both.",
  values: describeValues(deliveryDirections, {
    TO: 'Addressed to the agent (its inbox), whoever sent them.',
    FROM: 'Sent by the agent (as a PEER of this goal). Deliveries from a steward or admin are never FROM an agent.',
    BOTH: 'Either.',
  }),
});

const DeliveryListingLimitationEnum = builder.enumType('DeliveryListingLimitation', {
  description: 'Why a delivery listing may hold fewer rows than the agent has.',
  values: describeValues(deliveryListingLimitations, {
    ONLY_CALLERS_OWN_DELIVERIES:
      "A PEER asked about another agent: it sees only the deliveries it sent to or received from that agent. The agent's other traffic is not shown, not absent.",
  }),
});

const DeliveryListingRef = listingRef<Delivery, DeliveryListing>(
  'DeliveryListing',
  "One agent's deliveries, newest first, or a scope gap with no rows. Each row is what delivery(id) answers: its outcome settled when read, its history and receipts.",
  DeliveryRef,
  'Newest first (by inbox-stream seq), at most `limit`.',
);
builder.objectFields(DeliveryListingRef, (t) => ({
  agentId: t.exposeID('agentId', { description: 'The agent asked about.' }),
  direction: t.expose('direction', {
    type: DeliveryDirectionEnum,
    description: 'The direction asked for.',
  }),
  hasOlder: t.exposeBoolean('hasOlder', {
    description: 'Older rows pass the same filters: this page is not the whole history.',
  }),
  olderCursor: t.expose('olderCursor', {
    type: 'Seq',
    nullable: true,
    description: 'Pass as `before` for the next older page; null when there is none.',
  }),
  limitations: t.expose('limitations', {
    type: [DeliveryListingLimitationEnum],
    description: 'What this listing leaves out by rule; empty when it shows everything asked for.',
  }),
}));

builder.queryFields((t) => ({
  deliveries: t.withAuth({ reader: true }).field({
    type: DeliveryListingRef,
    description:
      "One agent's deliveries to and from it, newest first, with their outcomes and receipts; paged by `before`. Scoped like delivery(id): an ADMIN or STEWARD of the goal sees all, a PEER only those it sent or received. An agent never registered to the goal is BAD_USER_INPUT. Computed in a constant number of SQL statements.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        required: true,
        description: 'An agent registered to the goal (retired ones included).',
      }),
      direction: t.arg({
        type: DeliveryDirectionEnum,
        defaultValue: 'BOTH',
        description: 'To it, from it, or both.',
      }),
      limit: t.arg.int({
        defaultValue: DEFAULT_DELIVERIES_LIMIT,
        description: `At most this many rows, 1 to ${MAX_DELIVERIES_LIMIT}.`,
      }),
      before: t.arg({
        type: 'Seq',
        description: 'Keyset cursor: only rows before this seq (olderCursor of the last page).',
      }),
    },
    resolve: (_root, args, { db, caller }) => listDeliveries(db, caller, args),
  }),
}));
