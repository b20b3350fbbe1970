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
import { LivenessEnum, PresenceBasisEnum } from './presence.ts';

const RefusalReasonEnum = builder.enumType('PresenceRefusalReason', {
  description: 'Why a presence or observation report was refused (nothing was written).',
  values: describeValues(refusalReasons, {
    PROVIDER_NOT_REGISTERED: 'Call registerProvider first.',
    GOAL_NOT_IN_SCOPE: 'The goal is not one this provider credential and registration cover.',
    AGENT_NOT_REGISTERED:
      'No such active agent in the goal: a live session never creates an identity.',
    NO_PRESENCE_AT_LOCATION: 'endPresence for a location with no presence.',
  }),
});

export const PresenceAcceptedRef = builder
  .objectRef<PresenceAccepted>('PresenceAccepted')
  .implement({
    description: 'The batch was applied.',
    fields: (t) => ({
      changed: t.exposeInt('changed', {
        description: 'Reports that changed liveness or occupant.',
      }),
      heartbeats: t.exposeInt('heartbeats', { description: 'Reports that only moved observedAt.' }),
      outOfOrder: t.exposeInt('outOfOrder', {
        description: 'Reports older than one already applied for their location, ignored.',
      }),
    }),
  });

export const PresenceRefusedRef = builder.objectRef<PresenceRefused>('PresenceRefused').implement({
  description: 'The whole batch was refused; nothing was written.',
  fields: (t) => ({
    index: t.exposeInt('index', {
      description: "The first refused report's position in the batch.",
    }),
    goalId: t.exposeID('goalId', { description: 'Its goal.' }),
    agentId: t.exposeID('agentId', { description: 'Its agent.' }),
    reason: t.expose('reason', { type: RefusalReasonEnum, description: 'Why.' }),
  }),
});

const ReportResult = builder.unionType('ReportPresenceResult', {
  description: 'Applied, or refused as a whole.',
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
    basis: t.field({ type: PresenceBasisEnum, required: true, description: 'How it knows.' }),
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
      "Reports presence in a batch. Refused as a whole, writing nothing, if any report names an agent or goal that is not the provider's.",
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
