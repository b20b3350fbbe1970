/**
 * Write scopes: relative paths and globs a todo writes (`src/**`, `src/ledger/*.ts`,
 * `README.md`), and whether two of them can touch the same file. Pure: no database here.
 *
 * An entry with globs covers the paths it matches: `*` matches any characters within one
 * segment, `?` exactly one, and a segment of `**` any number of segments (none included), so
 * `src/*.ts` covers `src/index.ts` but not `src/ledger/read.ts`. A plain path, or an entry
 * ending in `/`, also covers everything beneath it: `src/ledger` covers what `src/ledger/**`
 * covers, and never `src/ledger-old`. Matching is case-sensitive, as git paths are. Two
 * entries overlap when some path is covered by both.
 */

/** One segment of a pattern: `**` (any number of segments) or a segment glob. */
type Token = { readonly globstar: true } | { readonly globstar: false; readonly glob: string };

const GLOBSTAR: Token = { globstar: true };

/** Characters a stored entry may not hold (see `writeScopeProblem`): read conservatively. */
const UNSUPPORTED = /[[\]{}\\,]/;

/**
 * The entry as segments, with a trailing `**` for a plain path. What the validator refuses (a
 * leading `!`, brackets, braces) may still be stored from before: it is read as covering
 * more, never less — a bracketed or braced segment as `*`, a negation as everything.
 */
function tokensOf(entry: string): Token[] {
  if (entry.startsWith('!')) return [GLOBSTAR];
  const segments = entry.split('/').filter((segment) => segment !== '' && segment !== '.');
  const tokens: Token[] = segments.map((segment) =>
    segment === '**'
      ? GLOBSTAR
      : { globstar: false, glob: UNSUPPORTED.test(segment) ? '*' : segment },
  );
  const last = segments.at(-1) ?? '';
  const plain = !/[*?]/.test(last);
  return plain || entry.endsWith('/') ? [...tokens, GLOBSTAR] : tokens;
}

/**
 * Whether some non-empty segment matches both segment globs: a walk over the product of
 * their positions (each glob is a small automaton; `*` loops on any character).
 */
export function segmentsOverlap(a: string, b: string): boolean {
  const seen = new Set<number>();
  const stack: [number, number][] = [[0, 0]];
  const width = b.length + 1;
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const ca = a[i];
    const cb = b[j];
    // `*` may match nothing: move past it without consuming a character.
    if (ca === '*') stack.push([i + 1, j]);
    if (cb === '*') stack.push([i, j + 1]);
    if (ca === undefined || cb === undefined) continue;
    // Consume one character both sides accept: two literals must agree.
    const literalA = ca !== '*' && ca !== '?';
    const literalB = cb !== '*' && cb !== '?';
    if (literalA && literalB && ca !== cb) continue;
    stack.push([ca === '*' ? i : i + 1, cb === '*' ? j : j + 1]);
  }
  return false;
}

/**
 * Answers by pair of entries: a goal's todos share a few entries, which every frontier read
 * and claim compares again. Bounded; emptied when full.
 */
const overlaps = new Map<string, Map<string, boolean>>();
let overlapsKept = 0;
const MAX_OVERLAPS = 50_000;

/** Whether two write-scope entries cover a common path (the same walk, one segment at a time). */
export function scopesOverlap(a: string, b: string): boolean {
  let withA = overlaps.get(a);
  let answer = withA?.get(b);
  if (answer === undefined) {
    answer = walkOverlap(a, b);
    if (overlapsKept >= MAX_OVERLAPS) {
      overlaps.clear();
      overlapsKept = 0;
      withA = undefined;
    }
    if (!withA) {
      withA = new Map();
      overlaps.set(a, withA);
    }
    withA.set(b, answer);
    overlapsKept++;
  }
  return answer;
}

function walkOverlap(a: string, b: string): boolean {
  const x = tokensOf(a);
  const y = tokensOf(b);
  const seen = new Set<number>();
  const stack: [number, number][] = [[0, 0]];
  const width = y.length + 1;
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === x.length && j === y.length) return true;
    const tx = x[i];
    const ty = y[j];
    if (tx?.globstar) stack.push([i + 1, j]);
    if (ty?.globstar) stack.push([i, j + 1]);
    if (tx === undefined || ty === undefined) continue;
    if (!tx.globstar && !ty.globstar && !segmentsOverlap(tx.glob, ty.glob)) continue;
    stack.push([tx.globstar ? i : i + 1, ty.globstar ? j : j + 1]);
  }
  return false;
}

/**
 * Why an entry cannot be a write scope, or null: globs here are `*`, `?` and `**` only (no
 * brackets, braces, negation, backslashes or commas), so what two entries cover can be
 * compared exactly.
 */
export function writeScopeProblem(entry: string): string | null {
  if (entry.startsWith('!')) return 'must not be a negation (!…)';
  if (UNSUPPORTED.test(entry)) {
    return "may use only '*', '?' and '**' as globs (no [ ] { } \\ or ,)";
  }
  if (entry.split('/').every((segment) => segment === '' || segment === '.')) {
    return 'must name a path';
  }
  return null;
}

/** The stored form: no leading `./`, no empty or `.` segments; a trailing `/` is kept. */
export const normalizeWriteScope = (entry: string): string =>
  entry
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/') + (entry.endsWith('/') ? '/' : '');
