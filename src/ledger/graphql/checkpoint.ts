/**
 * recordReplanCheckpoint: a replan that cites the digest of a ledger read, its delta and kind,
 * and its answer (the checkpoint, or the digest mismatch that wrote nothing).
 */

import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { VisionRef } from '../../work/graphql/visions.ts';
import {
  type LedgerDigestMismatch,
  type ReplanCheckpoint,
  type ReplanKind,
  recordReplanCheckpoint,
  replanKinds,
} from '../checkpoint.ts';
import { LedgerEventRef } from './events.ts';
import { RequiredReadRef } from './read.ts';

export const ReplanKindEnum = builder.enumType('ReplanKind', {
  description: 'What a replan checkpoint did to the agent’s direction.',
  values: describeValues(replanKinds, {
    PATCHED: "The direction changed: the delta's vision fields replace the agent's vision.",
    PRESERVED: 'The direction stands after reading the ledger.',
    RETIRED: 'The lane is intentionally closed (the delta says why).',
    SUPERSEDED: 'The direction is replaced by a successor todo or a handoff route.',
  } satisfies Record<ReplanKind, string>),
});

const ReplanCheckpointRef = builder.objectRef<ReplanCheckpoint>('ReplanCheckpoint').implement({
  description:
    'An accepted replan checkpoint: the digest matched a current read of the ledger. It records a replan; it does not by itself change any todo.',
  fields: (t) => ({
    event: t.expose('event', {
      type: LedgerEventRef,
      description: 'The REPLAN row it appended.',
    }),
    vision: t.expose('vision', {
      type: VisionRef,
      nullable: true,
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
      requiredRead: t.expose('requiredRead', {
        type: RequiredReadRef,
        description: 'The read to make, whose digest to cite instead.',
      }),
    }),
  });

const RecordReplanCheckpointResult = builder.unionType('RecordReplanCheckpointResult', {
  description: 'The accepted checkpoint, or why nothing was written.',
  types: [ReplanCheckpointRef, LedgerDigestMismatchRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
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

builder.mutationFields((t) => ({
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
    resolve: (_root, args, { db, caller }) => recordReplanCheckpoint(db, caller, args),
  }),
}));
