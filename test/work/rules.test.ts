/**
 * The work graph's small pure functions, table-driven: repository identities, the
 * pull-request references of `pr_merged:` conditions, write-scope overlap and conflicts.
 */
import { describe, expect, it } from 'vitest';
import { type ScopedWork, writeScopeConflicts } from '../../src/work/conflicts.ts';
import { parsePullRequestRef, parseRepository } from '../../src/work/repository.ts';
import {
  computeFrontier,
  type FrontierFacts,
  type FrontierGate,
  type FrontierTodo,
  lineageOf,
  mergeKeyOf,
  parseResumeCondition,
  type Retired,
} from '../../src/work/rules.ts';
import {
  normalizeWriteScope,
  scopesOverlap,
  segmentsOverlap,
  writeScopeProblem,
} from '../../src/work/scopes.ts';

describe('repository identity', () => {
  it.each([
    ['git:github.com/owner/repo', 'git:github.com/owner/repo'],
    ['git:GitHub.com/Owner/Repo', 'git:github.com/Owner/Repo'],
    ['https://github.com/owner/repo', 'git:github.com/owner/repo'],
    ['https://github.com/owner/repo.git', 'git:github.com/owner/repo'],
    ['https://github.com/owner/repo/', 'git:github.com/owner/repo'],
    ['http://gitea.local:3000/team/tool.git', 'git:gitea.local:3000/team/tool'],
    ['git@github.com:owner/repo.git', 'git:github.com/owner/repo'],
    ['ssh://git@github.com/owner/repo.git', 'git:github.com/owner/repo'],
    ['git://example.org/a/b', 'git:example.org/a/b'],
    ['https://gitlab.com/group/subgroup/project', 'git:gitlab.com/group/subgroup/project'],
    ['  git:github.com/o/r  ', 'git:github.com/o/r'],
  ])('%s is %s', (input, canonical) => {
    expect(parseRepository('taskRepository', input)).toBe(canonical);
  });

  it.each([
    [
      'a token as the user of an https URL',
      'https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r',
    ],
    ['user and password', 'https://alice:s3cret-pass@github.com/o/r.git'],
    ['x-access-token', 'https://x-access-token:abc123@github.com/o/r'],
    ['a password in an ssh URL', 'ssh://git:hunter2@github.com/o/r'],
  ])('refuses a URL with credentials (%s) without repeating it', (_name, input) => {
    let message = '';
    try {
      parseRepository('taskRepository', input);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('with credentials is refused');
    const secret = input.slice(input.indexOf('//') + 2, input.lastIndexOf('@'));
    expect(message).not.toContain(secret);
  });

  it.each([
    ['nothing', ''],
    ['an owner only', 'git:github.com/owner'],
    ['no host', 'git:/owner/repo'],
    ['a bare path', 'owner/repo'],
    ['a local path', '/home/me/src/repo'],
    ['a file URL', 'file:///srv/repo.git'],
    ['a climbing segment', 'git:github.com/owner/../repo'],
    ['spaces', 'git:github.com/owner/my repo'],
    ['a query string', 'https://github.com/owner/repo?tab=x'],
    ['too long', `git:github.com/owner/${'r'.repeat(200)}`],
  ])('refuses %s', (_name, input) => {
    expect(() => parseRepository('taskRepository', input)).toThrow(/taskRepository/);
  });
});

describe('pull request references (pr_merged:)', () => {
  it.each([
    ['#123', null, '123'],
    ['#0042', null, '42'],
    ['owner/repo#7', 'git:github.com/owner/repo', '7'],
    ['git:gitlab.com/group/sub/project#9', 'git:gitlab.com/group/sub/project', '9'],
    ['https://github.com/owner/repo#5', 'git:github.com/owner/repo', '5'],
  ])('%s names %s, number %s', (arg, repository, number) => {
    expect(parsePullRequestRef('resumeWhen', arg)).toEqual({ repository, number });
  });

  it.each([['123'], ['#'], ['#0'], ['#12a'], ['owner/repo'], ['owner#1'], ['#12345678901']])(
    'refuses %s',
    (arg) => {
      expect(() => parsePullRequestRef('resumeWhen', arg)).toThrow(/resumeWhen/);
    },
  );

  it('keeps the canonical text, and a bare number means the todo’s own repository', () => {
    const short = parseResumeCondition('resumeWhen', 'pr_merged:owner/repo#7');
    expect(short.text).toBe('pr_merged:git:github.com/owner/repo#7');
    const bare = parseResumeCondition('resumeWhen', 'pr_merged:#7');
    expect(bare.text).toBe('pr_merged:#7');
    if (bare.kind !== 'pr_merged' || short.kind !== 'pr_merged') throw new Error('kind');
    expect(mergeKeyOf(bare, null)).toBeNull();
    expect(mergeKeyOf(bare, 'git:github.com/owner/repo')).toBe(mergeKeyOf(short, null));
    expect(mergeKeyOf(short, 'git:github.com/other/repo')).toBe('git:github.com/owner/repo#7');
  });
});

describe('write-scope overlap', () => {
  it.each([
    // the issue's own examples
    ['src/**', 'src/ledger/**', true],
    ['src/a/**', 'src/b/**', false],
    // a plain path covers everything beneath it, and only beneath whole segments
    ['src/ledger', 'src/ledger/read.ts', true],
    ['src/ledger/', 'src/ledger/**', true],
    ['src/ledger', 'src/ledger-old/**', false],
    ['src/ledger', 'src/ledgers', false],
    ['src', 'src/**', true],
    ['README.md', 'README.md', true],
    ['README.md', 'readme.md', false], // case-sensitive, as git paths are
    // a glob covers what it matches, no more
    ['src/*.ts', 'src/index.ts', true],
    ['src/*.ts', 'src/ledger/read.ts', false],
    ['src/*', 'src/ledger/read.ts', false],
    ['src/*', 'src/ledger', true],
    ['src/*/', 'src/ledger/read.ts', true], // a trailing `/` names directories: beneath too
    ['*.md', 'README.md', true],
    ['*.md', 'docs/intro.md', false],
    ['**/*.md', 'docs/intro.md', true],
    ['docs/*.md', 'docs/api/**', false],
    ['src/**/*.ts', 'src/**/*.js', false],
    ['src/**/*.ts', 'src/**/*.t?', true],
    // `**` matches any number of segments, none included
    ['src/**/test.ts', 'src/test.ts', true],
    ['src/**/test.ts', 'src/a/b/test.ts', true],
    ['src/**/test.ts', 'src/a/*.js', false],
    ['src/**/test.ts', 'src/a/other.ts', true], // a plain path may be a directory: beneath too
    ['src/**/ledger/**', 'src/x/y/ledger/a.ts', true],
    ['src/**/ledger/**', 'src/ledgers/*.ts', false],
    ['**', 'anything/at/all', true],
    ['a/**/b/**/c', 'a/b/c', true],
    ['a/**/b/**/c', 'a/c/*.x', false],
    ['a/**/b/**/c', 'a/c/b', true], // a/c/b/c
    // globs inside one segment, against each other
    ['src/a*', 'src/*b', true], // src/ab
    ['src/a*', 'src/b*', false],
    ['src/a?c', 'src/abc', true],
    ['src/a?c', 'src/ac', false],
    ['src/a?c', 'src/a*c', true],
    ['src/*.ts', 'src/*.js', false],
    ['src/*.?s', 'src/*.js', true],
    ['src/x*y*z', 'src/*y*', true],
    ['src/**.ts', 'src/a/b.ts', false], // `**` inside a segment is `*`
    // spellings of the same path
    ['./src/a', 'src/a/b', true],
    ['src//a', 'src/a', true],
    // what the validator refuses, if stored before, is read as covering more, never less
    ['src/{a,b}', 'src/c/x.ts', true],
    ['src/[ab].ts', 'src/c.ts', true],
    ['!src/**', 'docs/x.md', true],
  ])('%s and %s overlap: %s', (a, b, expected) => {
    expect(scopesOverlap(a, b)).toBe(expected);
    expect(scopesOverlap(b, a)).toBe(expected);
  });

  it.each([
    ['a*', '*b', true],
    ['*', 'x', true],
    ['abc', 'abd', false],
    ['a*c', 'ab', false],
    ['*a*', '*b*', true],
    ['??', '???', false],
    ['?*', 'x', true],
  ])('segment globs %s and %s overlap: %s', (a, b, expected) => {
    expect(segmentsOverlap(a, b)).toBe(expected);
    expect(segmentsOverlap(b, a)).toBe(expected);
  });

  it('refuses what it could not compare exactly, and stores one spelling', () => {
    expect(writeScopeProblem('src/**')).toBeNull();
    expect(writeScopeProblem('src/{a,b}/**')).toContain('only');
    expect(writeScopeProblem('src/[ab].ts')).toContain('only');
    expect(writeScopeProblem('src\\win')).toContain('only');
    expect(writeScopeProblem('!src/**')).toContain('negation');
    expect(writeScopeProblem('./')).toContain('must name a path');
    expect(normalizeWriteScope('./src//ledger/./x/')).toBe('src/ledger/x/');
    expect(normalizeWriteScope('src/ledger')).toBe('src/ledger');
  });
});

describe('write-scope conflicts', () => {
  const work = (
    id: string,
    writeScope: string[],
    claimedBy: string | null = null,
    claimOrder: number | null = null,
    taskRepository: string | null = 'git:example.org/o/r',
  ): ScopedWork => ({ id, taskRepository, writeScope, claimedBy, claimOrder });

  it('a todo that is its owner’s named claim gets the owner’s next claim, or none', () => {
    const todos = [
      work('x1', ['src/**'], 'x', 1),
      work('x2', ['src/a/**'], 'x', 2),
      work('y1', ['src/a/b.ts'], 'y', 3),
      work('open', ['src/a/**']),
    ];
    const conflicts = writeScopeConflicts(todos, 'me', (conflict) => conflict).find;
    const named = (todo: ScopedWork) => conflicts(todo).map((c) => [c.owner, c.todoId]);
    // Unclaimed: every other owner's earliest overlapping claim.
    expect(named(todos[3] as ScopedWork)).toEqual([
      ['x', 'x1'],
      ['y', 'y1'],
    ]);
    // The same entries, claimed by x and itself x's earliest: x's next claim instead.
    expect(named(work('x0', ['src/a/**'], 'x', 0))).toEqual([
      ['x', 'x1'],
      ['y', 'y1'],
    ]);
    expect(named(todos[0] as ScopedWork)).toEqual([
      ['x', 'x2'],
      ['y', 'y1'],
    ]);
    expect(named(todos[1] as ScopedWork)).toEqual([
      ['x', 'x1'],
      ['y', 'y1'],
    ]);
    // y's only claim: no conflict with y itself.
    expect(named(todos[2] as ScopedWork)).toEqual([['x', 'x1']]);
    // Another repository, or none, shares nothing.
    expect(named(work('elsewhere', ['src/**'], null, null, 'git:example.org/o/other'))).toEqual([]);
    expect(named(work('unnamed', ['src/**'], null, null, null))).toEqual([]);
  });

  it('names, for each todo, each other owner’s earliest overlapping claim (random graphs)', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
    const entries = [
      'src/**',
      'src/a/**',
      'src/a/x.ts',
      'src/b',
      'src/*/x.ts',
      'docs/*.md',
      'README.md',
    ];
    const owners = ['me', 'o1', 'o2', 'o3'];
    const first = (a: ScopedWork, b: ScopedWork) =>
      (a.claimOrder ?? 0) - (b.claimOrder ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    for (let round = 0; round < 20; round++) {
      const todos = Array.from({ length: 40 }, (_, i) => {
        const owner = next() < 0.5 ? pick(owners) : null;
        const scope = [...new Set([pick(entries), ...(next() < 0.3 ? [pick(entries)] : [])])];
        return work(
          `t${i}`,
          scope,
          owner,
          owner ? Math.floor(next() * 10) : null,
          pick(['r1', 'r2']),
        );
      });
      const conflicts = writeScopeConflicts(todos, 'me', (conflict) => conflict).find;
      const { exists } = writeScopeConflicts(todos, 'me', (conflict) => conflict);
      for (const todo of todos) {
        const overlaps = (other: ScopedWork) =>
          todo.writeScope.some((a) => other.writeScope.some((b) => scopesOverlap(a, b)));
        const expected = owners
          .filter((owner) => owner !== 'me')
          .flatMap((owner) => {
            const earliest = todos
              .filter(
                (other) =>
                  other.claimedBy === owner &&
                  other.id !== todo.id &&
                  other.taskRepository === todo.taskRepository &&
                  (todo.claimedBy !== 'me' || first(other, todo) < 0) &&
                  overlaps(other),
              )
              .sort(first)[0];
            return earliest ? [[owner, earliest.id]] : [];
          });
        const found = conflicts(todo);
        expect(found.map((c) => [c.owner, c.todoId])).toEqual(expected);
        // The frontier's ready read asks only whether there is one.
        expect(exists(todo), todo.id).toBe(expected.length > 0);
        for (const c of found) expect(scopesOverlap(c.writeScope, c.otherWriteScope)).toBe(true);
      }
    }
  });
});

describe('lineage (where a supersede chain ends)', () => {
  it('a live id is itself; a retired one ends at the first live or closed todo of its chain; anything else is done', () => {
    const live = [
      { id: 'a', status: 'OPEN' },
      { id: 'b', status: 'DEFERRED' },
    ] as FrontierTodo[];
    const retired = new Map<string, Retired>([
      ['s1', { status: 'SUPERSEDED', supersededBy: 'a' }],
      ['s2', { status: 'SUPERSEDED', supersededBy: 's1' }],
      ['s3', { status: 'SUPERSEDED', supersededBy: 'c1' }],
      ['c1', { status: 'CLOSED_NO_FOLLOW_UP', supersededBy: null }],
      ['s4', { status: 'SUPERSEDED', supersededBy: 'done' }],
      ['s5', { status: 'SUPERSEDED', supersededBy: 's4' }],
      ['s6', { status: 'SUPERSEDED', supersededBy: null }],
    ]);
    const lineage = lineageOf(live, retired);
    expect(Object.fromEntries(lineage)).toEqual({
      a: live[0],
      b: live[1],
      s1: live[0],
      s2: live[0],
      s3: { id: 'c1', status: 'CLOSED_NO_FOLLOW_UP' },
      c1: { id: 'c1', status: 'CLOSED_NO_FOLLOW_UP' },
      s6: { id: 's6', status: 'SUPERSEDED' },
    });
    // s4 and s5 end at a done todo, and a done id is in no chain: neither is in the lineage.
    expect(lineage.get('s5')).toBeUndefined();
    expect(lineage.get('done')).toBeUndefined();
  });
});

describe('the frontier, selected (random graphs)', () => {
  let seed = 11;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  const some = <T>(values: readonly T[], p: number): T[] =>
    next() < p ? [...new Set([pick(values), pick(values)])] : [];

  /** A small goal with every guard in play, for agent `me`. */
  function graph(): FrontierFacts<FrontierTodo> {
    const ids = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const retired = new Map<string, Retired>([
      ['gone', { status: 'SUPERSEDED', supersededBy: 't1' }],
      ['closed', { status: 'CLOSED_NO_FOLLOW_UP', supersededBy: null }],
    ]);
    const gates: FrontierGate[] = [
      {
        id: 'g1',
        kind: 'PRODUCTION',
        granularity: 'LANE',
        scopeKey: 'deploy',
        inForce: true,
        settled: false,
      },
      {
        id: 'g2',
        kind: 'PUBLIC_CLAIM',
        granularity: 'GOAL',
        scopeKey: 'all',
        inForce: false,
        settled: true,
      },
    ];
    const todos = ids.map((id, i): FrontierTodo => {
      const claimedBy = next() < 0.4 ? pick(['me', 'o1', 'o2']) : null;
      const status = next() < 0.2 ? 'DEFERRED' : 'OPEN';
      return {
        id,
        status,
        // Only earlier todos, done ones and retired ones: no cycles, as on write.
        dependsOn: some([...ids.slice(0, i), 'done-long-ago', 'gone', 'closed'], 0.3),
        resumeWhen: some(
          [
            `todo_done:${pick(['done-long-ago', 'gone', ...ids.slice(0, i + 1)])}`,
            'gate_resolved:g1',
            'gate_resolved:g2',
            'capacity_available:gpu',
            'capacity_available:shell',
            'pr_merged:#7',
            'pr_merged:#8',
          ],
          status === 'DEFERRED' ? 0.8 : 0.1,
        ),
        requiredDecisionScopes: some(
          ['production:action:deploy/web', 'public_claim:goal:all', 'production:action:other'],
          0.2,
        ),
        requiredCapability: next() < 0.2 ? pick(['shell', 'gpu']) : null,
        taskRepository: pick(['git:example.org/o/r', 'git:example.org/o/other', null]),
        writeScope: some(['src/**', 'src/a/**', 'src/b/x.ts', 'docs/*.md'], 0.8),
        claimedBy,
        claimOrder: claimedBy ? Math.floor(next() * 20) : null,
        leaseHolder: claimedBy && next() < 0.3 ? claimedBy : null,
        leaseState: claimedBy && next() < 0.3 ? pick(['ACTIVE', 'EXPIRED'] as const) : 'NONE',
      };
    });
    return {
      agentId: 'me',
      capabilities: new Set(['shell']),
      workspace: next() < 0.8 ? { repository: 'git:example.org/o/r', worktree: 'LINKED' } : null,
      todos,
      lineage: lineageOf(todos, retired),
      gates,
      availableCapabilities: new Set(['shell']),
      mergedPullRequests: new Set([
        mergeKeyOf({ repository: null, number: '7' }, 'git:example.org/o/r') as string,
      ]),
    };
  }

  it('runnable: true gives exactly the whole answer’s runnable rows, false its held rows with every guard, in its order; the counts are the whole’s', () => {
    let runnableSeen = 0;
    let heldSeen = 0;
    for (let round = 0; round < 200; round++) {
      const facts = graph();
      const whole = computeFrontier(facts);
      const runnable = whole.rows.filter((r) => r.runnable);
      const held = whole.rows.filter((r) => !r.runnable);
      runnableSeen += runnable.length;
      heldSeen += held.length;
      const counts = { rowCount: facts.todos.length, runnableCount: runnable.length };
      expect(whole).toMatchObject(counts);
      for (const limit of [null, 0, 1, 3, 100]) {
        const cut = <T>(rows: T[]) => (limit === null ? rows : rows.slice(0, limit));
        expect(computeFrontier(facts, { runnable: true, limit })).toEqual({
          rows: cut(runnable),
          ...counts,
        });
        expect(computeFrontier(facts, { runnable: false, limit })).toEqual({
          rows: cut(held),
          ...counts,
        });
        expect(computeFrontier(facts, { runnable: null, limit })).toEqual({
          rows: cut(whole.rows),
          ...counts,
        });
      }
    }
    // The graphs exercise both kinds of row.
    expect(runnableSeen).toBeGreaterThan(200);
    expect(heldSeen).toBeGreaterThan(2000);
  });
});
