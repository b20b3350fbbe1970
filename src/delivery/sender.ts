import type { Caller } from '../core/caller.ts';
import { ForbiddenError } from '../core/errors.ts';
import type { SenderKind } from './tables.ts';

/**
 * Who sends, and whose roster it is: always the caller, from its credential.
 *
 * - A PEER is its agent: `agent:<goal it is registered to>/<agentId>`, whichever of its
 *   credentials it uses, and `from` on its deliveries is its agentId.
 * - A STEWARD or ADMIN is not an agent and has no inbox: it is its credential
 *   (`credential:<id>`, or `operator` for the environment/data-folder token), `from` is null,
 *   and `sender.kind` says which kind of caller sent it.
 *
 * The key scopes idempotency keys and rosters: a steward re-issued a credential is a new
 * sender with an empty roster.
 */
export interface Sender {
  readonly key: string;
  readonly kind: SenderKind;
  readonly goalId: string | null;
  readonly agentId: string | null;
  readonly credentialId: string | null;
}

export function senderOf(caller: Caller): Sender {
  if (caller.kind === 'PROVIDER') throw new ForbiddenError('a provider never delivers');
  if (caller.kind === 'PEER') {
    return {
      key: agentKey(caller.goalId, caller.agentId),
      kind: 'PEER',
      goalId: caller.goalId,
      agentId: caller.agentId,
      credentialId: null,
    };
  }
  return {
    key: caller.credentialId ? `credential:${caller.credentialId}` : 'operator',
    kind: caller.kind,
    goalId: null,
    agentId: null,
    credentialId: caller.credentialId,
  };
}

export const agentKey = (goalId: string, agentId: string) => `agent:${goalId}/${agentId}`;

/** The agent whose inbox the caller reads in `goalId`: a PEER registered to that goal, else null. */
export function recipientIn(caller: Caller, goalId: string): string | null {
  return caller.kind === 'PEER' && caller.goalId === goalId ? caller.agentId : null;
}
