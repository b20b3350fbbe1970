/**
 * What a delivery shows of its body as evidence: a short, one-line preview that never holds
 * a credential or an absolute local path.
 *
 * `redactPreview` is a minimal stand-in for `redactSecrets` in src/ledger/privacy.ts (being
 * written on another branch, same signature and markers). Once that is merged, replace its
 * body with `return redactSecrets(text);` and import it — nothing else changes.
 */
export const PREVIEW_CHARS = 120;

const CREDENTIAL = '[redacted:credential]';
const PATH = '[redacted:path]';

const CREDENTIAL_PATTERNS: readonly [RegExp, string][] = [
  // A private key, to its end (or to the end of the text when it has none).
  [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    CREDENTIAL,
  ],
  // user:password@ in URLs.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, `$1${CREDENTIAL}@`],
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${CREDENTIAL}`],
  // Assignments such as password=…, api_key: "…", TOKEN=….
  [
    /\b([\w.-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential)[\w.-]*)(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;]+)/gi,
    `$1$2${CREDENTIAL}`,
  ],
  // Well-known token shapes: Switchboard, OpenAI/Stripe-style, GitHub, GitLab, Slack, AWS, Google, npm, JWT.
  [
    /\b(?:sb_[A-Za-z0-9_-]{20,}|sk[-_](?:live_|test_|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    CREDENTIAL,
  ],
];

// Home-relative, drive-letter and rooted paths of two or more segments (not URL paths: those
// follow a host name, so they are preceded by a word character).
const ABSOLUTE_PATH =
  /(?<![\w.:/~-])(?:~\/[^\s'"`)\]]+|[A-Za-z]:\\[^\s'"`)\]]+|\/[\w.-]+(?:\/[^\s'"`)\]/]+)+\/?)/g;

export function redactPreview(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) {
    out = out.replace(pattern, (...args) => {
      count++;
      return replacement.replace(/\$(\d)/g, (_, n) => String(args[Number(n)] ?? ''));
    });
  }
  out = out.replace(ABSOLUTE_PATH, () => {
    count++;
    return PATH;
  });
  return { text: out, count };
}

/** The body redacted first (a cut must not split a secret past recognition), then flattened and cut. */
export function bodyPreview(body: string): string {
  const flat = redactPreview(body).text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
