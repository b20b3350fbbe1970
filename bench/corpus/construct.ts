/**
 * Builds the corpus's constructed sessions: coding agents that are not installed here (Claude
 * Code, Codex, Gemini CLI, aider), their screens built from the prompts, dialogs and status
 * lines their documentation and issue trackers show (each sample's header names its sources).
 * Every frame is drawn whole (home, clear, the lines, then the cursor where it is put), not
 * with the tool's own line-by-line repaint; spinners are redrawn every 200 ms; the cursor sits
 * on the input line at a prompt (where the patterns read it) and under a dialog's last line
 * while a dialog is shown. The label of each stretch is the liveness a person reading that
 * screen would give. Writes bench/corpus/constructed-*.jsonl.
 *
 *   npx tsx bench/corpus/construct.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

type Label = 'IDLE' | 'WORKING' | 'BLOCKED' | 'DONE' | 'UNKNOWN' | 'ENDED';
type Line = { at: number; data?: string; label?: Label; exit?: number };

const here = path.dirname(new URL(import.meta.url).pathname);
const WIDTH = 100;
/** The pane's height (`switchboard run` makes panes of 160 × 48). */
const HEIGHT = 48;
const SPIN_MS = 200;
const SPINNER = ['✻', '✶', '✳', '✢', '·', '✢', '✳', '✶'];
const BRAILLE = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A screen: its lines and where the cursor is (row, column; 0-based). */
interface Frame {
  lines: string[];
  cursor: [number, number];
}

class Sample {
  private t = 0;
  private readonly lines: Line[] = [];

  constructor(
    readonly name: string,
    readonly kind: string,
    readonly notes: string[],
    /** Whether the program runs on the alternate screen. */
    readonly alternate = false,
  ) {
    if (alternate) this.bytes('\x1b[?1049h');
  }

  bytes(text: string): this {
    this.lines.push({ at: this.t, data: Buffer.from(text, 'utf8').toString('base64') });
    return this;
  }

  /** Draws a frame; its top lines scroll off when it is taller than the pane. */
  show(frame: Frame): this {
    const over = Math.max(0, frame.lines.length - HEIGHT);
    const [row, col] = frame.cursor;
    const lines = frame.lines.slice(over).join('\r\n');
    return this.bytes(`\x1b[H\x1b[2J${lines}\x1b[${row - over + 1};${col + 1}H`);
  }

  /** OSC 7501, as a program that speaks it writes it. */
  osc(state: string, kind?: string): this {
    return this.bytes(
      `\x1b]7501;state=${state}${kind ? `:kind=${kind}` : ''}:app=${this.kind}\x1b\\`,
    );
  }

  label(label: Label): this {
    this.lines.push({ at: this.t, label });
    return this;
  }

  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  /** A draft typed a key at a time into the frame `at` draws for it. */
  type(text: string, at: (draft: string) => Frame, perKeyMs = 150): this {
    for (let i = 1; i <= text.length; i++) this.wait(perKeyMs).show(at(text.slice(0, i)));
    return this;
  }

  /** A busy screen redrawn every SPIN_MS for `ms` (frame i of it). */
  spin(ms: number, at: (i: number, seconds: number) => Frame): this {
    const start = this.t;
    for (let i = 0; this.t - start < ms; i++) {
      this.show(at(i, Math.floor((this.t - start) / 1000)));
      this.wait(SPIN_MS);
    }
    return this;
  }

  exit(code: number): this {
    this.lines.push({ at: this.t, exit: code });
    return this;
  }

  write(): void {
    const header = [
      `// ${this.name}: constructed, not recorded (${this.kind} is not installed here).`,
      ...this.notes.map((n) => `// ${n}`),
    ];
    const body = [JSON.stringify({ kind: this.kind }), ...this.lines.map((l) => JSON.stringify(l))];
    writeFileSync(path.join(here, `${this.name}.jsonl`), `${[...header, ...body].join('\n')}\n`);
    console.log(`${this.name}: ${this.lines.length} lines, ${(this.t / 1000).toFixed(1)} s`);
  }
}

const pad = (text: string, width = WIDTH - 4) =>
  text + ' '.repeat(Math.max(0, width - [...text].length));
const boxed = (rows: string[]) => [
  `╭${'─'.repeat(WIDTH - 2)}╮`,
  ...rows.map((r) => `│ ${pad(r)} │`),
  `╰${'─'.repeat(WIDTH - 2)}╯`,
];

// ---- Claude Code -------------------------------------------------------------------------

/** Claude Code's screen: history, an optional status line, then its input box or a dialog. */
function claude(
  history: string[],
  o: { status?: string; draft?: string; dialog?: string[] },
): Frame {
  const lines = [...history, ''];
  if (o.status) lines.push(o.status, '');
  if (o.dialog) {
    lines.push(...boxed(o.dialog));
    return { lines: [...lines, ''], cursor: [lines.length, 0] };
  }
  const draft = o.draft ?? '';
  lines.push(...boxed([`> ${draft}`]));
  const row = lines.length - 2;
  lines.push('  ? for shortcuts');
  return { lines, cursor: [row, 4 + [...draft].length] };
}

const CLAUDE_WELCOME = [
  '✻ Welcome to Claude Code!',
  '',
  '  /help for help, /status for your current setup',
  '',
  '  cwd: /home/dev/proj',
];
const thinking = (word: string) => (i: number, s: number) =>
  `${SPINNER[i % SPINNER.length]} ${word}… (${s}s · ↑ ${(0.4 + s * 0.1).toFixed(1)}k tokens · esc to interrupt)`;

function claudeSession(osc: boolean): Sample {
  const name = osc ? 'constructed-claude-code-osc' : 'constructed-claude-code';
  const s = new Sample(name, 'claude-code', [
    'Screens built from Claude Code\'s documented terminal UI: the input box "│ > …│" with "? for',
    'shortcuts"; the status line "✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)" while it works',
    '(anthropics/claude-code#17505, #6643); the permission dialog "Do you want to proceed?" with',
    '"❯ 1. Yes / 2. Yes, and don\'t ask again … / 3. No, and tell Claude what to do differently (esc)"',
    '(#10732, #1499); the AskUserQuestion picker, numbered options with the first pre-selected',
    '(#71028, #26133; its footer line written from memory of the tool, not verified here).',
    osc
      ? 'With OSC 7501 (rev 0.3) as Claude Code 2.1.295 on emits it: one sequence at each state change,'
      : 'Without OSC 7501: the same session as a Claude Code before 2.1.295 draws it.',
    ...(osc
      ? [
          'placed here where the protocol says (idle at start, working, blocked with its kind, done).',
          'Claude Code asks the terminal first and tmux does not answer (docs/agents.md), so under tmux',
          'it stays silent: this sample measures how the provider reads the sequences once they come.',
        ]
      : []),
    'Covers: a typed draft, a long tool run, a permission dialog, a question dialog, a short turn.',
  ]);
  const h: string[] = [...CLAUDE_WELCOME];
  s.show(claude(h, {})).label('IDLE');
  if (osc) s.osc('idle');
  s.wait(2500)
    .type('add a retry to the http client', (d) => claude(h, { draft: d }), 120)
    .wait(900);
  // Enter: the prompt moves into the history, work starts.
  h.push('', '> add a retry to the http client', '');
  s.show(claude(h, { status: thinking('Thinking')(0, 0) })).label('WORKING');
  if (osc) s.osc('working');
  s.spin(3000, (i, sec) => claude(h, { status: thinking('Thinking')(i, sec) }));
  h.push(
    "⏺ I'll look at the client first.",
    '',
    '⏺ Read(src/http/client.ts)',
    '  ⎿  Read 212 lines',
  );
  s.spin(2000, (i, sec) => claude(h, { status: thinking('Pondering')(i, sec + 3) }));
  h.push('', '⏺ Update(src/http/client.ts)', '  ⎿  Updated src/http/client.ts with 18 additions');
  s.spin(1500, (i, sec) => claude(h, { status: thinking('Pondering')(i, sec + 5) }));
  // A permission dialog.
  const permission = [
    'Bash command',
    '',
    '  npm test -- src/http',
    '  Run the http client tests',
    '',
    'Do you want to proceed?',
    '❯ 1. Yes',
    "  2. Yes, and don't ask again for npm test commands in /home/dev/proj",
    '  3. No, and tell Claude what to do differently (esc)',
  ];
  s.show(claude(h, { dialog: permission })).label('BLOCKED');
  if (osc) s.osc('blocked', 'permission');
  s.wait(4000);
  // Approved: a long tool run with output.
  h.push('', '⏺ Bash(npm test -- src/http)');
  s.show(claude(h, { status: thinking('Running')(0, 0) })).label('WORKING');
  if (osc) s.osc('working');
  for (let k = 1; k <= 12; k++) {
    h.push(`  ⎿  ✓ client retries ${k}/12 (${40 + k * 7} ms)`);
    s.spin(600, (i, sec) =>
      claude(h, { status: thinking('Running')(i, sec + Math.floor(k * 0.6)) }),
    );
  }
  h.push('  ⎿  Tests: 12 passed, 12 total', '', '⏺ Added a retry with backoff; the tests pass.');
  s.show(claude(h, {})).label('DONE');
  if (osc) s.osc('done');
  s.wait(4000);
  // A question: the AskUserQuestion picker.
  s.type('also cap the retries?', (d) => claude(h, { draft: d }), 110).wait(700);
  h.push('', '> also cap the retries?', '');
  s.show(claude(h, { status: thinking('Thinking')(0, 0) })).label('WORKING');
  if (osc) s.osc('working');
  s.spin(2400, (i, sec) => claude(h, { status: thinking('Thinking')(i, sec) }));
  const question = [
    '☐ Retry cap',
    '',
    'How many attempts should the client make at most?',
    '',
    '❯ 1. 3 attempts',
    '     Fails fast; the default of most clients',
    '  2. 5 attempts',
    '     Rides out a longer outage',
    '  3. Type something.',
    '',
    'Enter to select · ↑/↓ to navigate · Esc to cancel',
  ];
  s.show(claude(h, { dialog: question })).label('BLOCKED');
  if (osc) s.osc('blocked', 'question');
  s.wait(4500);
  h.push('', '⏺ User answered: 3 attempts', '', '⏺ Update(src/http/client.ts)');
  s.show(claude(h, { status: thinking('Updating')(0, 0) })).label('WORKING');
  if (osc) s.osc('working');
  s.spin(1800, (i, sec) => claude(h, { status: thinking('Updating')(i, sec) }));
  h.push('  ⎿  Updated src/http/client.ts with 2 additions', '', '⏺ Capped at 3 attempts.');
  s.show(claude(h, {})).label('DONE');
  if (osc) s.osc('done');
  s.wait(4000);
  // A short turn: a slash command answered at once.
  s.type('/cost', (d) => claude(h, { draft: d }), 130).wait(500);
  h.push('', '> /cost', '  ⎿  Total cost: $0.0412', '     Total duration (API): 21.4s');
  s.show(claude(h, {}));
  s.wait(4000);
  return s;
}

// ---- Codex ---------------------------------------------------------------------------------

/** Codex's TUI on the alternate screen: history, a status line while working, then its composer. */
function codex(
  history: string[],
  o: { status?: string; draft?: string; dialog?: string[] },
): Frame {
  const lines = [...history, ''];
  if (o.dialog) {
    lines.push(...o.dialog);
    return { lines: [...lines, ''], cursor: [lines.length, 0] };
  }
  if (o.status) lines.push(o.status, '');
  const draft = o.draft ?? '';
  const row = lines.length;
  lines.push(`› ${draft}`, '', '  ⏎ send   ⇧⏎ newline   ⌃T transcript   ⌃C quit');
  return { lines, cursor: [row, 2 + [...draft].length] };
}
const codexWorking = (i: number, s: number) =>
  `${i % 2 ? '•' : '◦'} Working (${s}s • esc to interrupt)`;

function codexSession(): Sample {
  const s = new Sample(
    'constructed-codex',
    'codex',
    [
      'Screens built from Codex CLI\'s documented TUI: the banner ">_ OpenAI Codex (v0.36.0)", the',
      'composer line "› …" with "⏎ send ⇧⏎ newline ⌃T transcript ⌃C quit" (vinhnx/vtagent docs/project/TODO.md',
      'quoting a Codex session), the status "Working (5s • esc to interrupt)" (codex-rs',
      'status_indicator_widget: header "Working", elapsed time, interrupt hint), the approval',
      '"Would you like to run the following command?" with "Reason: …" (openai/codex#1260) and the',
      'options "1. Yes, proceed / 2. Yes, and don\'t ask again for commands that start with … / 3. No"',
      "(openai/codex#10735, #38328). Drawn on the alternate screen, as Codex's full-screen TUI is.",
      'Covers: a typed draft, work with a quiet stretch under the status line, an approval dialog.',
    ],
    true,
  );
  const h = [
    '╭────────────────────────────────────────────────────╮',
    '│ >_ OpenAI Codex (v0.36.0)                          │',
    '│                                                    │',
    '│ model: gpt-5-codex   /model to change              │',
    '│ directory: ~/proj                                  │',
    '╰────────────────────────────────────────────────────╯',
    '',
    '  To get started, describe a task or try one of these commands:',
  ];
  s.show(codex(h, {})).label('IDLE');
  s.wait(2500)
    .type('rename Config.load to Config.read everywhere', (d) => codex(h, { draft: d }), 90)
    .wait(800);
  h.push('', '› rename Config.load to Config.read everywhere');
  s.show(codex(h, { status: codexWorking(0, 0) })).label('WORKING');
  s.spin(4000, (i, sec) => codex(h, { status: codexWorking(i, sec) }));
  h.push('', '• Explored', '  └ Search Config.load in src', '    Read config.rs, main.rs');
  s.spin(3000, (i, sec) => codex(h, { status: codexWorking(i, sec + 4) }));
  const approval = [
    '  Would you like to run the following command?',
    '',
    '  Reason: Rewrite every call site of Config.load',
    '',
    "  $ sed -i 's/Config::load/Config::read/g' src/*.rs",
    '',
    '› 1. Yes, proceed',
    "  2. Yes, and don't ask again for commands that start with `sed -i`",
    '  3. No, and tell Codex what to do differently  esc',
    '',
    '  Press enter to confirm or esc to cancel',
  ];
  s.show(codex(h, { dialog: approval })).label('BLOCKED');
  s.wait(5000);
  h.push('', "• Ran sed -i 's/Config::load/Config::read/g' src/*.rs", '  └ (no output)');
  s.show(codex(h, { status: codexWorking(0, 0) })).label('WORKING');
  s.spin(3500, (i, sec) => codex(h, { status: codexWorking(i, sec) }));
  h.push('', '• Renamed Config.load to Config.read in 6 files; cargo check passes.');
  s.show(codex(h, {})).label('DONE');
  s.wait(5000);
  return s;
}

// ---- Gemini CLI ----------------------------------------------------------------------------

function gemini(
  history: string[],
  o: { status?: string; draft?: string; dialog?: string[] },
): Frame {
  const lines = [...history, ''];
  if (o.dialog) {
    lines.push(...boxed(o.dialog));
    lines.push(
      '~/proj (main*)        no sandbox (see /docs)        gemini-2.5-pro (98% context left)',
    );
    return { lines: [...lines, ''], cursor: [lines.length, 0] };
  }
  if (o.status) lines.push(o.status, '');
  const draft = o.draft ?? '';
  lines.push(...boxed([`> ${draft || '  Type your message or @path/to/file'}`]));
  const row = lines.length - 2;
  lines.push(
    '~/proj (main*)        no sandbox (see /docs)        gemini-2.5-pro (98% context left)',
  );
  return { lines, cursor: [row, 4 + [...draft].length] };
}
const geminiWorking = (what: string) => (i: number, s: number) =>
  `${BRAILLE[i % BRAILLE.length]} ${what} (esc to cancel, ${s}s)`;

function geminiSession(): Sample {
  const s = new Sample('constructed-gemini', 'gemini', [
    'Screens built from Gemini CLI\'s documented UI: the input box "│ >   Type your message or',
    '@path/to/file │" and the footer with cwd, sandbox and model (google-gemini/gemini-cli#18020,',
    '#19799 quoting /about and the footer), the spinner line "… (esc to cancel, 5s)", the shell',
    'confirmation "Allow execution of: \'npm\'?" with "● 1. Yes, allow once / 2. Yes, allow always …',
    '/ 3. No, suggest changes (esc)" (gemini-cli#19497, #26847; the dialog strings as the Qwen Code',
    'fork of gemini-cli keeps them in its i18n table), and an MCP tool confirmation "Allow',
    'execution of MCP tool … from server …?" with unnumbered options "● Yes, allow once" (#3502).',
    'Covers: a typed draft, work, two confirmation dialogs, a sub-second turn.',
  ]);
  const h = [
    ' ███ GEMINI',
    '',
    'Tips for getting started:',
    '1. Ask questions, edit files, or run commands.',
  ];
  s.show(gemini(h, {})).label('IDLE');
  s.wait(2500)
    .type('run the linter and fix what it finds', (d) => gemini(h, { draft: d }), 100)
    .wait(800);
  h.push('', '> run the linter and fix what it finds');
  s.show(gemini(h, { status: geminiWorking('Considering the linter')(0, 0) })).label('WORKING');
  s.spin(3500, (i, sec) => gemini(h, { status: geminiWorking('Considering the linter')(i, sec) }));
  const shell = [
    '?  Shell npm run lint -- --fix [current working directory /home/dev/proj]',
    '',
    '   npm run lint -- --fix',
    '',
    "Allow execution of: 'npm'?",
    '',
    '● 1. Yes, allow once',
    '  2. Yes, allow always ...',
    '  3. No, suggest changes (esc)',
  ];
  s.show(gemini(h, { dialog: shell })).label('BLOCKED');
  s.wait(4500);
  h.push('', '✓  Shell npm run lint -- --fix', '   2 problems fixed, 0 remaining');
  s.show(gemini(h, { status: geminiWorking('Reviewing the fixes')(0, 0) })).label('WORKING');
  s.spin(3000, (i, sec) => gemini(h, { status: geminiWorking('Reviewing the fixes')(i, sec) }));
  const mcp = [
    '?  create_issue (tracker MCP Server) {"title":"lint: two unused imports"}',
    '',
    'MCP Server: tracker',
    'Tool: create_issue',
    '',
    'Allow execution of MCP tool "create_issue" from server "tracker"?',
    '',
    '● Yes, allow once',
    '○ Yes, always allow tool "create_issue" from server "tracker"',
    '○ Yes, always allow all tools from server "tracker"',
    '○ No (esc)',
  ];
  s.show(gemini(h, { dialog: mcp })).label('BLOCKED');
  s.wait(4500);
  h.push('', '✓  create_issue (tracker MCP Server)');
  s.show(gemini(h, { status: geminiWorking('Wrapping up')(0, 0) })).label('WORKING');
  s.spin(2000, (i, sec) => gemini(h, { status: geminiWorking('Wrapping up')(i, sec) }));
  h.push('', '✦ Fixed two unused imports and filed an issue for the rule.');
  s.show(gemini(h, {})).label('DONE');
  s.wait(4000);
  s.type('/memory show', (d) => gemini(h, { draft: d }), 120).wait(500);
  h.push('', '> /memory show', 'ℹ Current memory content from 0 file(s): (empty)');
  s.show(gemini(h, {}));
  s.wait(4000);
  return s;
}

// ---- aider ---------------------------------------------------------------------------------

function aiderSession(): Sample {
  const s = new Sample('constructed-aider', 'aider', [
    'Screens built from aider\'s documented line-mode terminal: the banner, its "> " prompt, the',
    '"Waiting for <model>" spinner, edit blocks, "Applied edit to …" and "Commit …" lines, and the',
    'question "Add file to the chat? (Y)es/(N)o/(D)on\'t ask again [Yes]:" (Aider-AI/aider#3299,',
    '#3807, #3928). The session ends in a crash: a Python traceback, then the process exits 1.',
    'Written as a line-mode program writes: lines appended, the spinner redrawn in place with \\r.',
    'Covers: a typed draft, a model wait, a question, a crash.',
  ]);
  s.bytes(
    [
      'Aider v0.86.1',
      'Main model: anthropic/claude-sonnet-4 with diff edit format, infinite output',
      'Weak model: anthropic/claude-3-5-haiku',
      'Git repo: .git with 48 files',
      'Repo-map: using 4096 tokens, auto refresh',
      '',
      'src/report.py',
      '> ',
    ].join('\r\n'),
  ).label('IDLE');
  s.wait(2500);
  for (const ch of 'add a --since flag to the report') s.wait(110).bytes(ch);
  s.wait(800).bytes('\r\n').label('WORKING');
  const frames = [
    '░█        ',
    '░░█       ',
    ' ░░█      ',
    '  ░░█     ',
    '   ░░█    ',
    '    ░░█   ',
  ];
  for (let i = 0; i < 20; i++)
    s.bytes(`\r${frames[i % frames.length]} Waiting for anthropic/claude-sonnet-4`).wait(200);
  s.bytes(`\r${' '.repeat(60)}\r`);
  const reply = [
    'I will add the flag to the argument parser and filter the rows by date.',
    '',
    'src/report.py',
    '<<<<<<< SEARCH',
    '    parser.add_argument("--out")',
    '=======',
    '    parser.add_argument("--out")',
    '    parser.add_argument("--since", type=date.fromisoformat)',
    '>>>>>>> REPLACE',
    '',
  ];
  for (const line of reply) s.bytes(`${line}\r\n`).wait(150);
  s.bytes('Tokens: 4.1k sent, 212 received. Cost: $0.02 message, $0.02 session.\r\n').wait(300);
  s.bytes('Applied edit to src/report.py\r\n').wait(400);
  s.bytes('Commit 3f9c2e1 feat: Add --since flag to the report\r\n');
  s.bytes('src/report.py\r\n> ').label('DONE');
  s.wait(4000);
  for (const ch of 'use the helpers in src/dates.py') s.wait(100).bytes(ch);
  s.wait(700).bytes('\r\n').label('WORKING');
  for (let i = 0; i < 10; i++)
    s.bytes(`\r${frames[i % frames.length]} Waiting for anthropic/claude-sonnet-4`).wait(200);
  s.bytes(`\r${' '.repeat(60)}\r`);
  s.bytes("src/dates.py\r\nAdd file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: ").label(
    'BLOCKED',
  );
  s.wait(4500);
  s.bytes('y\r\n').label('WORKING');
  for (let i = 0; i < 12; i++)
    s.bytes(`\r${frames[i % frames.length]} Waiting for anthropic/claude-sonnet-4`).wait(200);
  s.bytes(`\r${' '.repeat(60)}\r`);
  const trace = [
    'Traceback (most recent call last):',
    '  File "/home/dev/.local/bin/aider", line 8, in <module>',
    '    sys.exit(main())',
    '  File "/home/dev/.local/lib/python3.12/site-packages/aider/main.py", line 1104, in main',
    '    coder.run()',
    '  File "/home/dev/.local/lib/python3.12/site-packages/aider/coders/base_coder.py", line 851, in run',
    '    self.run_one(user_message, preproc)',
    'MemoryError',
  ];
  s.bytes(`${trace.join('\r\n')}\r\n`).wait(100);
  s.label('ENDED').exit(1);
  return s;
}

for (const sample of [
  claudeSession(true),
  claudeSession(false),
  codexSession(),
  geminiSession(),
  aiderSession(),
])
  sample.write();
