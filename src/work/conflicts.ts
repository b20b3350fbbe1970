/**
 * Write-scope conflicts: which other agents' claimed live todos write where a todo would,
 * in the same repository. Pure: the frontier and claimTodo load the todos and call this.
 */

import { scopesOverlap } from './scopes.ts';

/** The fields a conflict reads, of a live todo. */
export interface ScopedWork {
  readonly id: string;
  readonly taskRepository: string | null;
  readonly writeScope: readonly string[];
  readonly claimedBy: string | null;
  /** When it was claimed, in microseconds since the epoch (null while unclaimed). */
  readonly claimOrder: number | null;
}

/** Another agent's claimed todo whose write scope overlaps the todo's. */
export interface WriteScopeConflict {
  /** The other todo: the owner's earliest-claimed conflicting one. */
  readonly todoId: string;
  readonly owner: string;
  /** The shared repository; null when neither todo names one. */
  readonly repository: string | null;
  /** The todo's own entry that overlaps. */
  readonly writeScope: string;
  /** The other todo's entry it overlaps. */
  readonly otherWriteScope: string;
}

interface Claim {
  readonly work: ScopedWork;
  readonly owner: string;
  readonly entry: string;
}

/** Earlier claim first; the todo id breaks a tie, so every reader orders claims alike. */
const claimedFirst = (a: ScopedWork, b: ScopedWork) =>
  (a.claimOrder ?? 0) - (b.claimOrder ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Per owner, its two earliest claims (two, so that one remains when the first is the todo itself). */
type Earliest = Map<string, Claim[]>;

/** `compute` called once per key (a string, or an object by identity). */
export const memoize = <K, T>(compute: (key: K) => T) => {
  const cache = new Map<K, T>();
  return (key: K): T => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
};

/** Per owner (in owner order), its two earliest of `claims` (of distinct todos). Sorts `claims`. */
function earliestByOwner(claims: Claim[]): Earliest {
  const earliest: Earliest = new Map();
  claims.sort((a, b) =>
    a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : claimedFirst(a.work, b.work),
  );
  for (const claim of claims) {
    const list = earliest.get(claim.owner);
    if (!list) earliest.set(claim.owner, [claim]);
    else if (list.length < 2 && list[0]?.work.id !== claim.work.id) list.push(claim);
  }
  return earliest;
}

/** The first of `claims` that `todo` can conflict with: not itself; if `own`, claimed before it. */
const firstOther = (claims: readonly Claim[], todo: ScopedWork, own: boolean) =>
  claims.find((c) => c.work.id !== todo.id && (!own || claimedFirst(c.work, todo) < 0));

/** What is asked of the conflicts: all of a todo's, or only whether it has one. */
export interface WriteScopeConflicts<T> {
  /**
   * The todo's conflicts for `agentId`: for each other agent that claims a live todo of the
   * same repository (no repository matches only no repository) whose write scope overlaps the
   * todo's, one conflict naming that agent's earliest such claim, by owner. When `agentId`
   * claims the todo itself, only claims older than its own conflict: of two overlapping
   * claimed todos the later claim is held back, so one of them stays runnable. A list holds
   * what `build` makes of each conflict (the frontier's guards), once per conflict; todos
   * writing the same entries get the same list.
   */
  readonly find: (todo: ScopedWork) => T[];
  /**
   * Whether `find` would give at least one: stops at the first other owner with an
   * overlapping claim, building nothing.
   */
  readonly exists: (todo: ScopedWork) => boolean;
}

/**
 * `find` and `exists` over the claims of `todos` for `agentId`. Overlaps are computed once per
 * pair of distinct entries of a repository, for both.
 */
export function writeScopeConflicts<T>(
  todos: readonly ScopedWork[],
  agentId: string,
  build: (conflict: WriteScopeConflict) => T,
): WriteScopeConflicts<T> {
  // Other agents' claims, by repository, then by write-scope entry.
  const claims = new Map<string, Map<string, Claim[]>>();
  for (const work of todos) {
    if (work.claimedBy === null || work.claimedBy === agentId) continue;
    const repository = work.taskRepository ?? '';
    const entries = claims.get(repository) ?? new Map<string, Claim[]>();
    claims.set(repository, entries);
    for (const entry of work.writeScope) {
      const claim = { work, owner: work.claimedBy, entry };
      const list = entries.get(entry);
      if (list) list.push(claim);
      else entries.set(entry, [claim]);
    }
  }
  // The claims that overlap an entry of a repository.
  const overlappingOf = memoize((repository: string) =>
    memoize((entry: string): Earliest => {
      const met: Claim[] = [];
      for (const [other, list] of claims.get(repository) ?? []) {
        if (scopesOverlap(entry, other)) for (const claim of list) met.push(claim);
      }
      return earliestByOwner(met);
    }),
  );
  // A claim meets many todos through the same entry: one conflict for each such pair.
  const conflictOf = memoize((claim: Claim) =>
    memoize(
      (entry: string): WriteScopeConflict => ({
        todoId: claim.work.id,
        owner: claim.owner,
        // Claims are grouped by repository: the claim's is the todo's.
        repository: claim.work.taskRepository,
        writeScope: entry,
        otherWriteScope: claim.entry,
      }),
    ),
  );
  /**
   * `owner`'s conflict with `todo`: its earliest claim overlapping one of the todo's entries,
   * other than the todo itself (and, for a todo `agentId` claims, claimed before it).
   */
  const conflictWith = (todo: ScopedWork, owner: string): WriteScopeConflict | undefined => {
    const overlapping = overlappingOf(todo.taskRepository ?? '');
    const own = todo.claimedBy === agentId;
    let earliest: Claim | undefined;
    let earliestEntry = '';
    for (const entry of todo.writeScope) {
      const claim = firstOther(overlapping(entry).get(owner) ?? [], todo, own);
      if (claim && (!earliest || claimedFirst(claim.work, earliest.work) < 0)) {
        earliest = claim;
        earliestEntry = entry;
      }
    }
    return earliest && conflictOf(earliest)(earliestEntry);
  };
  /** The conflicts of a todo, one per other owner, by owner. */
  const find = (todo: ScopedWork): WriteScopeConflict[] => {
    const overlapping = overlappingOf(todo.taskRepository ?? '');
    const own = todo.claimedBy === agentId;
    const earliest = new Map<string, { claim: Claim; entry: string }>();
    for (const entry of todo.writeScope) {
      overlapping(entry).forEach((list, owner) => {
        const claim = firstOther(list, todo, own);
        if (!claim) return;
        const seen = earliest.get(owner);
        if (!seen || claimedFirst(claim.work, seen.claim.work) < 0) {
          earliest.set(owner, { claim, entry });
        }
      });
    }
    // One entry's owners come in owner order; several entries' need sorting.
    const found = [...earliest.values()];
    if (todo.writeScope.length > 1) found.sort((a, b) => (a.claim.owner < b.claim.owner ? -1 : 1));
    return found.map(({ claim, entry }) => conflictOf(claim)(entry));
  };
  const itemOf = memoize(build);
  // Todos writing the same entries of a repository mostly share their conflicts: an unclaimed
  // one appears in no claim, so its answer depends on the entries alone. One claimed by
  // another agent shares it but for its own owner's conflict when that names the todo itself.
  const sharedOf = memoize(
    (_repository: string) => new Map<string, { conflicts: WriteScopeConflict[]; items: T[] }>(),
  );
  // For `exists`, per entry of a repository: its earliest overlapping claim, and whether claims
  // of two distinct todos overlap it. No sort and no owner map: a count of what `find` lists.
  const firstOf = memoize((repository: string) =>
    memoize((entry: string) => {
      let earliest: Claim | undefined;
      let twoTodos = false;
      for (const [other, list] of claims.get(repository) ?? []) {
        if (!scopesOverlap(entry, other)) continue;
        for (const claim of list) {
          if (earliest === undefined) earliest = claim;
          else {
            if (claim.work.id !== earliest.work.id) twoTodos = true;
            if (claimedFirst(claim.work, earliest.work) < 0) earliest = claim;
          }
        }
      }
      return { earliest, twoTodos };
    }),
  );
  const exists = (todo: ScopedWork): boolean => {
    const repository = todo.taskRepository ?? '';
    if (todo.writeScope.length === 0 || !claims.has(repository)) return false;
    const first = firstOf(repository);
    // `agentId`'s own todo is in no claim here: a claim conflicts when it is the older one.
    // Another todo conflicts with any claim but its own.
    const own = todo.claimedBy === agentId;
    for (const entry of todo.writeScope) {
      const { earliest, twoTodos } = first(entry);
      if (earliest === undefined) continue;
      if (own ? claimedFirst(earliest.work, todo) < 0 : twoTodos || earliest.work.id !== todo.id)
        return true;
    }
    return false;
  };
  const findShared = (todo: ScopedWork): T[] => {
    const repository = todo.taskRepository ?? '';
    if (todo.writeScope.length === 0 || !claims.has(repository)) return [];
    if (todo.claimedBy === agentId) return find(todo).map(itemOf);
    const shared = sharedOf(repository);
    const key =
      todo.writeScope.length === 1
        ? (todo.writeScope[0] as string)
        : todo.writeScope.join('\u0000');
    let answer = shared.get(key);
    if (answer === undefined) {
      const conflicts = find({ ...todo, id: '', claimedBy: null, claimOrder: null });
      answer = { conflicts, items: conflicts.map(itemOf) };
      shared.set(key, answer);
    }
    const owner = todo.claimedBy;
    if (owner === null) return answer.items;
    const itself = answer.conflicts.findIndex((c) => c.owner === owner);
    if (itself < 0 || answer.conflicts[itself]?.todoId !== todo.id) return answer.items;
    const next = conflictWith(todo, owner);
    const adjusted = answer.items.slice();
    if (next) adjusted[itself] = itemOf(next);
    else adjusted.splice(itself, 1);
    return adjusted;
  };
  return { find: findShared, exists };
}
