/**
 * Text other callers wrote is inert where the CLI prints it: the escaping of src/cli/output.ts
 * over every range of control characters, and the `switchboard` binary (a subprocess against
 * a real gateway) printing bodies, excerpts, summaries and fields planted with escapes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inert, inertAll, json } from '../src/cli/output.ts';
import { asCaller, registerProvider, runCli, startGateway, team } from './support/cli.ts';

const char = (code: number) => String.fromCodePoint(code);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const C0 = range(0x00, 0x1f).filter((c) => c !== 0x09 && c !== 0x0a);
const C1 = range(0x80, 0x9f);
const BIDI = [0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];
const SEPARATORS = [0x2028, 0x2029];
const ESCAPED = new Set([...C0, 0x7f, ...C1, ...BIDI, ...SEPARATORS]);

// Anything a terminal would act on, in output that should hold none: C0 but line feed, DEL,
// C1, bidi controls and the line separators.
const RAW_CONTROL = /[^\P{Cc}\n]|[\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

describe('inert', () => {
  it('shows each C0 control but tab and line feed, DEL and each C1 control as \\xHH', () => {
    for (const code of [...C0, 0x7f, ...C1])
      expect(inert(`a${char(code)}b`)).toBe(`a\\x${code.toString(16).padStart(2, '0')}b`);
    expect(inert('\x1b]2;title\x07\x1b[2J\x1b[6n')).toBe('\\x1b]2;title\\x07\\x1b[2J\\x1b[6n');
  });

  it('keeps tab and line feed; CR LF becomes a line feed, a CR alone is shown', () => {
    expect(inert('a\tb\nc')).toBe('a\tb\nc');
    expect(inert('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(inert('progress 10%\rprogress 99%')).toBe('progress 10%\\x0dprogress 99%');
    expect(inert('\r\r\n')).toBe('\\x0d\n');
  });

  it('shows bidi controls and the Unicode line and paragraph separators as \\uXXXX', () => {
    for (const code of [...BIDI, ...SEPARATORS])
      expect(inert(`a${char(code)}b`)).toBe(`a\\u${code.toString(16).padStart(4, '0')}b`);
  });

  it('escapes exactly those characters in the whole Basic Multilingual Plane', () => {
    const escaped: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // surrogates are not characters
      const shown = inert(char(code));
      if (shown === char(code)) continue;
      expect(shown).toMatch(/^\\(x[0-9a-f]{2}|u[0-9a-f]{4})$/);
      escaped.push(code);
    }
    expect(escaped).toEqual([...ESCAPED].sort((a, b) => a - b));
  });

  it('leaves ordinary text as written: accents, scripts, emoji with joiners, backslashes', () => {
    for (const text of [
      'merged #12 into main: 3 files, 40 lines (+30 −10)',
      'café, naïve, Ελληνικά, русский, 日本語, עברית, العربية',
      'pair: 👩‍💻 (zero-width joiner), flag 🇫🇷, combining é',
      String.raw`C:\Users\dev and \x1b typed as text`,
    ])
      expect(inert(text)).toBe(text);
  });

  it('inertAll escapes every string of a packet and leaves the rest and the original alone', () => {
    const packet = {
      __typename: 'TakenMessage',
      repeated: false,
      seq: 3,
      readAt: null,
      message: { subject: 'hi\x1b[2J', lines: ['ok', '\x9b1m', { deep: '\u202e' }] },
    };
    expect(inertAll(packet)).toEqual({
      __typename: 'TakenMessage',
      repeated: false,
      seq: 3,
      readAt: null,
      message: { subject: 'hi\\x1b[2J', lines: ['ok', '\\x9b1m', { deep: '\\u202e' }] },
    });
    expect(packet.message.subject).toBe('hi\x1b[2J');
  });
});

describe('json', () => {
  it('parses back to the same value and holds no raw control, bidi or separator character', () => {
    const every = range(0, 0x3000)
      .filter((c) => c < 0xd800)
      .map(char)
      .join('');
    const value = { every, nested: [every, { every }], n: 1, none: null };
    const text = json(value, 2);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\u2028');
  });

  it('writes what JSON.stringify writes when there is nothing to escape', () => {
    const value = { a: 'plain "quoted" \\ text\n', b: [1, true, null], c: 'é 日本' };
    expect(json(value)).toBe(JSON.stringify(value));
    expect(json(value, 2)).toBe(JSON.stringify(value, null, 2));
  });
});

describe('the binary prints text other callers wrote inert', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  const ATTACK = '\x1b]2;pwned\x07\x1b[2J\x1b[6n\x9b31m\u202Eevil\u202C';
  const SHOWN = '\\x1b]2;pwned\\x07\\x1b[2J\\x1b[6n\\x9b31m\\u202eevil\\u202c';

  it('next, inbox and send show a body with escapes visibly; --json gives it back as sent', async () => {
    const { goalId, peers } = await team(gw.t);
    const [sender, recipient] = [peers[0]!, peers[1]!];
    const body = `line one\n${ATTACK}\r\nprogress 10%\rprogress 99%`;
    const sent = await runCli(['send', '--to', recipient.agentId, '--subject', 'escapes', '-'], {
      env: asCaller(gw.url, sender.token, goalId),
      input: body,
    });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).not.toMatch(RAW_CONTROL);

    const env = asCaller(gw.url, recipient.token, goalId);
    const next = await runCli(['next'], { env });
    expect(next.code).toBe(0);
    expect(next.stdout).not.toMatch(RAW_CONTROL);
    expect(next.stdout).toContain(`line one\n${SHOWN}\nprogress 10%\\x0dprogress 99%`);

    const taken = await runCli(['next', '--json'], { env });
    expect(taken.stdout).not.toMatch(RAW_CONTROL);
    expect(taken.json().message.body).toBe(body);
    const inbox = await runCli(['inbox', '--json'], { env });
    expect(inbox.stdout).not.toMatch(RAW_CONTROL);
    expect(inbox.json().messages[0].id).toBe(taken.json().message.id);
  });

  it('observe shows an excerpt with escapes visibly; --json gives the lines back', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const peer = peers[0]!;
    const provider = await registerProvider(gw.t, [goalId]);
    const lines = [
      '$ npm test',
      `ok ${ATTACK}`,
      '$ gh auth token',
      `ghp_${'a1B2c3D4e5'.repeat(4)}`,
    ];
    await gw.t.ok(
      `mutation($input: ReportObservationInput!) { reportObservation(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          agentId: peer.agentId,
          source: 'RECENT',
          lines,
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    const env = asCaller(gw.url, peer.token, goalId);
    const human = await runCli(['observe', peer.agentId], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    expect(human.stdout).toContain(
      `$ npm test\nok ${SHOWN}\n$ gh auth token\n[redacted:credential]`,
    );
    expect(human.stdout).toContain('advisory; 1 redaction');
    const packet = await runCli(['observe', peer.agentId, '--json'], { env });
    expect(packet.stdout).not.toMatch(RAW_CONTROL);
    expect(packet.json()).toMatchObject({
      lines: ['$ npm test', `ok ${ATTACK}`, '$ gh auth token', '[redacted:credential]'],
      redactionCount: 1,
    });
  });

  it('rows written around the gateway checks (older rows) print inert: todo, frontier, inbox, next', async () => {
    const { goalId, peers } = await team(gw.t);
    const [sender, recipient] = [peers[0]!, peers[1]!];
    const env = asCaller(gw.url, recipient.token, goalId);
    const created = await runCli(['todo', 'create', '--title', 'plain title', '--json'], { env });
    const todoId = created.json().id;
    const sent = await runCli(
      ['send', '--to', recipient.agentId, '--subject', 'plain', '--body', 'b', '--json'],
      { env: asCaller(gw.url, sender.token, goalId) },
    );
    const deliveryId = sent.json().id;
    // The gateway refuses these characters in titles and subjects: plant them in the rows.
    const { db } = gw.t.gateway.deps.database;
    await db.execute(sql`update todos set title = ${`title ${ATTACK}`}
      where goal_id = ${goalId} and id = ${todoId}`);
    await db.execute(sql`update deliveries set subject = ${`subject ${ATTACK}`}
      where id = ${deliveryId}`);

    for (const args of [['todo', 'list'], ['todo', 'show', todoId], ['frontier']]) {
      const run = await runCli(args, { env });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      expect(run.stdout, args.join(' ')).toContain(`title ${SHOWN}`);
    }
    for (const args of [['inbox'], ['next']]) {
      const run = await runCli(args, { env });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      expect(run.stdout, args.join(' ')).toContain('subject \\x1b]2;pwned');
    }
    const packet = await runCli(['todo', 'list', '--json'], { env });
    expect(packet.stdout).not.toMatch(RAW_CONTROL);
    expect(packet.json().rows[0].title).toBe(`title ${ATTACK}`);
  });

  it('evidence-log shows a carriage return in a summary visibly', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const env = asCaller(gw.url, peers[0]!.token, goalId);
    const summary = 'tests failed: 3\rtests passed: all';
    const recorded = await runCli(['record', '--kind', 'validation', '--summary', summary], {
      env,
    });
    expect(recorded.code, recorded.stderr).toBe(0);
    for (const args of [['evidence-log', '--thin'], ['evidence-log']]) {
      const log = await runCli(args, { env });
      expect(log.code, log.stderr).toBe(0);
      expect(log.stdout).not.toMatch(RAW_CONTROL);
      expect(log.stdout).toContain('tests failed: 3\\x0dtests passed: all');
    }
  });

  it('an error message quoting what the gateway answered is shown inert on stderr', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const env = asCaller(gw.url, peers[0]!.token, goalId);
    // UnknownDelivery names the id it was asked for.
    const missing = await runCli(['delivery', 'd-\x1b[2J\u202e'], { env });
    expect(missing.code).toBe(11);
    expect(missing.stderr).not.toMatch(RAW_CONTROL);
    expect(missing.stderr).toContain('no delivery d-\\x1b[2J\\u202e visible');
  });
});
