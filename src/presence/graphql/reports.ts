/** Presence reports: reportPresence and endPresence, their inputs, and what a batch is answered with. */
import { builder } from '../../graphql/builder.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import {
  endPresence,
  type PresenceAccepted,
  type PresenceRefused,
  refusalReasons,
  reportPresence,
} from '../reports.ts';
import { BlockedKindEnum, LivenessEnum, PresenceBasisEnum } from './presence.ts';

const RefusalReasonEnum = builder.enumType('PresenceRefusalReason', {
  description: 'Why a presence or observation report was refused (nothing of it was written).',
  values: describeValues(refusalReasons, {
    PROVIDER_NOT_REGISTERED: 'Call registerProvider first.',
    GOAL_NOT_IN_SCOPE: 'The goal is not one this provider credential and registration cover.',
    AGENT_NOT_REGISTERED:
      'No such active agent in the goal: a live session never creates an identity.',
    NO_PRESENCE_AT_LOCATION: 'endPresence for a location with no presence.',
    INVALID_REPORT:
      'A field of the report is malformed (too long, control characters, blockedKind without BLOCKED, …): `field` and `message` say which and why.',
  }),
});

export const PresenceRefusedRef = builder.objectRef<PresenceRefused>('PresenceRefused').implement({
  description:
    'A refused report: as an entry of PresenceAccepted.refused, that report alone; as the answer itself, the whole call (an unregistered provider, or an endPresence or observation refused), with nothing written.',
  fields: (t) => ({
    index: t.exposeInt('index', {
      description: "The refused report's position in the batch (0 for a whole call).",
    }),
    goalId: t.exposeID('goalId', { description: 'Its goal, as sent.' }),
    agentId: t.exposeID('agentId', { description: 'Its agent, as sent.' }),
    reason: t.expose('reason', { type: RefusalReasonEnum, description: 'Why.' }),
    field: t.exposeString('field', {
      nullable: true,
      description: 'With INVALID_REPORT: the input field at fault; null otherwise.',
    }),
    message: t.exposeString('message', {
      nullable: true,
      description: 'With INVALID_REPORT: what is wrong with it, for a person; null otherwise.',
    }),
  }),
});

export const PresenceAcceptedRef = builder
  .objectRef<PresenceAccepted>('PresenceAccepted')
  .implement({
    description:
      'The batch was applied, but for the reports in `refused`, each judged on its own: one bad report never holds back the others.',
    fields: (t) => ({
      changed: t.exposeInt('changed', {
        description: 'Reports that changed liveness or occupant.',
      }),
      heartbeats: t.exposeInt('heartbeats', { description: 'Reports that only moved observedAt.' }),
      outOfOrder: t.exposeInt('outOfOrder', {
        description: 'Reports older than one already applied for their location, ignored.',
      }),
      refused: t.field({
        type: [PresenceRefusedRef],
        resolve: (accepted) => accepted.refused,
        description:
          'The reports refused, in batch order; nothing of them was written. Resending one unchanged is refused again.',
      }),
    }),
  });

const ReportResult = builder.unionType('ReportPresenceResult', {
  description:
    'Applied (with the reports refused one by one listed), or refused as a whole when the provider is not registered.',
  types: [PresenceAcceptedRef, PresenceRefusedRef],
  resolveType: byType,
});

const PresenceReportInput = builder.inputType('PresenceReportInput', {
  description: 'One observation of one occupant at one location.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: 'A registered agent of the goal.' }),
    providerSessionRef: t.string({ required: true, description: 'The location, opaque.' }),
    occupantRef: t.string({
      required: true,
      description: 'Who occupies it (e.g. terminal id + name + agent kind).',
    }),
    liveness: t.field({
      type: LivenessEnum,
      required: true,
      description: 'What the provider sees.',
    }),
    observedAt: t.field({ type: 'DateTime', required: true, description: 'When.' }),
    basis: t.field({
      type: PresenceBasisEnum,
      required: true,
      description: 'Which source decided.',
    }),
    explain: t.string({
      description:
        'Which source decided and why, for people (e.g. "OSC 7501 blocked(permission)", "hook Notification permission_prompt", "screen pattern /Do you want to proceed/"): one line of plain text, at most 160 characters, no control characters; passes the privacy screen. Omit when there is nothing to say.',
    }),
    blockedKind: t.field({
      type: BlockedKindEnum,
      description:
        'What a BLOCKED agent waits for. Only with liveness BLOCKED (refused otherwise); omit when the source does not say.',
    }),
    reportSeq: t.field({
      type: 'Seq',
      required: true,
      description:
        "The provider's own monotonic sequence; reports not above the last applied are ignored.",
    }),
  }),
});

const EndPresenceInput = builder.inputType('EndPresenceInput', {
  description: 'The occupant of a location is gone.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: 'The agent.' }),
    providerSessionRef: t.string({ required: true, description: 'The location.' }),
    observedAt: t.field({
      type: 'DateTime',
      required: true,
      description: 'When it was seen gone.',
    }),
    reportSeq: t.field({ type: 'Seq', required: true, description: "The provider's sequence." }),
  }),
});

builder.mutationFields((t) => ({
  reportPresence: t.withAuth({ provider: true }).field({
    type: ReportResult,
    description:
      "Reports presence in a batch. Each report is judged on its own: a malformed one, or one naming an agent or goal that is not the provider's, is refused (listed in PresenceAccepted.refused, nothing of it written) and the others apply. Refused as a whole only when the provider is not registered.",
    args: {
      reports: t.arg({
        type: [PresenceReportInput],
        required: true,
        description: 'Up to 500 reports.',
      }),
    },
    resolve: (_root, { reports }, { db, caller }) =>
      reportPresence(
        db,
        caller,
        reports.map((r) => ({ ...r, goalId: r.goalId, agentId: r.agentId })),
      ),
  }),
  endPresence: t.withAuth({ provider: true }).field({
    type: ReportResult,
    description: 'Records that an occupant is gone from its location.',
    args: {
      input: t.arg({ type: EndPresenceInput, required: true, description: 'Which location.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      endPresence(db, caller, {
        ...input,
        goalId: input.goalId,
        agentId: input.agentId,
      }),
  }),
}));
