import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { UnauthenticatedError } from '../core/errors.ts';
import type { Database, Db } from '../db/database.ts';
import type { DeliveryKeeper } from '../delivery/keeper.ts';
import type { Doorbell } from '../events/doorbell.ts';
import type { StreamHub } from '../events/hub.ts';
import type { FrontierCache, LedgerEvent } from '../ledger/ledger.ts';
import type { Logger } from '../log.ts';
import type { PresenceChange } from '../presence/presence.ts';
import { credentialsTable } from '../registry/tables.ts';
import { hashToken } from '../registry/tokens.ts';
import type { WaitKeeper } from '../waits/keeper.ts';

export const callerKinds = ['ADMIN', 'STEWARD', 'PEER', 'PROVIDER'] as const;
export type CallerKind = (typeof callerKinds)[number];

/**
 * Who is calling, exactly as its credential says. Scope is derived from this and the
 * registry, never from arguments the caller passes.
 */
export interface Caller {
  readonly kind: CallerKind;
  /** null for the operator token from the environment or the data folder. */
  readonly credentialId: string | null;
  /** PEER: the goal and agent the credential is bound to. */
  readonly goalId: string | null;
  readonly agentId: string | null;
  /** PROVIDER: the provider the credential speaks for. */
  readonly providerId: string | null;
  /** STEWARD and PROVIDER: the goals bound to the credential. */
  readonly goalIds: readonly string[];
}

/** What the process shares between requests: built once in main (or a test). */
export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly doorbell: Doorbell;
  /** Presence streams of this instance's subscribers, one shared reader per goal. */
  readonly presence: StreamHub<PresenceChange>;
  /** Ledger streams of this instance's subscribers, one shared reader per goal. */
  readonly ledger: StreamHub<LedgerEvent>;
  /** Other-agent frontiers of recently read goals, each valid for one stamp of the goal's state. */
  readonly ledgerFrontiers: FrontierCache;
  /** Settles the waits that this instance's clients subscribe to. */
  readonly waits: WaitKeeper;
  /** Settles the deliveries that this instance's clients follow. */
  readonly deliveries: DeliveryKeeper;
  readonly log: Logger;
  /** sha256 of the operator token. */
  readonly adminTokenHash: string;
}

/** Per request (HTTP, SSE) or per socket (graphql-ws). */
export interface Context {
  readonly deps: AppDeps;
  readonly db: Db;
  readonly caller: Caller | null;
}

const ADMIN_CALLER: Caller = {
  kind: 'ADMIN',
  credentialId: null,
  goalId: null,
  agentId: null,
  providerId: null,
  goalIds: [],
};

/**
 * Resolves an `Authorization` value to a caller: null when none was sent, an
 * UnauthenticatedError when one was sent that is malformed, unknown or revoked.
 */
export async function resolveCaller(
  deps: AppDeps,
  authorization: string | null | undefined,
): Promise<Caller | null> {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new UnauthenticatedError('the authorization value must be "Bearer <token>"');
  }
  const hash = hashToken(match[1]);
  if (hash === deps.adminTokenHash) return ADMIN_CALLER;
  const [row] = await deps.database.db
    .select()
    .from(credentialsTable)
    .where(and(eq(credentialsTable.tokenHash, hash), isNull(credentialsTable.revokedAt)));
  if (!row) throw new UnauthenticatedError('unknown or revoked credential');
  return {
    kind: row.kind,
    credentialId: row.id,
    goalId: row.goalId,
    agentId: row.agentId,
    providerId: row.providerId,
    goalIds: row.goalIds,
  };
}
