/**
 * Replan checkpoints: a REPLAN row that cites the digest of a current ledger read, verified by
 * recomputation under the ledger head lock, and for PATCHED the vision change in the same
 * transaction.
 */

import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import { screenEvent } from '../core/privacy.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { LIMITS, oneOf, screenText, validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { lockHead } from '../events/sequence.ts';
import { resolveActor } from '../registry/actor.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import type { Vision } from '../work/tables.ts';
import { patchVision, type VisionPatch } from '../work/visions.ts';
import { moveWorkSeq } from '../work/write.ts';
import { appendEvent, type LedgerEvent, refusalError } from './append.ts';
import { DIGEST, prefixDigests } from './digest.ts';
import { LEDGER_LIMITS } from './limits.ts';
import { ledgerQuery, type RequiredRead, scopedRows } from './read.ts';
import { loadAgentScope } from './scope.ts';

export const replanKinds = ['PATCHED', 'PRESERVED', 'RETIRED', 'SUPERSEDED'] as const;
export type ReplanKind = (typeof replanKinds)[number];

export interface ReplanDelta {
  summary: string;
  evidenceRefs?: readonly string[] | null;
  roleScope?: string | null;
  visionSummary?: string | null;
  acceptanceSummary?: string | null;
  replanTriggerSummary?: string | null;
}

export interface RecordReplanCheckpointInput {
  goalId: string;
  agentId: string;
  digest: string;
  kind: string;
  delta: ReplanDelta;
}

export interface ReplanCheckpoint {
  readonly type: 'ReplanCheckpoint';
  readonly event: LedgerEvent;
  /** The vision after a PATCHED checkpoint; null otherwise. */
  readonly vision: Vision | null;
}

export interface LedgerDigestMismatch {
  readonly type: 'LedgerDigestMismatch';
  readonly goalId: string;
  readonly agentId: string;
  readonly citedDigest: string;
  readonly requiredRead: RequiredRead;
}

export type RecordReplanCheckpointResult =
  | ReplanCheckpoint
  | LedgerDigestMismatch
  | ScopeGap
  | UnknownAgent;

/**
 * Records a replan checkpoint that cites the digest of a ledger read. The digest is
 * verified by recomputation, not looked up: inside the write transaction, holding the
 * goal's ledger head lock (so no row can land in between), the agent's unfiltered newest
 * rows are read again and the digest must equal that of the newest L of them for some L
 * from min(30, all there are) to 200 — that is, of an unfiltered first page read with a
 * limit of at least the default, still current. A stale, filtered-only, foreign or made-up
 * digest is `LedgerDigestMismatch` and nothing is written. Accepted, it appends a REPLAN
 * row and, for PATCHED, applies the delta's vision fields in the same transaction.
 */
export async function recordReplanCheckpoint(
  db: Db,
  caller: Caller,
  input: RecordReplanCheckpointInput,
): Promise<RecordReplanCheckpointResult> {
  if (caller.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not record replan checkpoints');
  }
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateId('agentId', input.agentId);
  const kind = oneOf('kind', input.kind, replanKinds);
  if (!DIGEST.test(input.digest)) {
    throw new InputError(
      'digest must be the sha256:<64 hex> digest evidenceLedger returned',
      'digest',
    );
  }
  const delta = input.delta;
  const text = {
    summary: delta.summary,
    evidenceRefs: [...(delta.evidenceRefs ?? [])],
    classification: kind.toLowerCase(),
  };
  const screened = screenEvent(text);
  if (!screened.ok) throw refusalError({ ...screened, field: `delta.${screened.field}` });
  const visionText = (name: keyof VisionPatch, max: number) => {
    const value = delta[name];
    return value == null ? null : screenText(`delta.${name}`, value, max);
  };
  const patch: VisionPatch = {
    roleScope: visionText('roleScope', LIMITS.roleScope),
    visionSummary: visionText('visionSummary', LIMITS.summary),
    acceptanceSummary: visionText('acceptanceSummary', LIMITS.summary),
    replanTriggerSummary: visionText('replanTriggerSummary', LIMITS.summary),
  };
  const patches = Object.values(patch).some((v) => v !== null);
  if (kind === 'PATCHED' && !patches) {
    throw new InputError(
      'a PATCHED checkpoint carries at least one vision field in delta',
      'delta',
    );
  }
  if (kind !== 'PATCHED' && patches) {
    throw new InputError(
      `a ${kind} checkpoint does not change the vision: only PATCHED does`,
      'delta',
    );
  }

  return transactOrRefuse<RecordReplanCheckpointResult>(db, async (tx) => {
    const gap = await checkGoalScope(tx, caller, goalId);
    if (gap) return gap;
    const resolved = await resolveActor(tx, caller, goalId, agentId);
    if (resolved.type === 'UnknownAgent') return resolved;
    const actor = resolved.actor;
    // Lock order everywhere: the work sequence before the ledger head.
    if (kind === 'PATCHED') await moveWorkSeq(tx, goalId);
    await lockHead(tx, goalId, 'ledger');
    const scope = await loadAgentScope(tx, goalId, agentId);
    const current = await scopedRows(
      tx,
      scope,
      { todoId: null, eventKind: null, since: null, before: null, limit: LEDGER_LIMITS.maxLimit },
      null,
    );
    const digests = prefixDigests(goalId, agentId, current.newestFirst);
    const shortest = Math.min(LEDGER_LIMITS.minCheckpointRows, current.newestFirst.length);
    if (!digests.slice(shortest).includes(input.digest)) {
      refuse({
        type: 'LedgerDigestMismatch',
        goalId,
        agentId,
        citedDigest: input.digest,
        requiredRead: {
          query: ledgerQuery(goalId, agentId),
          reason:
            'the digest is not that of a current unfiltered read of this ledger (new rows landed, the read was filtered or too short, or it belongs to another ledger): read again and cite the new digest',
        },
      });
    }
    const vision = kind === 'PATCHED' ? await patchVision(tx, actor, goalId, agentId, patch) : null;
    const event = await appendEvent(tx, {
      goalId,
      source: 'REPLAN_CHECKPOINT',
      eventKind: 'REPLAN',
      agentId,
      ...text,
      status: 'accepted',
      material: true,
      citedDigest: input.digest,
      recordedBy: actor,
    });
    return { type: 'ReplanCheckpoint', event, vision } satisfies ReplanCheckpoint;
  });
}
