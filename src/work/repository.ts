/**
 * Repository identity: the credential-free name of a git repository a todo writes to
 * (`git:host/owner/repo`), and the pull-request references a resume condition names. Pure:
 * no database here.
 */

import { InputError } from '../core/errors.ts';
import { redactSecrets } from '../core/privacy.ts';

/** The canonical form: `git:` + lower-case host (and port) + `/` + path segments, no `.git`. */
export const REPOSITORY = /^git:[a-z0-9][a-z0-9.-]*(:\d{1,5})?(\/[A-Za-z0-9_.-]+){2,8}$/;
export const MAX_REPOSITORY_LENGTH = 200;

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * The canonical identity of a repository, from `git:host/owner/repo`, an https URL
 * (`https://github.com/owner/repo.git`) or the scp-like ssh form (`git@github.com:owner/repo`).
 * A URL carrying credentials (anything before `@` in an http(s) URL) is refused, and the
 * message never repeats the value: it may hold a token. Throws InputError.
 */
export function parseRepository(field: string, value: string): string {
  const input = value.trim();
  if (input.length === 0) throw new InputError(`${field} must not be empty`, field);
  if (input.length > MAX_REPOSITORY_LENGTH) {
    throw new InputError(`${field} must be at most ${MAX_REPOSITORY_LENGTH} characters`, field);
  }
  const url = /^(?:https?|ssh|git):\/\/([^/]*)(\/.*)?$/i.exec(input);
  let host: string;
  let path: string;
  if (url) {
    const authority = url[1] ?? '';
    const at = authority.lastIndexOf('@');
    const userinfo = at < 0 ? '' : authority.slice(0, at);
    // ssh://git@host/… names the ssh user; any userinfo in an http(s) URL is a credential
    // (a token is often passed as the user name), and so is a password anywhere.
    if (userinfo.includes(':') || (userinfo !== '' && !/^(ssh|git):/i.test(input))) {
      throw new InputError(
        `${field}: a repository URL with credentials is refused; name the repository without them (git:host/owner/repo)`,
        field,
      );
    }
    host = authority.slice(at + 1);
    path = url[2] ?? '';
  } else if (/^git:/i.test(input)) {
    const rest = input.slice(4);
    const slash = rest.indexOf('/');
    host = slash < 0 ? rest : rest.slice(0, slash);
    path = slash < 0 ? '' : rest.slice(slash);
  } else {
    const scp = /^([A-Za-z0-9_.-]+)@([^:/]+):(.+)$/.exec(input);
    if (!scp) {
      throw new InputError(
        `${field} must be a repository identity such as git:github.com/owner/repo (or an https or git@host: URL without credentials)`,
        field,
      );
    }
    host = scp[2] as string;
    path = `/${scp[3]}`;
  }
  const segments = path
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .split('/')
    .filter((s) => s !== '');
  const canonical = `git:${host.toLowerCase()}/${segments.join('/')}`;
  if (
    segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..') ||
    !REPOSITORY.test(canonical)
  ) {
    throw new InputError(
      `${field} must name a host and at least owner/repo, with path segments of letters, digits, '.', '_' and '-' (git:github.com/owner/repo)`,
      field,
    );
  }
  if (redactSecrets(canonical).count > 0) {
    throw new InputError(`${field} must not carry a credential`, field);
  }
  return canonical;
}

/** A pull request: the repository it belongs to (null: the todo's own) and its number. */
export interface PullRequestRef {
  readonly repository: string | null;
  readonly number: string;
}

/**
 * The argument of `pr_merged:` — `#123` (the todo's own taskRepository), `owner/repo#123`
 * (GitHub's cross-repository notation: `git:github.com/owner/repo`) or `git:host/path#123`.
 */
export function parsePullRequestRef(field: string, value: string): PullRequestRef {
  const hash = value.lastIndexOf('#');
  const repository = hash < 0 ? '' : value.slice(0, hash);
  const number = hash < 0 ? '' : value.slice(hash + 1);
  if (!/^\d{1,10}$/.test(number) || Number(number) === 0) {
    throw new InputError(
      `${field}: "pr_merged:${value}" must end in #<pull request number> (pr_merged:owner/repo#123, or pr_merged:#123 on a todo with a taskRepository)`,
      field,
    );
  }
  return {
    repository:
      repository === ''
        ? null
        : parseRepository(
            field,
            /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)
              ? `git:github.com/${repository}`
              : repository,
          ),
    number: String(Number(number)),
  };
}

/** The canonical `pr_merged:` text: `pr_merged:#123` or `pr_merged:git:host/owner/repo#123`. */
export const formatPullRequestRef = (ref: PullRequestRef) =>
  `pr_merged:${ref.repository ?? ''}#${ref.number}`;

/** The key a recorded merge and a condition meet on. */
export const mergeKey = (repository: string, number: string) => `${repository}#${number}`;
