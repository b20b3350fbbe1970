/**
 * The ledger's privacy boundary at write (docs/api.md, "Evidence ledger"). Everything an agent writes into a
 * ledger row passes through `screenEvent` first, so rows never hold raw logs or
 * trajectories, credential values or absolute local paths.
 *
 * Two moves, chosen per kind of content:
 * - redact, where a marker keeps the rest of the text useful (a token inside a summary);
 * - refuse, where redaction cannot make the input safe or meaningful (an evidence ref that
 *   is an absolute path, a summary that is a pasted log, an unterminated private key).
 *
 * The patterns lean towards redacting too much: a false positive costs one word of a
 * summary, a false negative leaks a credential into a row every peer can read. Refusal
 * reasons name the rule and the limit, never the offending text, because reasons travel
 * back to callers and into logs.
 */

export const privacyLimits = {
  summaryChars: 500,
  summaryLines: 8,
  refChars: 300,
  refs: 20,
  tokenChars: 64,
} as const;

export const redactionMarkers = {
  credential: '[redacted:credential]',
  path: '[redacted:path]',
} as const;

export const refusalCodes = [
  'EMPTY',
  'OVER_LIMIT',
  'RAW_LOG',
  'RAW_TRAJECTORY',
  'NOT_RELATIVE',
  'BIDI_CONTROL',
  'CREDENTIAL',
  'NOT_A_TOKEN',
  'UNREDACTABLE',
] as const;
export type RefusalCode = (typeof refusalCodes)[number];

/** What a row declares it does not hold. Every screened row has all four flags false. */
export interface Boundary {
  rawLogsRecorded: boolean;
  rawTrajectoryRecorded: boolean;
  credentialValuesRecorded: boolean;
  absolutePathsRecorded: boolean;
  /** Markers put into the text on the way in. */
  redactionCount: number;
}

export interface Refusal {
  ok: false;
  field: string;
  code: RefusalCode;
  /** Names the rule and the limit; never quotes the input. */
  reason: string;
}

export type Screened<T> = { ok: true; value: T; boundary: Boundary } | Refusal;

export interface EventTextInput {
  summary: string;
  evidenceRefs: string[];
  status?: string | null;
  classification?: string | null;
}

export interface EventText {
  summary: string;
  evidenceRefs: string[];
  status: string | null;
  classification: string | null;
}

/**
 * Screens the free-text fields of a ledger event. On success the value is safe to store
 * as is and `boundary` is the row's boundary; on refusal nothing of the input may be stored.
 */
export function screenEvent(input: EventTextInput): Screened<EventText> {
  const summary = screenSummary(input.summary);
  if (!summary.ok) return summary;
  const evidenceRefs = screenRefs(input.evidenceRefs);
  if (!evidenceRefs.ok) return evidenceRefs;
  const status = screenToken('status', input.status);
  if (!status.ok) return status;
  const classification = screenToken('classification', input.classification);
  if (!classification.ok) return classification;
  return {
    ok: true,
    value: {
      summary: summary.text,
      evidenceRefs: evidenceRefs.refs,
      status: status.token,
      classification: classification.token,
    },
    boundary: {
      rawLogsRecorded: false,
      rawTrajectoryRecorded: false,
      credentialValuesRecorded: false,
      absolutePathsRecorded: false,
      redactionCount: summary.redactions,
    },
  };
}

/**
 * Replaces credential values and absolute local paths with markers, for text that is
 * shown in part rather than stored as a row (a delivery's bodyPreview). It never refuses:
 * an unterminated private key is redacted to the end of the text.
 */
export function redactSecrets(text: string): { text: string; count: number } {
  const redacted = redact(text);
  return { text: redacted.text, count: redacted.credentials + redacted.paths };
}

// ---- summary -------------------------------------------------------------------------

function screenSummary(raw: string): { ok: true; text: string; redactions: number } | Refusal {
  const summary = raw.trim();
  if (summary.length === 0) return refuse('summary', 'EMPTY', 'summary must not be empty');
  // Bounded before redaction, so a long paste cannot shrink itself under the limit.
  if (summary.length > privacyLimits.summaryChars) {
    return refuse(
      'summary',
      'OVER_LIMIT',
      `summary must be at most ${privacyLimits.summaryChars} characters; record a ref to the log instead of the log`,
    );
  }
  if (summary.split(/\r\n|\r|\n/).length > privacyLimits.summaryLines) {
    return refuse(
      'summary',
      'OVER_LIMIT',
      `summary must be at most ${privacyLimits.summaryLines} lines; record a ref to the log instead of the log`,
    );
  }
  if (BIDI_CONTROL.test(summary)) {
    return refuse('summary', 'BIDI_CONTROL', 'summary must not contain bidi controls');
  }
  const rawContent = looksRaw(summary);
  if (rawContent) {
    return refuse(
      'summary',
      rawContent.code,
      `summary looks like ${rawContent.what}; summarize it and cite it in evidenceRefs`,
    );
  }
  const redacted = redact(summary);
  if (redacted.unterminatedKey) {
    return refuse(
      'summary',
      'UNREDACTABLE',
      'summary holds the start of a private key without its end; it cannot be redacted safely',
    );
  }
  const words = redacted.text.split(/\s+/).filter((w) => w.length > 0);
  const markedWords = words.filter((w) => w.includes('[redacted:')).length;
  // What is left around that many markers is the secret's surroundings (hosts, variable
  // names), not a summary.
  if (markedWords * 2 > words.length) {
    return refuse(
      'summary',
      'UNREDACTABLE',
      'summary is mostly credentials or local paths; after redaction nothing meaningful is left',
    );
  }
  return { ok: true, text: redacted.text, redactions: redacted.credentials + redacted.paths };
}

// Few heuristics, each cheap and each for a shape a short summary never has. They run on
// the input, after the length bounds, so they only need to catch what fits in 8 lines.
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?|\b\d{2}:\d{2}:\d{2}\b/g;
// Upper case only, as loggers print them: prose lines may well open with "Error" or "Info".
const LOG_LEVEL_LINE = /^\s*\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b/gm;
const STACK_HEADER = /Traceback \(most recent call last\)|^goroutine \d+ \[/m;
const STACK_FRAME = /^\s*at .*:\d+(?::\d+)?\)?\s*$|^\s*File ".*", line \d+/gm;
const TRANSCRIPT_ROLE = /"role"\s*:\s*"(?:system|developer|user|assistant|tool|function|model)"/i;
const TRANSCRIPT_CONTENT = /"content"\s*:/i;
const LABELLED_TURN = /^\s*(?:system|user|human|assistant)\s*:/gim;
// Escape sequences and other control characters come from captured terminal output.
const CONTROL = /[^\P{Cc}\t\n\r]/u;
/**
 * Bidi controls reorder what a reader sees (a ref that reads as another path, a summary whose
 * words run backwards); no short text other agents read carries them.
 */
export const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

function looksRaw(text: string): { code: 'RAW_LOG' | 'RAW_TRAJECTORY'; what: string } | null {
  if (CONTROL.test(text)) return { code: 'RAW_LOG', what: 'terminal output (control characters)' };
  if (count(text, TIMESTAMP) >= 3) return { code: 'RAW_LOG', what: 'a log (3 or more timestamps)' };
  if (count(text, LOG_LEVEL_LINE) >= 3) {
    return { code: 'RAW_LOG', what: 'a log (3 or more lines opening with a log level)' };
  }
  if (STACK_HEADER.test(text) || count(text, STACK_FRAME) >= 2) {
    return { code: 'RAW_LOG', what: 'a stack trace' };
  }
  if (TRANSCRIPT_ROLE.test(text) && TRANSCRIPT_CONTENT.test(text)) {
    return { code: 'RAW_TRAJECTORY', what: 'a transcript (JSON role/content messages)' };
  }
  if (count(text, LABELLED_TURN) >= 2) {
    return { code: 'RAW_TRAJECTORY', what: 'a transcript (2 or more role-labelled turns)' };
  }
  return null;
}

// ---- evidence refs -------------------------------------------------------------------

function screenRefs(refs: string[]): { ok: true; refs: string[] } | Refusal {
  if (refs.length > privacyLimits.refs) {
    return refuse(
      'evidenceRefs',
      'OVER_LIMIT',
      `evidenceRefs may hold at most ${privacyLimits.refs} refs`,
    );
  }
  const screened: string[] = [];
  for (const [i, raw] of refs.entries()) {
    const ref = raw.trim();
    const at = `evidenceRefs[${i}]`;
    if (ref.length === 0) return refuse('evidenceRefs', 'EMPTY', `${at} must not be empty`);
    if (ref.length > privacyLimits.refChars) {
      return refuse(
        'evidenceRefs',
        'OVER_LIMIT',
        `${at} must be at most ${privacyLimits.refChars} characters`,
      );
    }
    if (CONTROL.test(ref)) {
      return refuse('evidenceRefs', 'NOT_RELATIVE', `${at} must not contain control characters`);
    }
    if (BIDI_CONTROL.test(ref)) {
      return refuse('evidenceRefs', 'BIDI_CONTROL', `${at} must not contain bidi controls`);
    }
    // A redacted ref points nowhere, so a ref is refused rather than redacted.
    const found = redact(ref);
    if (found.credentials > 0 || found.unterminatedKey) {
      return refuse('evidenceRefs', 'CREDENTIAL', `${at} holds a credential`);
    }
    if (found.paths > 0 || ABSOLUTE_REF.test(ref)) {
      return refuse(
        'evidenceRefs',
        'NOT_RELATIVE',
        `${at} must be relative to the repository or an http(s) URL, not an absolute local path`,
      );
    }
    if (!URL_WITH_AUTHORITY.test(ref) && escapesUpward(ref)) {
      return refuse(
        'evidenceRefs',
        'NOT_RELATIVE',
        `${at} must not climb above its root with '..'`,
      );
    }
    screened.push(ref);
  }
  return { ok: true, refs: screened };
}

/** Rooted (`/`, `\`), home (`~`), drive (`C:`) or `file:` — whatever the rest looks like. */
const ABSOLUTE_REF = /^(?:[/\\~]|[A-Za-z]:|file:)/i;
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function escapesUpward(ref: string): boolean {
  let depth = 0;
  for (const segment of ref.replace(/%2e/gi, '.').split(/[/\\]/)) {
    if (segment === '..') depth -= 1;
    else if (segment !== '' && segment !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

// ---- short tokens --------------------------------------------------------------------

const TOKEN = /^[A-Za-z0-9_.:-]+$/;

function screenToken(
  field: string,
  value: string | null | undefined,
): { ok: true; token: string | null } | Refusal {
  if (value === null || value === undefined) return { ok: true, token: null };
  if (value.length > privacyLimits.tokenChars || !TOKEN.test(value)) {
    return refuse(
      field,
      'NOT_A_TOKEN',
      `${field} must be 1 to ${privacyLimits.tokenChars} characters of letters, digits, '_', '.', ':' and '-'`,
    );
  }
  // Switchboard's own tokens and cloud access keys fit the token alphabet.
  if (redact(value).credentials > 0) {
    return refuse(field, 'CREDENTIAL', `${field} holds a credential`);
  }
  return { ok: true, token: value };
}

// ---- redaction -----------------------------------------------------------------------

const NOT_MARKED = String.raw`(?!\[redacted:)`;
// Patterns start only where a run of token characters starts. With `\b`, a long run such as
// `a-a-a-…` offers a start at every `-` and each start rescans the run: quadratic on the
// large bodies that redactSecrets is given.
const TOKEN_RUN_START = '(?<![A-Za-z0-9_-])';

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * Values with a recognisable shape, redacted whole. Vendors prefix their tokens so that
 * scanners like this one can find them; a prefix with a minimum length is enough.
 */
const SHAPED_CREDENTIALS: RegExp[] = [
  // JWT: base64url JSON header `{"` is `eyJ`, then two more segments (the last may be empty).
  /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/,
  // OpenAI / Anthropic style (`sk-…`, `sk-proj-…`, `sk-ant-…`); Stripe secret and restricted keys.
  /sk-[A-Za-z0-9_-]{20,}/,
  /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/,
  // GitHub classic (ghp, gho, ghu, ghs, ghr) and fine-grained tokens; GitLab personal tokens.
  /gh[pousr]_[A-Za-z0-9]{16,}/,
  /github_pat_[A-Za-z0-9_]{22,}/,
  /glpat-[A-Za-z0-9_-]{20,}/,
  // Slack bot, app, user, refresh and legacy tokens.
  /xox[baprs]-[A-Za-z0-9-]{10,}/,
  // AWS access key ids, long-lived (AKIA) and temporary (ASIA); Google API keys.
  /(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/,
  /AIza[A-Za-z0-9_-]{35}/,
  // PyPI upload tokens.
  /pypi-[A-Za-z0-9_-]{16,}/,
  // Slack incoming-webhook and workflow URLs: the path is the secret.
  /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/,
  // npm and Hugging Face tokens.
  /npm_[A-Za-z0-9]{36}/,
  /hf_[A-Za-z0-9]{30,}/,
  // Switchboard's own: `sb_` + 32 random bytes in base64url (registry/tokens.ts).
  /sb_[A-Za-z0-9_-]{43}/,
].map((shape) => new RegExp(TOKEN_RUN_START + shape.source, 'g'));

// Authorization headers: a Bearer or Basic credential is one word; any other scheme
// (Digest, Negotiate, a bare key) may carry several, so the rest of the line goes.
const AUTHORIZATION_HEADER = new RegExp(
  String.raw`\b((?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?)(?![ \t"'])` +
    String.raw`(?:((?:bearer|basic|token)[ \t]+)${NOT_MARKED}[^\s"',;]+|(?!(?:bearer|basic|token)[ \t])${NOT_MARKED}[^\r\n]+)`,
  'gi',
);

// `Bearer <token>` or `Basic <base64>` anywhere else; a plain lowercase word after it is
// prose ("bearer tokens", "basic usage").
const BEARER = new RegExp(
  String.raw`\b((?:bearer|basic)[ \t]+)${NOT_MARKED}([A-Za-z0-9._~+/-]{8,}=*)`,
  'gi',
);

// `scheme://user:password@host`: the password only; the user and host stay readable.
const URL_PASSWORD = new RegExp(
  String.raw`(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}://[^\s:/@]+:)${NOT_MARKED}([^\s@/]+)(?=@)`,
  'gi',
);

// `key=value` / `key: value` / `"key": "value"` where the key ends in a secret-ish word.
// The key must end there, so `token_count=5` and `max_tokens=4096` are not pairs; `==` and
// `::` are code, not pairs. Every value is redacted: a password can be any word.
const SECRET_KEY = `(?:[A-Za-z0-9_.-]{0,64}?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key(?:[_-]?id)?|secret[_-]?key|account[_-]?key|shared[_-]?access[_-]?key)|sk)`;
const SECRET_PAIR = new RegExp(
  String.raw`(?<![A-Za-z0-9_.-])(${SECRET_KEY}["']?[ \t]*[:=](?![=:])[ \t]*)` +
    String.raw`(?:"${NOT_MARKED}([^"\r\n]+)"|'${NOT_MARKED}([^'\r\n]+)'|${NOT_MARKED}([^\s"'&;,)]+))`,
  'gi',
);

// `--password hunter2`: command-line flags take their value after a space.
const SECRET_FLAG = new RegExp(
  String.raw`(?<![A-Za-z0-9_-])(--?[A-Za-z0-9-]{0,32}?(?:password|passwd|passphrase|secret|token|api-?key)[ \t]+)(?!-)${NOT_MARKED}([^\s"'&;,)]+)`,
  'gi',
);

// `mysql -uapp -pS3cret`: the MySQL and MariaDB clients take a password glued to `-p` (with a
// space after it, `-p` asks for one and the next word is a database). Case matters: `-P` is
// the port.
const MYSQL_PASSWORD = new RegExp(
  String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mariadb|mariadb-dump|mariadb-admin)\b[^\n|;&]{0,200}?[ \t]-p)${NOT_MARKED}([^\s"'&;,)]+)`,
  'g',
);

// "the password is hunter2", "passphrase was 'two words'": a secret told in words. A plain
// lowercase word after it is prose ("the password is required").
const SECRET_PHRASE = new RegExp(
  String.raw`\b((?:password|passwd|passphrase|passcode)[ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+)` +
    String.raw`(?:"${NOT_MARKED}([^"\r\n]+)"|'${NOT_MARKED}([^'\r\n]+)'|${NOT_MARKED}([^\s"'&;,)]+))`,
  'gi',
);

// A bare run of 64 or more hex digits is a key (an HMAC, encryption or API secret); a digest
// says what it is (`sha256:…`, as the ledger's own digests do) and stays, as do 40-digit git
// object ids.
const HEX_KEY =
  /(?<![A-Za-z0-9_-])(?<!sha(?:1|224|256|384|512)[:=])[0-9a-fA-F]{64,}(?![A-Za-z0-9_-])/g;

// A path starts at the start of the text or after a separator, never inside a word or URL.
const PATH_START = String.raw`(?<=^|[\s"'\x60(\[{<=:,])`;
const PATH_BODY = String.raw`[^\s"'\x60<>|()\[\]{},;]*`;
const FILE_URL = /\bfile:[^\s"'`<>]+/gi;
const WINDOWS_PATH = new RegExp(String.raw`(?<![A-Za-z0-9])[A-Za-z]:[\\/]${PATH_BODY}`, 'g');
const UNC_PATH = new RegExp(String.raw`${PATH_START}\\\\[^\s\\]+\\${PATH_BODY}`, 'g');
const HOME_PATH = new RegExp(`${PATH_START}~(?:[a-z_][a-z0-9_-]*)?/${PATH_BODY}`, 'g');
const ROOTED_PATH = new RegExp(`${PATH_START}/(?=[A-Za-z0-9._~-])${PATH_BODY}`, 'g');
// `../../home/x`: a relative path that climbs into a home folder names one all the same.
const CLIMBING_HOME_PATH = new RegExp(
  String.raw`${PATH_START}(?:\.\.[\\/])+(?:home|Users|root)[\\/]${PATH_BODY}`,
  'g',
);
// `$HOME/.netrc`, `${HOME}/.aws`, `%USERPROFILE%\.ssh`, `$env:APPDATA\…`: a path in a user's
// home (or temporary) folder, spelled with the variable that names it.
const HOME_VARIABLE =
  '(?:HOME|USERPROFILE|HOMEPATH|APPDATA|LOCALAPPDATA|XDG_[A-Z]+_HOME|XDG_RUNTIME_DIR|TMPDIR|TEMP|TMP)';
const VARIABLE_PATH = new RegExp(
  String.raw`(?:\$\{${HOME_VARIABLE}\}|\$(?:env:)?${HOME_VARIABLE}\b|%${HOME_VARIABLE}%)[\\/]${PATH_BODY}`,
  'gi',
);
// `%2Fhome%2Fx`: an absolute path, URL-encoded.
const ENCODED_PATH =
  /%2F(?:home|Users|root|tmp|var|etc|opt|private|mnt|srv)(?:%2F|\/)[^\s"'`<>]*/gi;
/**
 * A rooted path of one segment is redacted only under these roots: `/graphql`, `/healthz`
 * or an agent's `/review` command say nothing about a machine, `/home` or `/tmp` do. Two or
 * more segments are always redacted.
 */
const LOCAL_ROOTS = new Set([
  'home',
  'Users',
  'root',
  'tmp',
  'var',
  'etc',
  'opt',
  'usr',
  'mnt',
  'media',
  'srv',
  'run',
  'private',
  'Volumes',
  'workspace',
  'workspaces',
  'work',
  'proc',
  'sys',
  'dev',
  'nix',
  'snap',
]);
// Sentence punctuation after a path belongs to the sentence.
const TRAILING_PUNCTUATION = /[.:!?]+$/;

export interface Redacted {
  text: string;
  credentials: number;
  paths: number;
  unterminatedKey: boolean;
}

/**
 * Credentials before paths (a key's body or a URL's password may look like a path), and
 * within credentials the widest shapes first, so each secret becomes exactly one marker.
 * Markers contain no `/` and are skipped by the pair rules, so a second pass finds nothing.
 */
export function redact(input: string): Redacted {
  const keys = redactPrivateKeys(input);
  let text = keys.text;
  let credentials = keys.count;
  let paths = 0;
  const credential = (pattern: RegExp, keep: (...groups: string[]) => string = () => '') => {
    text = text.replace(pattern, (...args: unknown[]) => {
      credentials += 1;
      return keep(...(args.slice(1, -2) as string[])) + redactionMarkers.credential;
    });
  };

  for (const pattern of SHAPED_CREDENTIALS) credential(pattern);
  credential(AUTHORIZATION_HEADER, (header, scheme) => `${header}${scheme ?? ''}`);
  credential(URL_PASSWORD, (prefix) => prefix ?? '');
  text = text.replace(BEARER, (match, prefix: string, value: string) => {
    if (/^[a-z]+$/.test(value)) return match;
    credentials += 1;
    return prefix + redactionMarkers.credential;
  });
  // A key (or phrase) and its value, double-quoted, single-quoted or bare: the value goes.
  const pair = (pattern: RegExp, prose: (bare: string) => boolean = () => false) => {
    text = text.replace(pattern, (match, key: string, dq?: string, sq?: string, bare?: string) => {
      if (bare !== undefined && prose(bare)) return match;
      credentials += 1;
      const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
      return `${key}${quote}${redactionMarkers.credential}${quote}`;
    });
  };
  pair(SECRET_PAIR);
  pair(SECRET_PHRASE, (bare) => /^[a-z]+$/.test(bare));
  credential(SECRET_FLAG, (flag) => flag ?? '');
  credential(MYSQL_PASSWORD, (command) => command ?? '');
  credential(HEX_KEY);

  const path = (pattern: RegExp, isLocal: (path: string) => boolean = () => true) => {
    text = text.replace(pattern, (match: string) => {
      const punctuation = TRAILING_PUNCTUATION.exec(match)?.[0] ?? '';
      const body = match.slice(0, match.length - punctuation.length);
      if (!isLocal(body)) return match;
      paths += 1;
      return redactionMarkers.path + punctuation;
    });
  };
  path(FILE_URL);
  path(VARIABLE_PATH);
  path(ENCODED_PATH);
  path(CLIMBING_HOME_PATH);
  path(WINDOWS_PATH);
  path(UNC_PATH);
  path(HOME_PATH);
  path(ROOTED_PATH, (body) => {
    const segments = body.split('/').filter((s) => s.length > 0);
    return segments.length >= 2 || LOCAL_ROOTS.has(segments[0] ?? '');
  });

  return { text, credentials, paths, unterminatedKey: keys.unterminated };
}

/**
 * Each block, armour lines included, becomes one marker. A block with no end is redacted to
 * the end of the text, and an end with no start (an excerpt that begins inside a key) from the
 * start of the text: everything on that side may be key material. A loop rather than one lazy
 * pattern, so many starts without ends cost one pass, not one pass each.
 */
function redactPrivateKeys(text: string): { text: string; count: number; unterminated: boolean } {
  const beginAfter = (index: number) => {
    PRIVATE_KEY_BEGIN.lastIndex = index;
    return PRIVATE_KEY_BEGIN.exec(text);
  };
  const endAfter = (index: number) => {
    PRIVATE_KEY_END.lastIndex = index;
    return PRIVATE_KEY_END.exec(text);
  };
  let out = '';
  let from = 0;
  let count = 0;
  const first = beginAfter(0);
  const lone = endAfter(0);
  if (lone && (!first || lone.index < first.index)) {
    out = redactionMarkers.credential;
    from = lone.index + lone[0].length;
    count = 1;
  }
  for (;;) {
    const begin = beginAfter(from);
    if (!begin) return { text: out + text.slice(from), count, unterminated: false };
    out += text.slice(from, begin.index) + redactionMarkers.credential;
    count += 1;
    const end = endAfter(begin.index + begin[0].length);
    if (!end) return { text: out, count, unterminated: true };
    from = end.index + end[0].length;
  }
}

// ---- helpers -------------------------------------------------------------------------

function refuse(field: string, code: RefusalCode, reason: string): Refusal {
  return { ok: false, field, code, reason };
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}
