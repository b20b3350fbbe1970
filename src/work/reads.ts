/** Reads of the work graph: todos, gates, visions and transitions, each behind the goal scope. */

import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Listing } from '../core/results.ts';
import { LIMITS, oneOf, validateId } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { readHead } from '../events/sequence.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { gateColumns, todoColumns } from './sql.ts';
import {
  gatesTable,
  type TodoTransitionRow,
  todoStatuses,
  todosTable,
  todoTransitionsTable,
  type Vision,
} from './tables.ts';
import type { Gate, Todo } from './values.ts';
import { visionsOfGoal } from './visions.ts';

export type TodoListing = Listing<Todo> & {
  readonly seq: string;
  /** The goal ledger's head in the same snapshot: follow goalLedgerEvents after it. */
  readonly ledgerSeq: string;
  readonly omittedRowCount: number;
};

async function currentSeq(q: Queryable, goalId: string): Promise<string> {
  return String(await readHead(q, goalId, 'work'));
}

/** How many todos `todos` returns when the caller gives no limit. */
export const DEFAULT_TODOS_LIMIT = 200;

/** The goal's todos, highest priority first, optionally only some statuses. */
export async function listTodos(
  db: Db,
  caller: Caller | null,
  goalId: string,
  options: { statuses?: readonly string[] | null; limit?: number | null } = {},
): Promise<TodoListing> {
  validateId('goalId', goalId);
  const statuses = (options.statuses ?? []).map((s) => oneOf('statuses', s, todoStatuses));
  const limit = options.limit ?? DEFAULT_TODOS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.maxTodosPage) {
    throw new InputError(`limit must be an integer from 1 to ${LIMITS.maxTodosPage}`, 'limit');
  }
  return readTodoListing(
    db,
    caller,
    goalId,
    statuses.length > 0 ? inArray(todosTable.status, statuses) : undefined,
    { offset: 0, limit },
  );
}

/**
 * The goal's todos that `filter` keeps, in the `todos` order (highest priority first, then
 * oldest), `limit` of them from `offset`, in one snapshot with the work and ledger heads;
 * omittedRowCount counts the kept todos outside the page. A scope gap with no rows when out of
 * scope. Callers validate their arguments.
 */
export async function readTodoListing(
  db: Db,
  caller: Caller | null,
  goalId: string,
  filter: SQL | undefined,
  page: { offset: number; limit: number },
): Promise<TodoListing> {
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap, seq: '0', ledgerSeq: '0', omittedRowCount: 0 };
  return db.transaction(
    async (tx) => {
      const where = and(eq(todosTable.goalId, goalId), filter);
      const rows = await tx
        .select({ ...todoColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(todosTable)
        .where(where)
        .orderBy(desc(todosTable.priority), asc(todosTable.createdAt), asc(todosTable.id))
        .limit(page.limit)
        .offset(page.offset);
      // Past the last page no row carries the total: count them.
      const total =
        rows[0]?.total ??
        (page.offset === 0
          ? 0
          : ((await tx.select({ n: count() }).from(todosTable).where(where))[0]?.n ?? 0));
      return {
        goalId,
        rows: rows.map(({ total: _, ...todo }) => todo),
        scopeGap: null,
        seq: await currentSeq(tx, goalId),
        ledgerSeq: String(await readHead(tx, goalId, 'ledger')),
        omittedRowCount: total - rows.length,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The goal's gates, newest first, each with its state. */
export async function listGates(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<Gate>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select(gateColumns)
    .from(gatesTable)
    .where(eq(gatesTable.goalId, goalId))
    .orderBy(desc(gatesTable.openedAt), asc(gatesTable.id));
  return { goalId, rows, scopeGap: null };
}

export async function listVisions(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<Vision>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  return { goalId, rows: await visionsOfGoal(db, goalId), scopeGap: null };
}

/** A todo's transitions, oldest first (empty for a todo that is not in the goal). */
export async function listTransitions(
  db: Db,
  caller: Caller | null,
  goalId: string,
  todoId: string,
): Promise<Listing<TodoTransitionRow>> {
  validateId('goalId', goalId);
  validateId('todoId', todoId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select()
    .from(todoTransitionsTable)
    .where(and(eq(todoTransitionsTable.goalId, goalId), eq(todoTransitionsTable.todoId, todoId)))
    .orderBy(asc(todoTransitionsTable.id));
  return { goalId, rows, scopeGap: null };
}

/**
 * Refuses a `todoId` that names no todo of `goalId` (another goal's, or none): a delivery or
 * a wait may point at work only in its own goal. BAD_USER_INPUT; nothing is written.
 */
export async function checkTodoInGoal(
  q: Queryable,
  goalId: string,
  todoId: string | null,
): Promise<void> {
  if (todoId === null) return;
  const [found] = await q
    .select({ id: todosTable.id })
    .from(todosTable)
    .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, todoId)));
  if (!found) throw new InputError(`todoId ${todoId} names no todo of goal ${goalId}`, 'todoId');
}
