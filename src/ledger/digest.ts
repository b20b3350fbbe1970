/**
 * The ledger digest: the stable hash of a read's rows that a replan checkpoint cites, computed
 * for every prefix of a page in one pass.
 */

import { createHash } from 'node:crypto';
import type { LedgerEvent } from './append.ts';

export const SCHEMA_VERSION = 'agent_scoped_evidence_ledger_v0';

/** The shape of a digest: `sha256:` and 64 hex digits. */
export const DIGEST = /^sha256:[0-9a-f]{64}$/;

function canonicalRow(e: LedgerEvent): string {
  return JSON.stringify([
    e.seq.toString(),
    e.recordedAt.toISOString(),
    e.source,
    e.eventKind,
    e.agentId,
    e.todoId,
    e.gateId,
    e.relatedAgentId,
    e.classification,
    e.status,
    e.summary,
    e.evidenceRefs,
    e.material,
    e.goalChange,
    e.citedDigest,
    [
      e.boundary.rawLogsRecorded,
      e.boundary.rawTrajectoryRecorded,
      e.boundary.credentialValuesRecorded,
      e.boundary.absolutePathsRecorded,
      e.boundary.redactionCount,
    ],
    e.recordedBy.kind,
    e.recordedBy.agentId,
    e.relevance,
  ]);
}

/**
 * The canonical serialization is a header line naming the schema, goal and agent, then one
 * JSON line per row, newest first; so a page of L rows is a prefix of a page of L + 1.
 */
const header = (goalId: string, agentId: string) =>
  createHash('sha256').update(JSON.stringify([SCHEMA_VERSION, goalId, agentId]));

/** Digests of every prefix of `newestFirst`, in one pass: entry L is the digest of its first L rows. */
export function prefixDigests(
  goalId: string,
  agentId: string,
  newestFirst: readonly LedgerEvent[],
) {
  const hash = header(goalId, agentId);
  const digests = [`sha256:${hash.copy().digest('hex')}`];
  for (const row of newestFirst) {
    hash.update(`\n${canonicalRow(row)}`);
    digests.push(`sha256:${hash.copy().digest('hex')}`);
  }
  return digests;
}

/** The stable hash of a read's rows: sha256 of their canonical serialization (one digest, not one per prefix). */
export function digestOf(
  goalId: string,
  agentId: string,
  newestFirst: readonly LedgerEvent[],
): string {
  const hash = header(goalId, agentId);
  for (const row of newestFirst) hash.update(`\n${canonicalRow(row)}`);
  return `sha256:${hash.digest('hex')}`;
}
