/**
 * The tmux server's panes as the provider tracks them. A scan (coalesced; on control-mode
 * changes and on a timer) lists every pane; each row updates its record, where a new pid is a
 * new occupant, a dead or vanished pane ends its presence, and the pane options bind it to an
 * agent and goal. A bound pane's screen is classified against its kind's patterns after
 * output (once it pauses, throttled) and once more when the output settles; the liveness that
 * gives goes to the reporter, and a settled pane is offered to the notices. A bound pane's
 * process is also looked for in the kernel, so its exit is seen before tmux reports it.
 */
import { readFileSync } from 'node:fs';
import type { Liveness } from '../../client/index.ts';
import { type Connection, quote, SEP } from './connection.ts';
import type { Notices } from './notices.ts';
import { newPane, type Pane } from './pane.ts';
import { paneKeyHash } from './pane-key.ts';
import type { Patterns, Screen } from './patterns.ts';
import { type ProgramStatus, programLiveness } from './program-status.ts';
import type { Reporter } from './reporting.ts';

/** The fields of a list-panes row, in the order a scan reads them. */
const FIELDS = [
  '#{pane_id}',
  '#{pane_pid}',
  '#{pane_dead}',
  '#{session_name}',
  '#{pane_current_command}',
  '#{@switchboard_agent}',
  '#{@switchboard_goal}',
  '#{@switchboard_kind}',
  '#{@switchboard_reap}',
  '#{@switchboard_key}',
  '#{pane_start_command}',
].join(SEP);

export interface PaneTrackerOptions {
  /** The provider's panes, by pane id. */
  panes: Map<string, Pane>;
  connection: Connection;
  reporter: Reporter;
  notices: Notices;
  patterns: Patterns;
  /** The goals the provider serves. */
  goals: string[];
  /** Quiet time after output before a screen counts as settled. */
  settleMs: number;
  /** A pane that wrote is looked at once its output pauses this long… */
  pauseMs: number;
  /** …never sooner than this after its last look began… */
  gapMs: number;
  /** …and at the latest this long after the first output not yet looked at. */
  throttleMs: number;
  /** How long a pane may go on writing after its hooks' or program's last word before the next source decides. */
  quietMs: number;
}

export class PaneTracker {
  private scanning: Promise<void> | undefined;
  private rescan = false;
  private stopped = false;

  constructor(private readonly o: PaneTrackerOptions) {}

  /** Forgets every pane: they belonged to a tmux server that is gone. */
  clear(): void {
    for (const p of this.o.panes.values()) if (p.timer) clearTimeout(p.timer);
    this.o.panes.clear();
  }

  /** Classifies nothing more. */
  stop(): void {
    this.stopped = true;
    for (const p of this.o.panes.values()) if (p.timer) clearTimeout(p.timer);
  }

  /**
   * Whether a bound pane's process has exited, asked of the kernel: tmux reaps it and reports
   * the pane dead to its subscriptions up to a second or more later. An exited process ends
   * its occupant on the next scan, started now. Only for a process this provider has seen
   * alive, so one it cannot see (another pid namespace) is left to tmux.
   */
  checkExits(): void {
    let exited = false;
    for (const pane of this.o.panes.values()) {
      if (pane.dead || pane.exited || !pane.agentId) continue;
      const state = processState(pane.pid);
      if (state === 'alive') pane.pidSeen = true;
      else if (pane.pidSeen) {
        pane.exited = true;
        exited = true;
      }
    }
    if (exited) void this.scan();
  }

  /** Re-reads every pane of the server (coalesced). */
  scan(): Promise<void> {
    if (this.scanning) {
      this.rescan = true;
      return this.scanning;
    }
    this.scanning = this.doScan().finally(() => {
      this.scanning = undefined;
      if (this.rescan) {
        this.rescan = false;
        void this.scan();
      }
    });
    return this.scanning;
  }

  private async doScan(): Promise<void> {
    const control = this.o.connection.primary();
    if (!control || this.stopped) return;
    let lines: string[];
    let sessions: string[];
    try {
      [lines, sessions] = await Promise.all([
        control.command(`list-panes -a -F ${quote(FIELDS)}`),
        control.command(`list-sessions -F ${quote('#{session_name}')}`),
      ]);
    } catch {
      return;
    }
    for (const s of sessions) this.o.connection.attach(s);
    const seen = new Set<string>();
    for (const line of lines) {
      const [id, pid, dead, session, current, agent, goal, kind, reap, key, ...start] =
        line.split(SEP);
      if (!id?.startsWith('%')) continue;
      seen.add(id);
      this.update({
        id,
        pid: Number(pid),
        dead: dead === '1',
        session: session ?? '',
        current: current ?? '',
        agent: agent || undefined,
        goal: goal || undefined,
        kind: kind || undefined,
        start: start.join(SEP),
        reap: reap === '1',
        key: key || undefined,
      });
    }
    for (const [id, pane] of this.o.panes)
      if (!seen.has(id)) {
        this.o.reporter.end(pane, 'pane closed');
        if (pane.timer) clearTimeout(pane.timer);
        this.o.panes.delete(id);
      }
    this.o.reporter.schedule();
  }

  private update(row: {
    id: string;
    pid: number;
    dead: boolean;
    session: string;
    current: string;
    agent?: string;
    goal?: string;
    kind?: string;
    start: string;
    reap: boolean;
    key?: string;
  }): void {
    let pane = this.o.panes.get(row.id);
    const command = commandName(row.start) || row.current;
    if (pane && pane.pid === row.pid) {
      if (pane.dead) return;
      if (row.dead || pane.exited) {
        pane.dead = true;
        this.o.reporter.end(pane, 'pane process exited');
        if (row.reap) void this.reap(pane);
        return;
      }
    }
    if (!pane || pane.pid !== row.pid) {
      // A new occupant: a new pane, or a new process in the same pane (respawn).
      const kind =
        row.kind && this.o.patterns.has(row.kind) ? row.kind : this.o.patterns.kindOf(command);
      const previous = pane;
      pane = {
        ...newPane({
          id: row.id,
          session: row.session,
          pid: row.pid,
          command,
          dead: row.dead,
          kind: row.kind || kind,
        }),
        // The location's reporting state carries over: the gateway sees a new occupant there.
        live: previous?.live ?? false,
        reportedLiveness: previous?.reportedLiveness,
        reportedOccupant: previous?.reportedOccupant,
        agentId: previous?.agentId,
        goalId: previous?.goalId,
      };
      if (previous?.timer) clearTimeout(previous.timer);
      this.o.panes.set(row.id, pane);
      if (row.dead) {
        this.o.reporter.end(pane, 'pane process exited');
        if (row.reap) void this.reap(pane);
        return;
      }
      this.bind(pane, row.agent, row.goal);
      pane.keyHash = paneKeyHash(row.key, pane.pid);
      pane.pidSeen = processState(pane.pid) === 'alive';
      this.check(pane);
      return;
    }
    pane.session = row.session;
    if (row.dead) return;
    const before = `${pane.agentId}|${pane.goalId}`;
    this.bind(pane, row.agent, row.goal);
    pane.keyHash ??= paneKeyHash(row.key, pane.pid);
    if (`${pane.agentId}|${pane.goalId}` !== before) this.check(pane);
  }

  /**
   * `switchboard run` panes keep their dead process (remain-on-exit) so the exit is seen even
   * when it was the server's last pane; once endPresence is sent, the pane is closed as tmux
   * would have closed it.
   */
  private async reap(pane: Pane): Promise<void> {
    await this.o.reporter.flush();
    const control = this.o.connection.primary();
    if (this.o.panes.get(pane.id) === pane && pane.dead)
      await control?.command(`kill-pane -t ${pane.id}`).catch(() => {});
  }

  private bind(pane: Pane, agent: string | undefined, goal: string | undefined): void {
    const goalId = goal ?? (this.o.goals.length === 1 ? this.o.goals[0] : undefined);
    if (pane.agentId === agent && pane.goalId === goalId) return;
    if (pane.live && pane.agentId && pane.goalId) this.o.reporter.end(pane, 'binding changed');
    pane.agentId = agent;
    pane.goalId = goalId;
    pane.keyHash = undefined; // a new binding takes the key it is given with
    pane.notReported = undefined;
    pane.reportedLiveness = undefined;
    pane.reportedOccupant = undefined;
    pane.observe = true;
    if (!agent) return;
    if (!goalId)
      pane.notReported = `no @switchboard_goal and this provider serves ${this.o.goals.length} goals`;
    else if (!this.o.goals.includes(goalId))
      pane.notReported = `goal ${goalId} is not one this provider serves`;
  }

  /**
   * A pane wrote something: its program's own status (OSC 7501) is read at once, and the
   * screen classified soon (a pane not yet known means a rescan).
   */
  output(paneId: string, data = ''): void {
    const pane = this.o.panes.get(paneId);
    if (!pane) {
      void this.scan();
      return;
    }
    pane.lastOutput = Date.now();
    for (const status of pane.scanner.feed(data).reports) this.programStatus(pane, status);
    pane.unseenSince ??= pane.lastOutput;
    if (pane.checking) pane.recheck = true;
    else this.schedule(pane);
  }

  /**
   * The next look at a pane that wrote: once its output pauses for pauseMs (a burst drawn
   * whole, not half), never sooner than gapMs after the last look began, and at the latest
   * throttleMs after the first output not yet looked at (a pane that writes on and on).
   */
  private schedule(pane: Pane): void {
    const now = Date.now();
    const at = Math.min(
      Math.max(now + this.o.pauseMs, pane.lastLook + this.o.gapMs),
      (pane.unseenSince ?? now) + this.o.throttleMs,
    );
    if (pane.timer) clearTimeout(pane.timer);
    pane.timer = setTimeout(() => this.check(pane), Math.max(0, at - now));
  }

  /**
   * Who decides the pane's liveness now (one authority per target): its lifecycle hooks while
   * they report, else its program's own OSC 7501 status while it emits it, else the screen. A
   * source goes quiet when the pane has gone on writing for quietMs after its last word: then
   * the next one decides, until it speaks again.
   */
  private authority(pane: Pane): 'hooks' | 'program' | 'screen' {
    const speaking = (at: number | undefined) =>
      at !== undefined && pane.lastOutput <= at + this.o.quietMs;
    if (pane.hook && speaking(pane.hookAt)) return 'hooks';
    if (pane.program && speaking(pane.program.at)) return 'program';
    return 'screen';
  }

  /** The program announced its state: it decides, unless the hooks do. */
  private programStatus(pane: Pane, status: ProgramStatus): void {
    const mapped = programLiveness(status);
    if (!mapped) {
      // state=clear: the program no longer reports; the screen decides again, now.
      pane.program = undefined;
      this.check(pane);
      return;
    }
    pane.program = { ...mapped, at: Date.now() };
    if (pane.dead || !pane.agentId || pane.notReported || pane.hookEnded) return;
    if (this.authority(pane) !== 'program') return;
    this.o.reporter.setLiveness(
      pane,
      mapped.liveness,
      'PROGRAM_STATUS',
      mapped.explain,
      mapped.blockedKind,
    );
    // The program's word is not a guess from a screen: it goes now, not after the batch time.
    void this.o.reporter.flush();
  }

  /** Classifies the pane's screen and queues a report when its liveness changed. */
  private check(pane: Pane): void {
    if (pane.timer) clearTimeout(pane.timer);
    pane.timer = undefined;
    if (pane.dead || !pane.agentId || pane.notReported || pane.hookEnded || this.stopped) return;
    const control = this.o.connection.of(pane.session);
    if (!control) return;
    if (pane.checking) {
      pane.recheck = true;
      return;
    }
    pane.checking = true;
    const started = Date.now();
    pane.lastLook = started;
    pane.unseenSince = undefined;
    Promise.all([
      control.command(
        `display-message -p -t ${pane.id} ${quote(['#{cursor_x}', '#{cursor_y}', '#{alternate_on}', '#{pane_dead}'].join(SEP))}`,
      ),
      control.command(`capture-pane -p -t ${pane.id}`),
    ])
      .then(([info, lines]) => {
        if (this.o.panes.get(pane.id) !== pane) return;
        const [x, y, alt, dead] = (info[0] ?? '').split(SEP);
        if (dead === '1') {
          void this.scan();
          return;
        }
        const screen: Screen = {
          lines,
          cursorX: Number(x),
          cursorY: Number(y),
          alternate: alt === '1',
        };
        const recent = started - pane.lastOutput < this.o.settleMs;
        const c = this.o.patterns.classify(pane.kind, screen, recent);
        let liveness: Liveness;
        if (c.state === 'blocked') liveness = 'BLOCKED';
        else if (c.state === 'working') {
          liveness = 'WORKING';
          pane.wasWorking = true;
        } else if (c.state === 'prompt') {
          // Back at the prompt after work, after a question (asked within a turn), or from a
          // screen it could not read (a full-screen program) with new text above: DONE.
          const unreadTurn =
            pane.liveness === 'UNKNOWN' &&
            !c.draft &&
            pane.promptScreen !== undefined &&
            lines.slice(0, screen.cursorY).join('\n') !== pane.promptScreen;
          const afterTurn =
            pane.wasWorking ||
            pane.liveness === 'DONE' ||
            pane.liveness === 'BLOCKED' ||
            unreadTurn;
          liveness = afterTurn ? 'DONE' : 'IDLE';
          pane.wasWorking = false;
        } else liveness = 'UNKNOWN';
        // Back at an empty prompt with new text above it, never seen at work: a turn shorter
        // than a look (a quick command) still happened, and is reported as one.
        let shortTurn = false;
        if (c.state === 'prompt') {
          const above = lines.slice(0, screen.cursorY).join('\n');
          shortTurn =
            !c.draft &&
            pane.promptScreen !== undefined &&
            above !== pane.promptScreen &&
            (pane.liveness === 'IDLE' || pane.liveness === 'DONE');
          if (!c.draft) pane.promptScreen = above;
        }
        const authority = this.authority(pane);
        const quiet =
          authority === 'screen' && (pane.hook || pane.program)
            ? ' (the hooks and OSC 7501 quiet)'
            : '';
        const explain = `screen: ${c.reason}${shortTurn ? ', after output (a short turn)' : ''}${quiet}`;
        pane.screen = c.reason;
        pane.draft = c.draft;
        pane.lastSnapshot = lines;
        // Re-check once the output has settled, so WORKING does not outlive the output.
        if (recent) {
          const wait = Math.max(20, pane.lastOutput + this.o.settleMs - Date.now() + 10);
          pane.timer = setTimeout(() => this.check(pane), wait);
        }
        if (authority === 'hooks') return; // they decide, and hand messages over themselves
        if (authority === 'screen') {
          if (shortTurn) {
            pane.wasWorking = true;
            this.o.reporter.setLiveness(pane, 'WORKING', 'PROVIDER_DETECTION', explain);
            void this.o.reporter.flush().then(() => {
              if (this.o.panes.get(pane.id) !== pane || pane.liveness !== 'WORKING') return;
              if (this.authority(pane) !== 'screen') return;
              pane.wasWorking = false;
              this.o.reporter.setLiveness(pane, 'DONE', 'PROVIDER_DETECTION', explain);
            });
            return;
          }
          this.o.reporter.setLiveness(pane, liveness, 'PROVIDER_DETECTION', explain);
        }
        if (!recent) void this.o.notices.notify(pane);
      })
      .catch(() => {})
      .finally(() => {
        pane.checking = false;
        if (pane.recheck) {
          pane.recheck = false;
          this.schedule(pane);
        }
      });
  }
}

/**
 * A process as the kernel has it: gone (no such process, or a zombie its parent has not reaped
 * yet, which Linux's /proc tells) or alive (also when it belongs to another user).
 */
function processState(pid: number): 'alive' | 'gone' {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'alive';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat[stat.lastIndexOf(')') + 2];
    return state === 'Z' || state === 'X' ? 'gone' : 'alive';
  } catch {
    return 'alive';
  }
}

/** The program name of a start command (`"node x.js"` → node). */
function commandName(start: string): string {
  const unquoted = start.replace(/^"|"$/g, '').trim();
  const first = unquoted.split(/\s+/)[0] ?? '';
  return first.split('/').pop() ?? '';
}
