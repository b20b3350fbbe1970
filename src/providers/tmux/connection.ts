/**
 * The tmux provider's connection to its tmux server: one-shot `tmux` commands (the CLI verbs,
 * probing) and control-mode clients (`tmux -C attach -t <session> -f ignore-size`), the one
 * place control-mode output is parsed. Commands are written one per line and answered in order
 * by %begin/%end (or %error) blocks; notifications (%output, %subscription-changed,
 * %window-add, %exit, …) arrive between blocks. tmux 3.3a sends %output only for the panes of
 * the attached session, so `Connection` keeps one control client per session. Node only;
 * imports nothing of the gateway.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';

/** Where the tmux server is: a socket path (-S), a socket name (-L), or tmux's default. */
export interface TmuxServer {
  socketPath?: string;
  socketName?: string;
}

export function tmuxArgs(server: TmuxServer): string[] {
  if (server.socketPath) return ['-S', server.socketPath];
  if (server.socketName) return ['-L', server.socketName];
  return [];
}

/**
 * tmux writes non-ASCII (and tabs) as `_` unless the client's locale is UTF-8: agent screens
 * are full of box-drawing characters, so every tmux we start gets a UTF-8 LC_CTYPE.
 */
export function tmuxEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  if (/utf-?8/i.test(locale)) return env;
  const { LC_ALL: _, ...rest } = env;
  return { ...rest, LC_CTYPE: 'C.UTF-8' };
}

/** Runs one tmux command outside control mode (for the CLI verbs and for probing). */
export function tmux(server: TmuxServer, args: string[], timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'tmux',
      [...tmuxArgs(server), ...args],
      { timeout: timeoutMs, encoding: 'utf8', env: tmuxEnv() },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`tmux ${args[0]}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
}

/** A printable field separator for format strings (tmux prints control characters as `_`). */
export const SEP = ' |sb| ';

/** Quotes an argument for a tmux command line (control mode parses like a config file). */
export function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export interface ControlEvents {
  /** %output for a pane, its data as tmux escaped it (bytes below 0x20 and `\` as `\ooo`). */
  output(paneId: string, data: string): void;
  /** Something about panes, windows or sessions changed: rescan. */
  changed(): void;
  /** The control client ended (the session or the server is gone). */
  exit(reason: string): void;
}

interface Pending {
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

export class ControlClient {
  private readonly child: ChildProcess;
  private readonly pending: Pending[] = [];
  private buffer = '';
  private block: string[] | undefined;
  /** Whether the open block answers one of our commands (flags 1), not the attach itself. */
  private ours = false;
  /**
   * Commands wait for the attach (tmux's first %session-changed): sent before it, tmux may run
   * them ahead of the attach, with no current client (`refresh-client` then fails).
   */
  private attached = false;
  private readonly unsent: string[] = [];
  private exited = false;

  constructor(
    server: TmuxServer,
    readonly session: string,
    private readonly events: ControlEvents,
  ) {
    this.child = spawn(
      'tmux',
      [...tmuxArgs(server), '-C', 'attach-session', '-t', `=${session}`, '-f', 'ignore-size'],
      { stdio: ['pipe', 'pipe', 'ignore'], env: tmuxEnv() },
    );
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => this.data(chunk));
    this.child.on('exit', () => this.end('control client exited'));
    this.child.on('error', (error) => this.end(error.message));
    this.child.stdin?.on('error', () => {});
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Runs a command; resolves with its output lines, rejects on %error. */
  command(line: string): Promise<string[]> {
    if (this.exited) return Promise.reject(new Error('tmux control client is gone'));
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      if (this.attached) this.child.stdin?.write(`${line}\n`);
      else this.unsent.push(line);
    });
  }

  close(): void {
    if (this.exited) return;
    this.child.stdin?.end();
    this.child.kill('SIGTERM');
  }

  private end(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    for (const p of this.pending.splice(0)) p.reject(new Error(`tmux control client: ${reason}`));
    this.events.exit(reason);
  }

  private data(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
      newline = this.buffer.indexOf('\n');
    }
  }

  private line(line: string): void {
    if (this.block) {
      if (line.startsWith('%end ') || line.startsWith('%error ')) {
        const lines = this.block;
        this.block = undefined;
        if (!this.ours) return;
        const p = this.pending.shift();
        if (!p) return;
        if (line.startsWith('%end ')) p.resolve(lines);
        else p.reject(new Error(lines.join(' ') || 'tmux command failed'));
        return;
      }
      this.block.push(line);
      return;
    }
    if (line.startsWith('%begin ')) {
      // `%begin <time> <number> <flags>`: flags 1 for a command this client sent.
      this.block = [];
      this.ours = line.split(' ')[3] === '1';
      return;
    }
    if (line.startsWith('%session-changed') && !this.attached) {
      this.attached = true;
      for (const unsent of this.unsent.splice(0)) this.child.stdin?.write(`${unsent}\n`);
    }
    if (line.startsWith('%output ')) {
      const end = line.indexOf(' ', 8);
      this.events.output(
        line.slice(8, end < 0 ? undefined : end),
        end < 0 ? '' : line.slice(end + 1),
      );
      return;
    }
    if (line.startsWith('%exit')) {
      this.end('tmux said %exit');
      return;
    }
    if (
      line.startsWith('%subscription-changed') ||
      line.startsWith('%window-add') ||
      line.startsWith('%window-close') ||
      line.startsWith('%unlinked-window-add') ||
      line.startsWith('%unlinked-window-close') ||
      line.startsWith('%sessions-changed') ||
      line.startsWith('%layout-change')
    )
      this.events.changed();
  }
}

/** What the provider hears from its control clients. */
export interface ConnectionEvents {
  /** A pane of an attached session wrote something (escaped as in %output). */
  output(paneId: string, data: string): void;
  /** Panes, windows or sessions changed, or one session's control client ended: rescan. */
  changed(): void;
  /** The last control client ended: the server has to be found again. */
  lost(): void;
}

/** The provider's control clients, one per session of the tmux server. */
export class Connection {
  private readonly controls = new Map<string, ControlClient>();
  private closed = false;

  constructor(
    private readonly server: TmuxServer,
    private readonly events: ConnectionEvents,
  ) {}

  /** Attaches a control client to the session, unless a live one is attached already. */
  attach(session: string): void {
    if (this.controls.get(session)?.alive) return;
    const control = new ControlClient(this.server, session, {
      output: (paneId, data) => this.events.output(paneId, data),
      changed: () => this.events.changed(),
      exit: () => {
        if (this.controls.get(session) === control) this.controls.delete(session);
        if (!this.closed) {
          if (this.controls.size === 0) this.events.lost();
          else this.events.changed();
        }
      },
    });
    this.controls.set(session, control);
    // Format subscriptions: tmux checks them once a second and reports changes (pane exit,
    // respawn, a new binding) without any polling on our side.
    control
      .command(
        `refresh-client -B ${quote('sb:%*:#{pane_dead}:#{pane_pid}:#{@switchboard_agent}:#{@switchboard_goal}')}`,
      )
      .catch(() => {});
  }

  /** Any live control client: commands that name their target run through any session's. */
  primary(): ControlClient | undefined {
    for (const c of this.controls.values()) if (c.alive) return c;
    return undefined;
  }

  /** The control client of a pane's session, else any live one. */
  of(session: string): ControlClient | undefined {
    return this.controls.get(session) ?? this.primary();
  }

  close(): void {
    this.closed = true;
    for (const c of this.controls.values()) c.close();
    this.controls.clear();
  }
}
