/**
 * What is known of a delivery after submission: the outcome and its history of steps (evidence
 * from the presence log and the clock), the outcome fields of Delivery, and deliveryOutcome,
 * the stream of those steps.
 */

import { builder } from '../../graphql/builder.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { LivenessEnum } from '../../presence/graphql/presence.ts';
import { followOutcome } from '../follow.ts';
import { type Delivery, type OutcomeChange, outcomeChanges } from '../read.ts';
import { outcomeReasons, outcomes } from '../tables.ts';
import { DeliveryRef, UnknownDeliveryRef } from './deliveries.ts';

const DeliveryOutcomeEnum = builder.enumType('DeliveryOutcome', {
  description:
    'What is known about a delivery after submission. None of these says the request was done, or that the recipient read it (see receipt).',
  values: describeValues(outcomes, {
    SUBMITTED:
      'Durably written, in order, to the recipient inbox. Not execution: nothing is known of the recipient yet (or, with limitation ACTIVITY_NOT_OBSERVABLE, ever will be).',
    ACTIVITY_OBSERVED:
      'The pinned occupant went WORKING or BLOCKED after submission, before the deadline. The weaker-but-real signal: not proof it is working on this request.',
    STALLED:
      'No activity within the activity window. An observation, not the end: later activity before the deadline still upgrades it. Not proof the request was lost: inspect before repeating it.',
    EXPIRED:
      "The sender's timeout elapsed with no activity observed. Not proof of non-delivery: the message stays in the inbox, and nothing resends it.",
    UNREACHABLE:
      'The pinned occupant disappeared, or its provider lost sight of it (see reason). Not a refusal: the message stays in the inbox for whoever is the agent later.',
  }),
});

const DeliveryOutcomeReasonEnum = builder.enumType('DeliveryOutcomeReason', {
  description: 'How the pinned occupant disappeared or was lost from sight (UNREACHABLE only).',
  values: describeValues(outcomeReasons, {
    PINNED_OCCUPANT_REPLACED:
      'Another occupant appeared at the pinned location. A replacement is never the target.',
    PRESENCE_ENDED: 'The provider reported the pinned occupant gone.',
    LIVENESS_UNREACHABLE: 'The provider reported the pinned occupant UNREACHABLE.',
    COVERAGE_LOST:
      "The recipient's presence lapsed (its provider stopped reporting it, restarted, or lost its credential; the change at `seq` names the gap): nothing more can be observed. Not a statement that the recipient stopped.",
  }),
});

const DeliveryLimitationEnum = builder.enumType('DeliveryLimitation', {
  description: 'What this delivery cannot tell its sender.',
  values: {
    ACTIVITY_NOT_OBSERVABLE: {
      description:
        'The recipient was not pinned (see pin.state): the outcome stays SUBMITTED. Not a stall: use receipts and replies.',
    },
  },
});

const OutcomeChangeRef = builder.objectRef<OutcomeChange>('DeliveryOutcomeChange').implement({
  description:
    'One step of a delivery outcome history; version 0 is the submission. The same history on every instance.',
  fields: (t) => ({
    deliveryId: t.exposeID('deliveryId', { description: 'The delivery.' }),
    version: t.exposeInt('version', {
      description: 'Its position; pass the last one seen as `after` to resume deliveryOutcome.',
    }),
    outcome: t.expose('outcome', {
      type: DeliveryOutcomeEnum,
      description: 'The outcome from this step on.',
    }),
    previousOutcome: t.expose('previousOutcome', {
      type: DeliveryOutcomeEnum,
      nullable: true,
      description: 'The outcome before it; null for the submission.',
    }),
    reason: t.expose('reason', {
      type: DeliveryOutcomeReasonEnum,
      nullable: true,
      description: 'UNREACHABLE: how the occupant disappeared.',
    }),
    seq: t.expose('seq', {
      type: 'Seq',
      nullable: true,
      description:
        'The presence change that decided it; null for SUBMITTED, STALLED and EXPIRED (decided by time).',
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      nullable: true,
      description: 'The liveness that change showed.',
    }),
    effectiveAt: t.expose('effectiveAt', {
      type: 'DateTime',
      description:
        'When it became true by the rules: the window end (STALLED), the deadline (EXPIRED), the change (otherwise).',
    }),
    recordedAt: t.expose('recordedAt', {
      type: 'DateTime',
      description: 'When an instance recorded it; may be later than effectiveAt.',
    }),
    final: t.exposeBoolean('final', {
      description:
        'No further change can come (a terminal outcome, or an unobservable SUBMITTED). The stream ends after it.',
    }),
  }),
});

const currentStep = (d: Delivery) => outcomeChanges(d.row, d.history).at(-1) as OutcomeChange;

/** Delivery's outcome fields: defined here, beside the outcome types they return. */
builder.objectFields(DeliveryRef, (t) => ({
  outcome: t.field({
    type: DeliveryOutcomeEnum,
    resolve: (d) => d.row.outcome,
    description: 'The outcome now (settled from the presence log and the clock when read).',
  }),
  outcomeVersion: t.int({
    resolve: (d) => d.row.outcomeVersion,
    description: 'How many outcome changes followed the submission.',
  }),
  outcomeChange: t.field({
    type: OutcomeChangeRef,
    resolve: currentStep,
    description: 'The step that set the current outcome, with its evidence.',
  }),
  history: t.field({
    type: [OutcomeChangeRef],
    resolve: (d) => outcomeChanges(d.row, d.history),
    description: 'Every step, from the submission (version 0).',
  }),
  limitations: t.field({
    type: [DeliveryLimitationEnum],
    resolve: (d) => (d.row.pinState === 'PINNED' ? [] : ['ACTIVITY_NOT_OBSERVABLE' as const]),
    description: 'What it cannot tell; empty when activity is observable.',
  }),
}));

const DeliveryOutcomeEvent = builder.unionType('DeliveryOutcomeEvent', {
  description: 'A step of the outcome history, or (once, then the end) none the caller may see.',
  types: [OutcomeChangeRef, UnknownDeliveryRef],
  resolveType: byType,
});

builder.subscriptionFields((t) => ({
  deliveryOutcome: t.withAuth({ reader: true }).field({
    type: DeliveryOutcomeEvent,
    description:
      'Each change of a delivery outcome, in order, from SUBMITTED (or after `after`), then the end once no change can come. Resumable on any instance.',
    args: {
      deliveryId: t.arg.id({ required: true, description: 'The delivery.' }),
      after: t.arg.int({ description: 'Resume after this version; omitted means from version 0.' }),
    },
    subscribe: (_root, args, { db, deps, caller }) =>
      followOutcome(
        db,
        deps.doorbell,
        deps.deliveries,
        caller,
        args.deliveryId,
        args.after ?? null,
      ),
    resolve: (event) => event,
  }),
}));
