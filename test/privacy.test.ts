import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EventTextInput,
  privacyLimits,
  redactionMarkers,
  redactSecrets,
  screenEvent,
} from '../src/core/privacy.ts';
import { generateToken } from '../src/registry/tokens.ts';
import {
  createGoal,
  driver,
  issueCredential,
  openTestDatabase,
  registerAgent,
  registerProvider,
  startTestGateway,
  type TestGateway,
} from './support/harness.ts';

// Secrets are assembled at run time so the repository holds nothing a scanner would flag,
// and so each test can assert that the exact value is gone.
const ALNUM = 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const repeatTo = (length: number, source = ALNUM) =>
  source.repeat(Math.ceil(length / source.length)).slice(0, length);
const b64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');

const secrets = {
  sb: generateToken(),
  openai: `sk-proj-${repeatTo(48)}`,
  anthropic: `sk-ant-api03-${repeatTo(40)}`,
  ghp: `ghp_${repeatTo(36)}`,
  githubPat: `github_pat_11ABCDEFG0_${repeatTo(59)}`,
  slack: `xoxb-1234567890-0987654321-${repeatTo(24)}`,
  akia: `AKIA${repeatTo(16, 'IOSFODNN7EXAMPL3')}`,
  asia: `ASIA${repeatTo(16, 'Z7Q2WX4LMN8P0RTV')}`,
  jwt: `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'agent-7', exp: 1893456000 })}.${repeatTo(43)}`,
  opaque: repeatTo(32),
  password: 'hunter2-Correct!Horse',
};

function ecKey(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
}

const event = (summary: string, more: Partial<EventTextInput> = {}): EventTextInput => ({
  summary,
  evidenceRefs: [],
  ...more,
});

function screenedSummary(summary: string) {
  const result = screenEvent(event(summary));
  if (!result.ok) throw new Error(`refused: ${result.code} ${result.reason}`);
  return result;
}

function expectRefused(input: EventTextInput, field: string, code: string, reasonPart: RegExp) {
  const result = screenEvent(input);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.field).toBe(field);
  expect(result.code).toBe(code);
  expect(result.reason).toMatch(reasonPart);
  return result;
}

describe('credentials are redacted', () => {
  const key = ecKey();
  const cases: { name: string; summary: string; gone: string[]; count: number }[] = [
    {
      name: 'bearer token in a curl command',
      summary: `Reproduced with curl -H "Authorization: Bearer ${secrets.opaque}" against staging.`,
      gone: [secrets.opaque],
      count: 1,
    },
    {
      name: 'bare Bearer token',
      summary: `Webhook retried with Bearer ${secrets.opaque} and got 401 twice.`,
      gone: [secrets.opaque],
      count: 1,
    },
    {
      name: 'OpenAI and Anthropic keys',
      summary: `Swapped ${secrets.openai} for ${secrets.anthropic} in the eval runner config.`,
      gone: [secrets.openai, secrets.anthropic],
      count: 2,
    },
    {
      name: 'GitHub classic and fine-grained tokens',
      summary: `CI push failed: ${secrets.ghp} expired, replaced by ${secrets.githubPat} scoped to the repo.`,
      gone: [secrets.ghp, secrets.githubPat],
      count: 2,
    },
    {
      name: 'Slack bot token',
      summary: `Notifier now posts to #deploys using ${secrets.slack} from the vault.`,
      gone: [secrets.slack],
      count: 1,
    },
    {
      name: 'AWS access key ids, long-lived and temporary',
      summary: `S3 upload used ${secrets.akia}; the STS session used ${secrets.asia}.`,
      gone: [secrets.akia, secrets.asia],
      count: 2,
    },
    {
      name: 'generic api_key / X-Api-Key pairs',
      summary: `Geocoder called with api_key=${secrets.opaque.slice(0, 24)} and header X-Api-Key: ${secrets.opaque.slice(8)} both rejected.`,
      gone: [secrets.opaque.slice(0, 24), secrets.opaque.slice(8)],
      count: 2,
    },
    {
      name: 'private key block, keeping the text around it',
      summary: `Deploy key rotated; old one was\n${key}\nand is revoked.`,
      gone: [key.split('\n')[1]!, 'PRIVATE KEY'],
      count: 1,
    },
    {
      name: 'password, passwd, secret and token pairs keep their keys',
      summary: `Connection now works: password=${secrets.password} passwd: letmein99 client_secret="${secrets.opaque}" GITLAB_TOKEN=${secrets.opaque.slice(4)}`,
      gone: [secrets.password, 'letmein99', secrets.opaque, secrets.opaque.slice(4)],
      count: 4,
    },
    {
      name: 'command-line flags with a space before the value',
      summary: `Reproduced with mysql -u app --password ${secrets.password} and tool --api-key ${secrets.opaque} locally.`,
      gone: [secrets.password, secrets.opaque],
      count: 2,
    },
    {
      name: 'JSON-style secret pairs',
      summary: `Config fixed: {"db_password": "${secrets.password}", "pool": 4} loads now.`,
      gone: [secrets.password],
      count: 1,
    },
    {
      name: 'JWT',
      summary: `Session cookie held ${secrets.jwt} which decoded to agent-7; expiry check was off by one.`,
      gone: [secrets.jwt, secrets.jwt.split('.')[2]!],
      count: 1,
    },
    {
      name: "Switchboard's own token",
      summary: `Peer credential ${secrets.sb} was issued to builder and is now revoked.`,
      gone: [secrets.sb, secrets.sb.slice(3)],
      count: 1,
    },
    {
      name: 'password in a connection URL',
      summary: `Migration ran against postgres://app:${secrets.password}@db.internal:5432/main cleanly.`,
      gone: [secrets.password],
      count: 1,
    },
  ];

  it.each(cases)('$name', ({ summary, gone, count }) => {
    const { value, boundary } = screenedSummary(summary);
    for (const secret of gone) expect(value.summary).not.toContain(secret);
    expect(value.summary).toContain(redactionMarkers.credential);
    expect(boundary).toEqual({
      rawLogsRecorded: false,
      rawTrajectoryRecorded: false,
      credentialValuesRecorded: false,
      absolutePathsRecorded: false,
      redactionCount: count,
    });
    expect(screenEvent(event(value.summary))).toMatchObject({ ok: true, value });
  });

  it('keeps the key and the surrounding text readable', () => {
    const { value } = screenedSummary(
      `Fixed login: password=${secrets.password} was read from the wrong env.`,
    );
    expect(value.summary).toBe(
      'Fixed login: password=[redacted:credential] was read from the wrong env.',
    );
    const header = screenedSummary(
      `Reproduced with curl -H "Authorization: Bearer ${secrets.opaque}" against staging.`,
    );
    expect(header.value.summary).toBe(
      'Reproduced with curl -H "Authorization: Bearer [redacted:credential]" against staging.',
    );
    // Other schemes may carry several secrets after the scheme: the rest of the line goes.
    const digest = screenedSummary(
      `Proxy sent Authorization: Digest username="bot", nonce="${secrets.opaque}", response="${secrets.password}"\nwhich the gateway rejected.`,
    );
    expect(digest.value.summary).toBe(
      'Proxy sent Authorization: [redacted:credential]\nwhich the gateway rejected.',
    );
  });

  it('refuses credentials in status and classification, which fit the token alphabet', () => {
    expectRefused(
      event('Issued a peer token.', { status: secrets.sb }),
      'status',
      'CREDENTIAL',
      /credential/,
    );
    expectRefused(
      event('Uploaded artifacts.', { classification: secrets.akia }),
      'classification',
      'CREDENTIAL',
      /credential/,
    );
  });
});

describe('absolute local paths are redacted', () => {
  const cases: { name: string; summary: string; gone: string[]; count: number }[] = [
    {
      name: 'Linux home and root homes',
      summary:
        'Cache was written to /home/alice/.cache/switchboard/db and /root/.npm/_logs instead.',
      gone: ['alice', '/home/', '/root/', '.npm'],
      count: 2,
    },
    {
      name: 'macOS home with a line number',
      summary: 'Type error at /Users/bob.smith/code/switchboard/src/ledger/privacy.ts:42:7 fixed.',
      gone: ['bob.smith', '/Users/'],
      count: 1,
    },
    {
      name: 'system roots, including single-segment ones',
      summary: 'Socket moved from /var/run/pg.sock to /tmp; config stays in /etc/switchboard.conf.',
      gone: ['/var/', '/tmp', '/etc/', 'pg.sock'],
      count: 3,
    },
    {
      name: 'Windows drive paths with either slash',
      summary: 'Build on Windows reads C:\\Users\\carol\\AppData\\Local\\sb and D:/builds/sb/out.',
      gone: ['carol', 'C:\\', 'D:/', 'AppData'],
      count: 2,
    },
    {
      name: 'file URLs',
      summary: 'Report opened from file:///home/dave/report.html in the browser.',
      gone: ['dave', 'file:'],
      count: 1,
    },
    {
      name: 'home-relative and UNC paths',
      summary: 'Key was at ~/.ssh/id_ed25519, share at \\\\fileserver\\team\\notes ok.',
      gone: ['.ssh', 'id_ed25519', 'fileserver'],
      count: 2,
    },
    {
      name: 'unknown roots with two or more segments',
      summary: 'Worktree is /work/wt-privacy and the runner mounted /builds/org/repo (read-only).',
      gone: ['/work/', 'wt-privacy', '/builds/', 'org/repo'],
      count: 2,
    },
  ];

  it.each(cases)('$name', ({ summary, gone, count }) => {
    const { value, boundary } = screenedSummary(summary);
    for (const fragment of gone) expect(value.summary).not.toContain(fragment);
    expect(value.summary).toContain(redactionMarkers.path);
    expect(boundary.redactionCount).toBe(count);
    expect(boundary.absolutePathsRecorded).toBe(false);
    expect(screenEvent(event(value.summary))).toMatchObject({ ok: true, value });
  });

  it('keeps sentence punctuation outside the marker', () => {
    expect(screenedSummary('Logs went to /tmp/sb/run.log.').value.summary).toBe(
      'Logs went to [redacted:path].',
    );
  });
});

describe('summaries that are raw logs or trajectories are refused', () => {
  it('refuses a summary over the character limit, naming the limit', () => {
    const long = `Refactored the ledger. ${'Lots of detail. '.repeat(40)}`;
    expect(long.trim().length).toBeGreaterThan(privacyLimits.summaryChars);
    expectRefused(event(long), 'summary', 'OVER_LIMIT', /at most 500 characters/);
  });

  it('measures after trimming, so padding does not count', () => {
    const exact = 'x'.repeat(privacyLimits.summaryChars);
    expect(screenedSummary(`  \n${exact}\n  `).value.summary).toBe(exact);
  });

  it('refuses a summary over the line limit', () => {
    const lines = Array.from({ length: 9 }, (_, i) => `step ${i + 1} done`).join('\n');
    expectRefused(event(lines), 'summary', 'OVER_LIMIT', /at most 8 lines/);
  });

  it.each([
    {
      name: 'timestamped log lines',
      text: '2026-07-05T10:00:01Z starting worker\n2026-07-05T10:00:02Z connected\n2026-07-05T10:00:09Z job 42 failed',
      code: 'RAW_LOG',
    },
    {
      name: 'timestamps flattened onto one line',
      text: '[10:00:01] start [10:00:02] connect [10:00:09] failed: timeout',
      code: 'RAW_LOG',
    },
    {
      name: 'log-level lines',
      text: 'INFO server listening\nWARN slow query (812ms)\nERROR connection reset by peer',
      code: 'RAW_LOG',
    },
    {
      name: 'a JavaScript stack trace',
      text: "TypeError: Cannot read properties of undefined (reading 'id')\n    at recordEvent (src/ledger/ledger.ts:88:17)\n    at async Promise.all (index 0)\n    at handler (src/server.ts:120:5)",
      code: 'RAW_LOG',
    },
    {
      name: 'a Python traceback',
      text: 'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\nKeyError: \'x\'',
      code: 'RAW_LOG',
    },
    {
      name: 'terminal output with ANSI colours',
      text: '\u001b[32m✓\u001b[0m 12 tests passed',
      code: 'RAW_LOG',
    },
    {
      name: 'a JSON chat transcript',
      text: '[{"role":"user","content":"fix the test"},{"role":"assistant","content":"Done."}]',
      code: 'RAW_TRAJECTORY',
    },
    {
      name: 'a role-labelled transcript',
      text: 'User: please fix the flaky test\nAssistant: I will rerun it with --retry 0',
      code: 'RAW_TRAJECTORY',
    },
  ])('refuses $name', ({ text, code }) => {
    const refused = expectRefused(event(text), 'summary', code, /summary looks like/);
    for (const line of text.split('\n')) expect(refused?.reason).not.toContain(line.trim());
  });
});

describe('where redaction cannot make the input safe, it is refused', () => {
  it('refuses an unterminated private key', () => {
    const cut = ecKey().split('\n').slice(0, -1).join('\n');
    const refused = expectRefused(
      event(`Key for deploy:\n${cut}`),
      'summary',
      'UNREDACTABLE',
      /private key/,
    );
    expect(refused?.reason).not.toContain(cut.split('\n')[1]!);
  });

  it('refuses a summary that is mostly credentials', () => {
    expectRefused(
      event(`AWS_ACCESS_KEY_ID=${secrets.akia} AWS_SECRET_ACCESS_KEY=${secrets.opaque}`),
      'summary',
      'UNREDACTABLE',
      /mostly credentials/,
    );
    expectRefused(event(`token=${secrets.opaque}`), 'summary', 'UNREDACTABLE', /mostly/);
  });

  it('refuses an empty summary', () => {
    expectRefused(event('   \n '), 'summary', 'EMPTY', /must not be empty/);
  });
});

describe('evidence refs must be relative', () => {
  const refs = (evidenceRefs: string[]) => event('Checked the refs.', { evidenceRefs });

  it.each([
    '/home/alice/switchboard/src/a.ts',
    '/graphql',
    '\\\\server\\share\\a.txt',
    'C:\\Users\\carol\\a.ts',
    'd:/builds/out.log',
    '~/notes.md',
    'file:///tmp/report.html',
    'FILE:relative/but/file/scheme',
  ])('refuses the absolute ref %s, never redacting it', (ref) => {
    expectRefused(refs(['docs/ok.md', ref]), 'evidenceRefs', 'NOT_RELATIVE', /evidenceRefs\[1\]/);
  });

  it.each(['../secrets.env', 'docs/../../etc/passwd', 'a/%2e%2e/%2E%2E/b', 'src\\..\\..\\x'])(
    'refuses %s, which climbs above its root',
    (ref) => {
      expectRefused(refs([ref]), 'evidenceRefs', 'NOT_RELATIVE', /'\.\.'/);
    },
  );

  it('refuses refs that hold credentials, without quoting them', () => {
    for (const ref of [
      `https://ci.example.com/artifacts/7?token=${secrets.opaque}`,
      `https://bot:${secrets.password}@git.example.com/org/repo.git`,
      `notes/${secrets.ghp}.md`,
    ]) {
      const refused = expectRefused(refs([ref]), 'evidenceRefs', 'CREDENTIAL', /credential/);
      expect(refused?.reason).not.toContain(secrets.opaque);
    }
  });

  it('bounds the number and the length of refs', () => {
    const many = Array.from({ length: privacyLimits.refs + 1 }, (_, i) => `docs/${i}.md`);
    expectRefused(refs(many), 'evidenceRefs', 'OVER_LIMIT', /at most 20 refs/);
    expectRefused(
      refs([`docs/${'x'.repeat(privacyLimits.refChars)}.md`]),
      'evidenceRefs',
      'OVER_LIMIT',
      /at most 300 characters/,
    );
    expectRefused(refs(['  ']), 'evidenceRefs', 'EMPTY', /must not be empty/);
  });

  it('accepts relative paths, in-tree dot segments and web URLs', () => {
    const ok = [
      'src/ledger/privacy.ts',
      './test/privacy.test.ts:12',
      'docs/a/../b.md',
      'https://github.com/org/switchboard/pull/12',
      'https://example.com/home/user/../x?page=2#token_count',
    ];
    const result = screenEvent(refs(ok));
    expect(result.ok && result.value.evidenceRefs).toEqual(ok);
  });
});

describe('status and classification are short tokens', () => {
  it.each([
    ['status', 'in progress'],
    ['status', ''],
    ['classification', 'x'.repeat(privacyLimits.tokenChars + 1)],
    ['classification', 'impl/batch'],
  ] as const)('refuses %s %j', (field, value) => {
    expectRefused(event('Done.', { [field]: value }), field, 'NOT_A_TOKEN', /at most|1 to 64/);
  });

  it('accepts tokens and treats missing as null', () => {
    const result = screenEvent(
      event('Done.', { status: 'open', classification: 'implementation_batch:v0.1-rc' }),
    );
    expect(result.ok && result.value).toMatchObject({
      status: 'open',
      classification: 'implementation_batch:v0.1-rc',
    });
    const bare = screenEvent(event('Done.'));
    expect(bare.ok && bare.value).toMatchObject({ status: null, classification: null });
  });
});

describe('benign text passes unchanged', () => {
  it.each([
    'Split src/ledger/privacy.ts out of src/ledger/ledger.ts; see docs/ledger.md and ./README.md.',
    'Compared against https://example.com/x/y?page=2 and http://localhost:4000/graphql.',
    'Raised token_count to 4096 (max_tokens=4096, tokens_used: 812) after the tokenizer change.',
    'The password reset flow now sends one email; the word secret appears only in docs.',
    'Validation passed at 2026-07-05T10:00:00Z on the second attempt.',
    'Outage from 2026-07-05 10:00 to 11:30:00 UTC; two timestamps are still a summary.',
    'POST /graphql and /healthz return 200; the /review command is documented.',
    'Bearer tokens are hashed before storage; bearer authentication unchanged.',
    'Error handling was refactored\nInfo panels now load lazily\nWarning banners removed',
    'if (password == confirm) is now checked in Token::parse, and/or 1/2 of cases.',
  ])('%s', (summary) => {
    const { value, boundary } = screenedSummary(summary);
    expect(value.summary).toBe(summary);
    expect(boundary.redactionCount).toBe(0);
  });
});

describe('idempotence', () => {
  const inputs = [
    `Fixed login: password=${secrets.password} via Authorization: Bearer ${secrets.jwt}`,
    `Rotated ${secrets.sb} and ${secrets.ghp}; cache at /home/alice/.cache/sb, C:\\Users\\carol\\x.`,
    `Key was\n${ecKey()}\nnow in the vault; "api_key": "${secrets.opaque}" removed from /etc/sb.conf.`,
    `DB at postgres://app:${secrets.password}@db:5432/x; logs in ~/logs/sb and file:///tmp/a.`,
  ];

  it.each(inputs)('screening the output again changes nothing (%#)', (summary) => {
    const first = screenedSummary(summary);
    expect(first.boundary.redactionCount).toBeGreaterThan(0);
    const second = screenEvent({ ...first.value });
    expect(second).toEqual({
      ok: true,
      value: first.value,
      boundary: { ...first.boundary, redactionCount: 0 },
    });
  });
});

describe('redactSecrets, for previews of bodies', () => {
  it('redacts credentials and paths in a long multi-line body and counts them', () => {
    const body = [
      'Hi builder, please retry the deploy.',
      `export GITHUB_TOKEN=${secrets.ghp}`,
      `curl -H "Authorization: Bearer ${secrets.sb}" https://api.example.com/v1/deploy`,
      'The log is at /var/log/deploy/2026-07-05.log and the key is below.',
      ecKey(),
      ...Array.from({ length: 20 }, (_, i) => `line ${i} of context`),
    ].join('\n');
    const { text, count } = redactSecrets(body);
    for (const secret of [secrets.ghp, secrets.sb, '/var/log', 'PRIVATE KEY']) {
      expect(text).not.toContain(secret);
    }
    expect(count).toBe(4);
    expect(text).toContain('https://api.example.com/v1/deploy');
    expect(redactSecrets(text)).toEqual({ text, count: 0 });
  });

  it('stays linear on large adversarial bodies', () => {
    // Each of these made an earlier version rescan the rest of the text from every start.
    const size = 200_000;
    const started = performance.now();
    for (const unit of [
      'eyJ-',
      'glpat-',
      'a.',
      'a-',
      '-----BEGIN PRIVATE KEY-----\n',
      ' ~a/',
      '-----END PRIVATE KEY-----\n',
      'a',
      'mysql -p ',
      '$HOME/',
    ]) {
      redactSecrets(unit.repeat(size / unit.length));
    }
    redactSecrets(`the password is${' '.repeat(size)}"`);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('redacts an unterminated private key to the end instead of refusing', () => {
    const cut = ecKey().split('\n').slice(0, 3).join('\n');
    const { text, count } = redactSecrets(`Here it is:\n${cut}`);
    expect(text).toBe(`Here it is:\n${redactionMarkers.credential}`);
    expect(count).toBe(1);
  });
});

describe('shapes the redactor once missed', () => {
  const cases: [string, string, string][] = [
    ['secret_key=', 'config secret_key=Zx81kQ2m in the env', 'Zx81kQ2m'],
    ['sk=', 'called with sk=abc123xyz789 today', 'abc123xyz789'],
    ['a short GitHub OAuth token', 'token gho_16charsXYZabcd90 leaked', 'gho_16charsXYZabcd90'],
    ['a GitHub server token', 'ghs_ABCDEFGHIJ0123456789 rotated', 'ghs_ABCDEFGHIJ0123456789'],
    ['a PyPI token', 'upload with pypi-AgEIcHlwaS5vcmcCJDAw done', 'pypi-AgEIcHlwaS5vcmcCJDAw'],
    [
      'a bare Basic credential',
      'sent Basic dXNlcjpwYXNzd29yZA== to the proxy',
      'dXNlcjpwYXNzd29yZA==',
    ],
    [
      'an Azure AccountKey',
      'DefaultEndpointsProtocol=https;AccountKey=q1w2e3r4t5==;',
      'q1w2e3r4t5',
    ],
    [
      'a Slack webhook URL',
      'posted to https://hooks.slack.com/services/T000/B000/XXXXXXXX ok',
      'hooks.slack.com/services/T000',
    ],
    ['a path climbing into a home folder', 'see ../../home/alice/notes.txt', 'alice'],
    ['a URL-encoded absolute path', 'opened %2Fhome%2Falice%2Fsecret.txt', 'alice'],
    ['a MySQL password glued to -p', 'ran mysql -uroot -pS3cr3t-pw -h db.internal', 'S3cr3t-pw'],
    ['a mysqldump password glued to -p', 'mysqldump --user=app -phunter2 shop > x.sql', 'hunter2'],
    ['a path under $HOME', 'machine creds in $HOME/.netrc were stale', '.netrc'],
    ['a path under the braced HOME', `copied \${HOME}/.aws/credentials over`, '.aws'],
    ['a path under %USERPROFILE%', 'found %USERPROFILE%\\.ssh\\id_rsa again', 'id_rsa'],
    ['a path under $env:APPDATA', 'gh reads $env:APPDATA\\GitHub CLI\\hosts.yml', 'GitHub'],
    ["a service account's private_key_id", `"private_key_id": "${'3f9a'.repeat(10)}",`, '3f9a3f9a'],
    ['a bare 64-hex key', `HMAC key ${'c0ffee42'.repeat(8)} set`, 'c0ffee42'],
    ['a 64-hex key in a variable', `ENCRYPTION_KEY=${'ab12'.repeat(16)}`, 'ab12ab12'],
    ['a password told in words', 'the password is hunter2 for staging', 'hunter2'],
    ['a quoted passphrase told in words', "passphrase was 'correct horse battery'", 'horse'],
    ['a password after "is:"', 'Password is: Tr0ub4dor&3 now', 'Tr0ub4dor'],
  ];
  for (const [what, text, secret] of cases) {
    it(`redacts ${what}`, () => {
      const { text: redacted, count } = redactSecrets(text);
      expect(redacted).not.toContain(secret);
      expect(count).toBeGreaterThan(0);
    });
  }

  it('leaves look-alikes alone', () => {
    for (const text of [
      'task=refactor the parser',
      'basic usage of the CLI',
      'see ../docs/guide.md',
      // -p is not a MySQL password outside a MySQL client, nor with a space after it
      'mkdir -p build && cp -pr a b && ssh -p2222 host && docker run -p8080:80 app',
      'mysql -p shop (asks for the password), mysql -P3306 -h db',
      // variables that name no home folder
      'built in $PWD/dist with $HOMEBREW_PREFIX/bin on the PATH',
      // digests and git object ids: what the product itself shows
      `commit ${'1a2b3c4d5e'.repeat(4)} is on main`,
      `evidence-log digest sha256:${'9f2c'.repeat(16)}`,
      `image sha512:${'ab'.repeat(64)} pulled; hook sha256=${'cd'.repeat(32)} verified`,
      // prose about passwords
      'the password is required; the password was rotated; password is not set',
    ]) {
      expect(redactSecrets(text)).toEqual({ text, count: 0 });
    }
  });

  it('redacts a private key whose start is before the text (an excerpt that begins inside it)', () => {
    const lines = ecKey().split('\n');
    const { text, count } = redactSecrets([...lines.slice(2), 'key written', 'done'].join('\n'));
    expect(text).toBe(`${redactionMarkers.credential}\nkey written\ndone`);
    expect(count).toBe(1);
  });

  it("redacts a service account's key file whole", () => {
    const key = ecKey();
    const json = JSON.stringify({
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: `${key}\n`,
      client_email: 'deployer@demo-project.iam.gserviceaccount.com',
      client_id: '109876543210987654321',
    });
    const { text, count } = redactSecrets(json);
    expect(text).not.toContain(JSON.parse(json).private_key_id);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(key.split('\n')[1]!.slice(0, 20));
    expect(text).toContain('deployer@demo-project.iam.gserviceaccount.com');
    expect(count).toBe(2);
  });
});

describe('bidi controls are refused in summaries and refs', () => {
  const BIDI = ['061C', '200E', '200F', '202A', '202B', '202C', '202D', '202E'];
  const ISOLATES = ['2066', '2067', '2068', '2069'];

  it.each([...BIDI, ...ISOLATES])('refuses U+%s in a summary and in a ref', (code) => {
    const char = String.fromCodePoint(Number.parseInt(code, 16));
    expectRefused(event(`approved ${char}evil`), 'summary', 'BIDI_CONTROL', /bidi/);
    expectRefused(
      event('Checked.', { evidenceRefs: [`docs/${char}gpj.exe`] }),
      'evidenceRefs',
      'BIDI_CONTROL',
      /evidenceRefs\[0\].*bidi/,
    );
  });

  it('accepts right-to-left text itself, without controls', () => {
    expect(
      screenedSummary('Reviewed the Hebrew (עברית) and Arabic (العربية) strings.'),
    ).toBeTruthy();
  });
});

describe(`observations pass the privacy screen before they are stored (${driver})`, () => {
  let t: TestGateway;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await openTestDatabase();
    t = await startTestGateway(database);
    close = async () => {
      await t.stop();
      await database.close();
    };
  });
  afterAll(async () => {
    await close?.();
  });

  const OBSERVE = `query($goalId: ID!, $agentId: ID!) {
    observe(goalId: $goalId, agentId: $agentId, source: RECENT, lines: 50) {
      __typename ... on Observation { lines redactionCount }
    }
  }`;

  it('a PEER of the goal reads every planted credential shape and local path redacted, and the rest as it was', async () => {
    const goalId = await createGoal(t);
    const observed = await registerAgent(t, goalId);
    const reader = await registerAgent(t, goalId);
    const peer = await issueCredential(t, { kind: 'PEER', goalId, agentId: reader });
    const provider = await registerProvider(t, [goalId]);
    const key = ecKey();
    const planted: [line: (secret: string) => string, secret: string][] = [
      [(s) => `claude> using ${s} for the eval`, secrets.anthropic],
      [(s) => `$ export OPENAI_API_KEY=${s}`, secrets.opaque],
      [(s) => `remote: glab auth with ${s}`, `glpat-${repeatTo(20)}`],
      [(s) => `openai key ${s}`, secrets.openai],
      [(s) => `stripe ${s} live`, `sk_live_${repeatTo(24)}`],
      [(s) => `git push with ${s}`, secrets.ghp],
      [(s) => `token ${s} scoped`, secrets.githubPat],
      [(s) => `slack ${s}`, secrets.slack],
      [(s) => `aws ${s}`, secrets.akia],
      [(s) => `sts ${s}`, secrets.asia],
      [(s) => `maps ${s}`, `AIza${repeatTo(35)}`],
      [(s) => `twine upload -u __token__ ${s}`, `pypi-${repeatTo(40)}`],
      [(s) => `posting to ${s}`, `https://hooks.slack.com/services/T0A1/B2C3/${repeatTo(24)}`],
      [(s) => `npm publish with ${s}`, `npm_${repeatTo(36)}`],
      [(s) => `huggingface ${s}`, `hf_${repeatTo(34)}`],
      [(s) => `switchboard token ${s}`, secrets.sb],
      [(s) => `cookie ${s}`, secrets.jwt],
      [(s) => `$ curl -H "Authorization: Bearer ${s}" https://api.example.com/v1`, repeatTo(40)],
      [(s) => `proxy sent Basic ${s}`, 'dXNlcjpwYXNzd29yZA=='],
      [(s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/main`, 'Zq9-pw-4815'],
      [(s) => `$ deploy --password ${s}`, secrets.password],
      [(s) => `$ mysql -uroot -p${s} shop`, 'S3cr3tMy5ql'],
      [(s) => `  "private_key_id": "${s}",`, randomBytes(20).toString('hex')],
      [(s) => `HMAC signing key ${s}`, randomBytes(32).toString('hex')],
      [(s) => `the staging password is ${s}`, 'Hunter2-staging'],
      [(s) => `client_secret="${s}"`, `cs-${repeatTo(30)}`],
      [(s) => `$ cat $HOME/${s}`, '.netrc'],
      [(s) => `type %USERPROFILE%\\.aws\\${s}`, 'credentials'],
      [(s) => `ssh -i /home/alice/.ssh/${s}`, 'id_ed25519'],
      [(s) => `${s}`, key],
    ];
    const ordinary = [
      `$ git log -1 --format=%H`,
      '1a2b3c4d5e'.repeat(4),
      `digest sha256:${'9f2c'.repeat(16)}`,
      '$ mkdir -p build && npm test',
      'ok 12 tests passed',
    ];
    const lines = [...planted.flatMap(([line, secret]) => line(secret).split('\n')), ...ordinary];
    expect(planted.length).toBeGreaterThanOrEqual(23);
    expect(lines.length).toBeLessThanOrEqual(50);
    const stored = await t.ok(
      `mutation($input: ReportObservationInput!) { reportObservation(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          agentId: observed,
          source: 'RECENT',
          lines,
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    expect(stored.reportObservation.__typename).toBe('PresenceAccepted');

    const { observe } = await t.ok(OBSERVE, { goalId, agentId: observed }, peer.token);
    expect(observe.__typename).toBe('Observation');
    const shown = observe.lines.join('\n');
    for (const [, secret] of planted)
      for (const part of secret.split('\n')) expect(shown).not.toContain(part);
    expect(observe.lines.slice(-ordinary.length)).toEqual(ordinary);
    expect(observe.redactionCount).toBe(planted.length);
    expect(observe.lines[1]).toBe('$ export OPENAI_API_KEY=[redacted:credential]');
    expect(observe.lines[21]).toBe('$ mysql -uroot -p[redacted:credential] shop');
  });

  it('a delivery body keeps its escapes and bidi controls for its recipient; its preview holds none', async () => {
    const goalId = await createGoal(t);
    const [from, to] = [await registerAgent(t, goalId), await registerAgent(t, goalId)];
    const sender = await issueCredential(t, { kind: 'PEER', goalId, agentId: from });
    const recipient = await issueCredential(t, { kind: 'PEER', goalId, agentId: to });
    const body = 'see\x1b[2J below:\n\u202Eevil\u202C and\x9b31m red';
    const { deliver } = await t.ok(
      `mutation($input: DeliverInput!) { deliver(input: $input) { __typename ... on Delivery { bodyPreview } } }`,
      { input: { goalId, to, kind: 'REQUEST', subject: 'review', body, idempotencyKey: 'k1' } },
      sender.token,
    );
    expect(deliver).toEqual({
      __typename: 'Delivery',
      bodyPreview: 'see [2J below: evil and 31m red',
    });
    const { inbox } = await t.ok(
      `query($goalId: ID!) { inbox(goalId: $goalId) { ... on Inbox { messages { body } } } }`,
      { goalId },
      recipient.token,
    );
    expect(inbox.messages[0].body).toBe(body);
  });

  it('an excerpt that begins inside a private key shows none of it', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const provider = await registerProvider(t, [goalId]);
    const keyLines = ecKey().split('\n');
    await t.ok(
      `mutation($input: ReportObservationInput!) { reportObservation(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          agentId,
          source: 'RECENT',
          lines: [...keyLines.slice(1), '$ ls'],
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    const { observe } = await t.ok(OBSERVE, { goalId, agentId });
    expect(observe).toEqual({
      __typename: 'Observation',
      lines: [redactionMarkers.credential, '$ ls'],
      redactionCount: 1,
    });
  });
});
