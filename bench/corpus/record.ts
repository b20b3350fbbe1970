/**
 * Records the corpus's real sessions: programs that run here (bash, less, vi, the stand-in
 * agent) in a private tmux server (160 × 48, the size `switchboard run` gives a pane), driven
 * by keystrokes as a person would type them, their output taken from control mode's %output
 * with its timing. The labels are set by the script as it drives: a step's label holds from
 * the output chunk that shows it (the echo of an Enter, a prompt coming back, the pane's
 * process dying). Writes bench/corpus/recorded-*.jsonl.
 *
 *   npx tsx bench/corpus/record.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ControlClient, tmux } from '../../src/providers/tmux/connection.ts';
import { unescapeOutput } from '../../src/providers/tmux/program-status.ts';

type Label = 'IDLE' | 'WORKING' | 'BLOCKED' | 'DONE' | 'UNKNOWN' | 'ENDED';
type Line = { at: number; data?: string; label?: Label; exit?: number };

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function record(
  name: string,
  kind: string,
  notes: string[],
  command: string[],
  drive: (r: Recorder) => Promise<void>,
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-record-'));
  const server = { socketPath: path.join(dir, 'sock') };
  // The pane's program waits for an Enter before it starts, so its first byte is recorded.
  await tmux(server, [
    ...['new-session', '-d', '-s', 'rec', '-x', '160', '-y', '48'],
    ...[
      '-e',
      `HOME=${dir}`,
      '-e',
      'PS1=dev@box:~/proj$ ',
      '-e',
      'LC_ALL=C.UTF-8',
      '-e',
      'HISTFILE=/dev/null',
    ],
    'sh',
    '-c',
    `stty -echo; read _; stty echo; cd ${dir}; exec "$@"`,
    'sh',
    ...command,
  ]);
  const pane = (await tmux(server, ['display-message', '-p', '-t', 'rec', '#{pane_id}'])).trim();
  await tmux(server, ['set-option', '-p', '-t', pane, 'remain-on-exit', 'on']);
  const r = new Recorder(server, pane, dir);
  const control = new ControlClient(server, 'rec', {
    output: (id, data) => {
      if (id === pane) r.chunk(Buffer.from(unescapeOutput(data), 'utf8'));
    },
    changed: () => {},
    exit: () => {},
  });
  await control.command('display-message -p ok');
  await tmux(server, ['send-keys', '-t', pane, 'Enter']);
  try {
    await drive(r);
    await sleep(500);
  } finally {
    control.close();
    await tmux(server, ['kill-server']).catch(() => {});
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
  const body = r.lines.map((line) => JSON.stringify(line));
  const header = [
    `// ${name}: recorded here (${new Date().toISOString().slice(0, 10)}).`,
    ...notes,
  ];
  writeFileSync(
    path.join(here, `${name}.jsonl`),
    `${[
      ...header.map((n) => (n.startsWith('//') ? n : `// ${n}`)),
      JSON.stringify({ kind }),
      ...body,
    ].join('\n')}\n`,
  );
  console.log(`${name}: ${r.lines.length} lines`);
}

class Recorder {
  readonly lines: Line[] = [];
  private start: number | undefined;
  private output = '';
  private pendingLabel: Label | undefined;
  private waiter: (() => void) | undefined;

  constructor(
    private readonly server: { socketPath: string },
    private readonly pane: string,
    readonly dir: string,
  ) {}

  private now(): number {
    this.start ??= Date.now();
    return Date.now() - this.start;
  }

  chunk(bytes: Buffer): void {
    const at = this.now();
    if (this.pendingLabel) {
      this.lines.push({ at, label: this.pendingLabel });
      this.pendingLabel = undefined;
    }
    this.lines.push({ at, data: bytes.toString('base64') });
    this.output += bytes.toString('utf8');
    this.waiter?.();
  }

  /** The label holds from the next output chunk on. */
  labelNext(label: Label): void {
    this.pendingLabel = label;
  }

  /** Waits until the output since the last wait matches; the label holds from that chunk. */
  async until(pattern: RegExp, label?: Label, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} in: ${JSON.stringify(this.output.slice(-300))}`);
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
    this.output = '';
    if (label) this.lines.push({ at: this.now(), label });
  }

  /** Types text a key at a time, as a person would. */
  async type(text: string, perKeyMs = 140): Promise<void> {
    for (const ch of text) {
      // A lone ";" would end the tmux command: escaped, it is the key.
      await tmux(this.server, ['send-keys', '-t', this.pane, '-l', ch === ';' ? '\\;' : ch]);
      await sleep(perKeyMs);
    }
  }

  async keys(...keys: string[]): Promise<void> {
    await tmux(this.server, ['send-keys', '-t', this.pane, ...keys]);
  }

  /** Enter, with the label from its echo on. */
  async enter(label?: Label): Promise<void> {
    if (label) this.labelNext(label);
    await this.keys('Enter');
  }

  /** Waits for the pane's process to die: the recording ends there (its exit code). */
  async died(): Promise<void> {
    for (;;) {
      const [dead, status] = (
        await tmux(this.server, [
          'display-message',
          '-p',
          '-t',
          this.pane,
          '#{pane_dead} #{pane_dead_status}',
        ])
      )
        .trim()
        .split(' ');
      if (dead === '1') {
        const at = this.now();
        this.lines.push({ at, label: 'ENDED' }, { at, exit: Number(status || 1) });
        return;
      }
      await sleep(20);
    }
  }

  pause = sleep;
}

const shellNotes = [
  'bash --norc (GNU bash, this machine) with PS1="dev@box:~/proj$ ", typed at by the recording script.',
  'Labels: IDLE at the first prompt and while a draft is typed; WORKING from the echo of an Enter until',
  'the prompt is back; DONE at the prompt after a command; BLOCKED at a [y/N] question (read -p).',
];

await record(
  'recorded-shell',
  'generic',
  [
    ...shellNotes,
    'Covers: a typed draft, a sub-second command (ls), a long run with output, a quiet 3 s command',
    '(sleep: nothing on screen while it runs), a question dialog answered.',
  ],
  ['bash', '--norc', '--noprofile', '-i'],
  async (r) => {
    await r.until(/\$ $/, 'IDLE');
    await r.pause(2000);
    await r.type('ls -la');
    await r.pause(800);
    await r.enter('WORKING');
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
    await r.type('for i in 1 2 3 4 5 6 7 8; do echo "building step $i/8"; sleep 0.5; done', 40);
    await r.pause(600);
    await r.enter('WORKING');
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
    await r.type('sleep 3', 120);
    await r.enter('WORKING');
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
    await r.type('read -p "Overwrite config? [y/N] " answer', 40);
    await r.enter('WORKING');
    await r.until(/\[y\/N\] $/, 'BLOCKED');
    await r.pause(3000);
    await r.type('y');
    await r.enter('WORKING');
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
  },
);

await record(
  'recorded-fullscreen',
  'generic',
  [
    ...shellNotes,
    'Covers alternate-screen programs: less (this machine) paging a file, vi (this machine) editing one.',
    'While less or vi has the terminal the label is UNKNOWN: the shell is neither at its prompt nor',
    'executing, and no question is asked; a person could name none of the four (see bench/README.md).',
  ],
  ['bash', '--norc', '--noprofile', '-i'],
  async (r) => {
    writeFileSync(path.join(r.dir, 'notes.txt'), 'first line\nsecond line\n');
    await r.until(/\$ $/, 'IDLE');
    await r.pause(2000);
    await r.type('less /etc/services', 80);
    await r.enter('UNKNOWN');
    await r.until(/\/etc\/services/);
    await r.pause(3000);
    await r.keys('Space');
    await r.pause(2500);
    await r.keys('q');
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
    await r.type('vi notes.txt', 80);
    await r.enter('UNKNOWN');
    await r.until(/notes\.txt/);
    await r.pause(2500);
    await r.type('Goa new last line', 120);
    await r.keys('Escape');
    await r.pause(1500);
    await r.type(':wq', 150);
    await r.enter();
    await r.until(/\$ $/, 'DONE');
    await r.pause(2500);
  },
);

await record(
  'recorded-standin',
  'standin',
  [
    'The stand-in agent (test/fixtures/standin-agent.mjs, run here with STANDIN_STEPS=15',
    'STANDIN_STEP_MS=250), kind standin (test/fixtures/standin-patterns.json), typed at by the',
    "recording script. It is not a real coding agent: its screens are the stand-in's own.",
    'Labels: IDLE at its first prompt; WORKING from the echo of an Enter until its prompt or a',
    'question shows; BLOCKED at its [y/n] approval question; DONE at its prompt after work; ENDED',
    'once it crashed (it kills itself with SIGSEGV through its "!" tool).',
  ],
  [
    'env',
    'STANDIN_STEPS=15',
    'STANDIN_STEP_MS=250',
    'node',
    path.join(root, 'test/fixtures/standin-agent.mjs'),
  ],
  async (r) => {
    await r.until(/standin> $/, 'IDLE');
    await r.pause(2000);
    await r.type('refactor the parser', 110);
    await r.pause(700);
    await r.enter('WORKING');
    await r.until(/standin> $/, 'DONE');
    await r.pause(2500);
    await r.type('work then approve', 90);
    await r.enter('WORKING');
    await r.until(/\[y\/n\] $/, 'BLOCKED');
    await r.pause(3500);
    await r.type('y');
    await r.enter('WORKING');
    await r.until(/standin> $/, 'DONE');
    await r.pause(2500);
    await r.type('!kill -SEGV $PPID', 90);
    await r.enter('WORKING');
    await r.died();
  },
);
