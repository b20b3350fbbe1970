/**
 * Reads of a page of the goal's todos, for views that show one screen at a time (the
 * dashboard's work graph and todo pages): a stretch of the `todos` order from an offset, or
 * just the todos named. Beside listTodos (reads.ts), whose first-N listing stays as it is.
 */
import { inArray } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { boundedList, unique, validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { readTodoListing, type TodoListing } from './reads.ts';
import { todosTable } from './tables.ts';

/** The most rows (or ids) one page holds, and how many a page holds when no limit is given. */
export const TODO_PAGE_MAX = 1000;
export const DEFAULT_TODO_PAGE = 100;

/**
 * The goal's todos in the `todos` order (highest priority first, then oldest), `limit` of them
 * from `offset`; with `ids`, only those (ids of no todo in the goal are left out). In one
 * snapshot with the work and ledger heads (reads.ts readTodoListing); omittedRowCount counts the
 * todos outside the page.
 */
export async function todoPage(
  db: Db,
  caller: Caller | null,
  goalId: string,
  options: { ids?: readonly string[] | null; offset?: number | null; limit?: number | null },
): Promise<TodoListing> {
  validateId('goalId', goalId);
  const ids =
    options.ids == null
      ? null
      : unique(boundedList('ids', options.ids, TODO_PAGE_MAX, (id) => validateId('ids', id)));
  const offset = options.offset ?? 0;
  const limit = options.limit ?? DEFAULT_TODO_PAGE;
  if (!Number.isInteger(offset) || offset < 0)
    throw new InputError('offset must be an integer of 0 or more', 'offset');
  if (!Number.isInteger(limit) || limit < 1 || limit > TODO_PAGE_MAX)
    throw new InputError(`limit must be an integer from 1 to ${TODO_PAGE_MAX}`, 'limit');
  // No ids: inArray is false, so no rows and a total of 0.
  return readTodoListing(db, caller, goalId, ids ? inArray(todosTable.id, ids) : undefined, {
    offset,
    limit,
  });
}
