/** replanObligations: what an agent owes (a digest-checked replan checkpoint) and what to read first. */

import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import type { ReplanKind } from '../checkpoint.ts';
import {
  type LastCheckpoint,
  type ReplanObligation,
  type ReplanObligationKind,
  type ReplanObligations,
  replanObligationKinds,
  replanObligations,
} from '../obligations.ts';
import { ReplanKindEnum } from './checkpoint.ts';
import { RequiredReadRef } from './read.ts';

export const ReplanObligationKindEnum = builder.enumType('ReplanObligationKind', {
  description:
    'Why an agent owes a replan checkpoint. Only recordReplanCheckpoint, citing the digest of a current read of its ledger, clears one; an acknowledgement recorded any other way clears nothing.',
  values: describeValues(replanObligationKinds, {
    VISION_CHECKPOINT_MISSING:
      'The agent has a vision and has never recorded a replan checkpoint (also shown on its directory row and its frontier).',
    MATERIAL_SINCE_CHECKPOINT:
      "Material rows (status changes, gates, blockers, validations, handoffs, goal-level rows) reached the agent's ledger after its last checkpoint, or ever when it has none.",
    HANDOFF_RECEIVED: 'Work was handed to the agent after its last checkpoint.',
  } satisfies Record<ReplanObligationKind, string>),
});

const ReplanObligationRef = builder.objectRef<ReplanObligation>('ReplanObligation').implement({
  description: 'One thing an agent owes a replan checkpoint for.',
  fields: (t) => ({
    kind: t.expose('kind', { type: ReplanObligationKindEnum, description: 'Which.' }),
    detail: t.exposeString('detail', { description: 'A sentence for people.' }),
    count: t.exposeInt('count', {
      description: 'Rows behind it after the last checkpoint (at most 200); 0 for a vision.',
    }),
    countCapped: t.exposeBoolean('countCapped', {
      description: 'There are more rows than `count`.',
    }),
    latestSeq: t.expose('latestSeq', {
      type: 'Seq',
      nullable: true,
      description: 'The newest such ledger row.',
    }),
  }),
});

const LastCheckpointRef = builder.objectRef<LastCheckpoint>('LastReplanCheckpoint').implement({
  description: "The agent's latest accepted replan checkpoint (a REPLAN ledger row).",
  fields: (t) => ({
    seq: t.expose('seq', { type: 'Seq', description: 'Its ledger row.' }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', description: 'When.' }),
    kind: t.field({
      type: ReplanKindEnum,
      resolve: (c) => c.kind as ReplanKind,
      description: 'What it did to the direction.',
    }),
    citedDigest: t.exposeString('citedDigest', {
      nullable: true,
      description: 'The ledger digest it cited (checked at write).',
    }),
  }),
});

const ReplanObligationsRef = builder.objectRef<ReplanObligations>('ReplanObligations').implement({
  description:
    "What an agent owes before it goes on: a replan checkpoint after material progress, after a handoff to it, or for a vision it never checkpointed; and the reads that come first (the interaction contract's required reads). It assigns nothing.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    owed: t.exposeBoolean('owed', { description: 'At least one obligation holds.' }),
    obligations: t.expose('obligations', {
      type: [ReplanObligationRef],
      description: 'Every obligation that holds; empty when nothing is owed.',
    }),
    lastCheckpoint: t.expose('lastCheckpoint', {
      type: LastCheckpointRef,
      nullable: true,
      description: 'Its latest checkpoint; null when it never recorded one.',
    }),
    hasVision: t.exposeBoolean('hasVision', { description: 'It has set a vision.' }),
    requiredReads: t.expose('requiredReads', {
      type: [RequiredReadRef],
      description:
        'The reads to make before checkpointing: the exact GraphQL read and the CLI command (`switchboard evidence-log --agent A --limit 30`). Empty when nothing is owed.',
    }),
    headSeq: t.expose('headSeq', {
      type: 'Seq',
      description: "The goal's ledger head this answer reflects.",
    }),
  }),
});

const ReplanObligationsResult = builder.unionType('ReplanObligationsResult', {
  description: "An agent's replan obligations, or a scope gap (a PEER reads only its own).",
  types: [ReplanObligationsRef, ScopeGapRef],
  resolveType: byType,
});

builder.queryFields((t) => ({
  replanObligations: t.withAuth({ reader: true }).field({
    type: ReplanObligationsResult,
    description:
      "What an agent owes: material rows in its ledger since its last replan checkpoint, a vision with no checkpoint, a handoff received; and the required reads. Read like its ledger (a PEER its own; an ADMIN or STEWARD any agent's). Constant number of SQL statements.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'A registered agent of the goal.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      replanObligations(db, caller, args.goalId, args.agentId),
  }),
}));
