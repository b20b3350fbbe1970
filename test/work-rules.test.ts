/**
 * The work graph's small pure functions, table-driven: repository identities and the
 * pull-request references of `pr_merged:` conditions.
 */
import { describe, expect, it } from 'vitest';
import { parsePullRequestRef, parseRepository } from '../src/work/repository.ts';
import { mergeKeyOf, parseResumeCondition } from '../src/work/rules.ts';

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
