import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { type Caller, OPERATOR } from '../core/caller.ts';
import { UnauthenticatedError } from '../core/errors.ts';
import type { Queryable } from '../db/database.ts';
import { registeredAgentSql } from './scope.ts';
import { type Credential, credentialsTable } from './tables.ts';
import { hashToken } from './tokens.ts';

/**
 * Resolves an `Authorization` value to a caller: null when none was sent, an
 * UnauthenticatedError when one was sent that is malformed, unknown or revoked.
 */
export async function resolveCaller(
  db: Queryable,
  adminTokenHash: string,
  authorization: string | null | undefined,
): Promise<Caller | null> {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new UnauthenticatedError('the authorization value must be "Bearer <token>"');
  }
  const hash = hashToken(match[1]);
  if (hash === adminTokenHash) return OPERATOR;
  const [row] = await db
    .select()
    .from(credentialsTable)
    .where(and(eq(credentialsTable.tokenHash, hash), isNull(credentialsTable.revokedAt)));
  if (!row) throw new UnauthenticatedError('unknown or revoked credential');
  return callerOf(row);
}

/** The caller a credential row stands for; the row's kind says which fields it carries. */
export function callerOf(row: Credential): Caller {
  const bound = (value: string | null, field: string): string => {
    if (value === null) throw new Error(`${row.kind} credential ${row.id} has no ${field}`);
    return value;
  };
  switch (row.kind) {
    case 'ADMIN':
      return { kind: 'ADMIN', credentialId: row.id };
    case 'STEWARD':
      return { kind: 'STEWARD', credentialId: row.id, goalIds: row.goalIds };
    case 'PEER':
      return {
        kind: 'PEER',
        credentialId: row.id,
        goalId: bound(row.goalId, 'goalId'),
        agentId: bound(row.agentId, 'agentId'),
      };
    case 'PROVIDER':
      return {
        kind: 'PROVIDER',
        credentialId: row.id,
        providerId: bound(row.providerId, 'providerId'),
        goalIds: row.goalIds,
      };
  }
}

/**
 * Which of `ids` still stand for a caller: not revoked, and for a PEER, its agent still
 * registered and not retired. One statement, however many credentials.
 */
export async function validCredentials(
  db: Queryable,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: credentialsTable.id })
    .from(credentialsTable)
    .where(
      and(
        inArray(credentialsTable.id, [...ids]),
        isNull(credentialsTable.revokedAt),
        or(
          ne(credentialsTable.kind, 'PEER'),
          registeredAgentSql(sql`${credentialsTable.goalId}`, sql`${credentialsTable.agentId}`),
        ),
      ),
    );
  return new Set(rows.map((row) => row.id));
}
