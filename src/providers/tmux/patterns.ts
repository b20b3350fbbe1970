/**
 * Screen classification for agents without lifecycle hooks. Per agent kind, a config file
 * names the commands that identify the kind and the patterns of its screens:
 *
 *   { "kinds": { "<kind>": { "commands": ["claude"], "prompt": ["^> ?(?<draft>.*)$"],
 *     "blocked": ["Do you want to proceed\\?"], "working": ["esc to interrupt"] } } }
 *
 * `prompt` is matched against the cursor line (its `draft` group is what is typed there),
 * `blocked` and `working` against the prompt region: the cursor line and the lines just around
 * it, never the rest of the page, so text merely shown (a message quoting "Do you want to
 * proceed?") is not a question. Strict: BLOCKED only on a recognised question or approval
 * prompt; a quiet screen with no recognised prompt is UNKNOWN with its reason, never a guessed
 * BLOCKED. The defaults below are the built-in config; a
 * file given with --patterns (or $XDG_CONFIG_HOME/switchboard/agent-patterns.json) is merged
 * over them, kind by kind.
 */
import { readFileSync } from 'node:fs';

export interface KindPatterns {
  /** pane_current_command / start command names that identify this kind. */
  commands?: string[];
  /** Cursor-line patterns of a settled input prompt; the `draft` group is the typed text. */
  prompt?: string[];
  /** Patterns of a question or approval prompt, at the cursor's prompt region. */
  blocked?: string[];
  /** Patterns at the cursor's prompt region that say the agent is busy even when quiet. */
  working?: string[];
}

export interface PatternsFile {
  kinds: Record<string, KindPatterns>;
}

export const DEFAULT_PATTERNS: PatternsFile = {
  kinds: {
    'claude-code': {
      commands: ['claude'],
      prompt: ['^\\s*[│|]?\\s*[>❯]\\s(?<draft>.*?)\\s*[│|]?\\s*$'],
      blocked: [
        'Do you want to (proceed|make this edit|create|allow)',
        '❯\\s*1\\.\\s*Yes',
        'Would you like to proceed\\?',
        // A question's picker: the selected one of its numbered options, in the dialog's box.
        '│\\s*❯\\s*\\d+\\.\\s',
      ],
      working: ['esc to interrupt', '\\(\\d+s · .*tokens'],
    },
    codex: {
      commands: ['codex'],
      prompt: ['^\\s*[›>▌](?:\\s(?<draft>.*))?$'],
      blocked: [
        'Allow command\\?',
        'Would you like to run the following command\\?',
        'Approve\\?|\\[y/N\\]|Yes, proceed',
      ],
      working: ['Esc to interrupt', 'esc to interrupt'],
    },
    gemini: {
      commands: ['gemini'],
      prompt: ['^\\s*[│|]?\\s*>\\s(?<draft>.*?)\\s*[│|]?\\s*$'],
      blocked: [
        'Allow execution(?: of\\b[^?]*)?\\?',
        'Apply this change\\?',
        '● (?:1\\. )?Yes, allow once',
      ],
      working: ['esc to cancel'],
    },
    aider: {
      commands: ['aider'],
      prompt: ['^(?:\\w+\\s)?>(?:\\s(?<draft>.*))?$'],
      // A question still waiting: nothing typed after it yet (an answered one stays on screen).
      blocked: ['\\(Y\\)es/\\(N\\)o.*:\\s*$', '\\(y/n(?:/\\w+)?\\):\\s*$', '\\[Yes\\]:\\s*$'],
      working: [],
    },
    generic: {
      commands: [],
      prompt: ['^.*[$#%>❯](?:\\s(?<draft>.*))?$'],
      blocked: ['\\[y/n\\]\\s*$', '\\(y/n\\)\\s*\\??\\s*$', '\\[Y/n\\]\\s*$', '\\[y/N\\]\\s*$'],
      working: [],
    },
  },
};

interface CompiledKind {
  commands: string[];
  prompt: RegExp[];
  blocked: RegExp[];
  working: RegExp[];
}

export class Patterns {
  private readonly kinds = new Map<string, CompiledKind>();

  constructor(file: PatternsFile) {
    for (const [name, kind] of Object.entries(file.kinds)) {
      const compile = (list: string[] = []) => list.map((source) => new RegExp(source, 'm'));
      this.kinds.set(name, {
        commands: kind.commands ?? [],
        prompt: compile(kind.prompt),
        blocked: compile(kind.blocked),
        working: compile(kind.working),
      });
    }
  }

  /** The defaults, with `path` (if any) merged over them kind by kind. */
  static load(path?: string): Patterns {
    const merged: PatternsFile = { kinds: { ...DEFAULT_PATTERNS.kinds } };
    if (path) {
      let parsed: PatternsFile;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8')) as PatternsFile;
      } catch (error) {
        throw new Error(`cannot read patterns ${path}: ${(error as Error).message}`);
      }
      for (const [name, kind] of Object.entries(parsed.kinds ?? {}))
        merged.kinds[name] = { ...merged.kinds[name], ...kind };
    }
    return new Patterns(merged);
  }

  /** The kind a pane's command names (or `generic`). */
  kindOf(command: string): string {
    const base = command.split('/').pop() ?? command;
    for (const [name, kind] of this.kinds) if (kind.commands.includes(base)) return name;
    return 'generic';
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /**
   * Whether the program is one of the kind's own: the agent a notice may be typed to. A kind
   * that names no commands (generic) has none, so a shell or an unknown program never is.
   */
  runs(kindName: string, command: string): boolean {
    const base = command.split('/').pop() ?? command;
    return this.kinds.get(kindName)?.commands.includes(base) ?? false;
  }

  /**
   * What the pane is waiting at, read where the program asks: a `blocked` pattern on the cursor
   * line; else the kind's own input prompt at the cursor (what is shown above it is history,
   * however it reads); else a `blocked` or `working` pattern in the prompt region (the lines
   * around the cursor, where a dialog is drawn); else, on the alternate screen, unknown (a
   * full-screen program's redraws are not work); else an input line just submitted with nothing
   * under it, or recent output, is work, and a quiet screen with no recognised prompt is unknown.
   */
  classify(kindName: string, screen: Screen, recentOutput: boolean): Classification {
    const kind = this.kinds.get(kindName) ?? this.kinds.get('generic');
    if (!kind) return { state: 'unknown', reason: `no patterns for kind ${kindName}` };
    if (screen.alternate && kind.prompt.length === 0)
      return { state: 'unknown', reason: 'full-screen program without patterns' };
    const cursorLine = screen.lines[screen.cursorY] ?? '';
    const blocked = (text: string) => {
      const pattern = kind.blocked.find((p) => p.test(text));
      return (
        pattern && ({ state: 'blocked', reason: `recognised prompt /${pattern.source}/` } as const)
      );
    };
    const atCursor = blocked(cursorLine);
    if (atCursor) return atCursor;
    let prompt: Classification | undefined;
    for (const pattern of kind.prompt) {
      const match = pattern.exec(cursorLine);
      if (match) {
        prompt = {
          state: 'prompt',
          reason: `settled prompt /${pattern.source}/`,
          // Only a pattern with a `draft` group can tell an empty input line from a typed one.
          draft: 'draft' in (match.groups ?? {}) ? (match.groups?.draft ?? '').trim() : undefined,
        };
        break;
      }
    }
    const region = promptRegion(screen.lines, screen.cursorY).join('\n');
    const inRegion = prompt ? undefined : blocked(region);
    if (inRegion) return inRegion;
    for (const pattern of kind.working)
      if (pattern.test(region))
        return { state: 'working', reason: `busy indicator /${pattern.source}/` };
    if (prompt) return prompt;
    if (screen.alternate)
      // A full-screen program redraws on every key (a pager scrolled, an editor typed into):
      // its output is no sign of work.
      return { state: 'unknown', reason: 'full-screen program with no recognised prompt' };
    const above = screen.lines[screen.cursorY - 1] ?? '';
    if (!cursorLine.trim() && kind.prompt.some((p) => p.exec(above)?.groups?.draft?.trim()))
      // The input just submitted and nothing under it yet: what it started runs, quietly.
      return { state: 'working', reason: 'input submitted, nothing after it yet' };
    if (recentOutput) return { state: 'working', reason: 'recent output' };
    return { state: 'unknown', reason: 'quiet screen with no recognised prompt' };
  }
}

/** A prompt line that asks something (a question, a confirmation, a secret): never typed at. */
const QUESTION = /\?|\b(confirm|password|passphrase|passcode|token|yes\/no|y\/n)\b/i;

/** Whether the line a prompt sits on asks a question rather than waiting for the next task. */
export const asksQuestion = (line: string) => QUESTION.test(line);

/** The visible screen of a pane, as capture-pane and display-message give it. */
export interface Screen {
  lines: string[];
  cursorY: number;
  cursorX: number;
  alternate: boolean;
}

export interface Classification {
  state: 'working' | 'blocked' | 'prompt' | 'unknown';
  reason: string;
  /**
   * At a prompt: the text on the input line (empty = safe to type a notice); undefined when
   * the prompt pattern has no `draft` group, so emptiness cannot be told (never safe).
   */
  draft?: string;
}

/** Lines above the cursor line that belong to its prompt region. */
const REGION_ABOVE = 6;
/** Non-empty lines below the cursor line that belong to it (a dialog's options, a status line). */
const REGION_BELOW = 4;

/** The cursor line with the few lines just above it and the non-empty lines just below it. */
function promptRegion(lines: string[], cursorY: number): string[] {
  const y = Math.min(Math.max(cursorY, 0), Math.max(lines.length - 1, 0));
  let end = y;
  while (end + 1 < lines.length && end - y < REGION_BELOW && (lines[end + 1] ?? '').trim()) end++;
  let start = Math.max(0, y - REGION_ABOVE);
  // A dialog box whose bottom is in the region is read whole, however tall: its question and
  // options may sit above the few lines the region holds.
  let line = y;
  while (line >= start && !/^\s*╰/.test(lines[line] ?? '')) line--;
  if (line >= start) {
    while (line >= 0 && !/^\s*╭/.test(lines[line] ?? '')) line--;
    if (line >= 0) start = Math.min(start, line);
  }
  return lines.slice(start, end + 1);
}
