/**
 * The tmux presence provider: one PROVIDER credential, one tmux server. Panes are bound to
 * registered agents by pane options (@switchboard_agent, @switchboard_goal, @switchboard_kind)
 * that `switchboard attach` / `switchboard run` set. Liveness comes from one source per pane at
 * a time: the agent's own lifecycle hooks through the local hook socket while they report, else
 * the program's own OSC 7501 status read from control mode's %output, else the screen (format
 * subscriptions and %output, one control client per session, classified against per-kind
 * patterns). Here: the options, the contract registered for each tmux server start, start/stop
 * of the rooms beside it — connection.ts (the tmux server), panes.ts (panes, the authority and
 * screen detection), program-status.ts (OSC 7501), reporting.ts (reports to the gateway),
 * notices.ts (safe-point notices), hooks.ts (the hook socket) — and the end of every presence
 * when the tmux server goes. Imports only the typed client.
 */
import { hostname } from 'node:os';
import {
  type Liveness,
  type ObservationLimit,
  type ObservationSource,
  RegisterProviderDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import { Connection, type TmuxServer, tmux } from './connection.ts';
import { defaultHookSocket, HookServer, type ProviderStatus } from './hooks.ts';
import { Notices } from './notices.ts';
import { type Pane, paneStatus } from './pane.ts';
import { PaneTracker } from './panes.ts';
import type { Patterns } from './patterns.ts';
import { OBSERVATION_BOUNDS, Reporter } from './reporting.ts';

export interface TmuxProviderOptions {
  client: SwitchboardClient;
  providerId: string;
  goals: string[];
  server: TmuxServer;
  patterns: Patterns;
  /** The hook socket's path (default: a per-server path under $XDG_RUNTIME_DIR or /tmp). */
  hookSocket?: string;
  presenceTtlMs?: number;
  /** The machine it runs on, declared with each registration (default: os.hostname()). */
  host?: string;
  /** Safety rescan of panes (format subscriptions trigger the prompt ones). */
  scanMs?: number;
  /** Quiet time after output before a screen counts as settled. */
  settleMs?: number;
  /**
   * A pane that wrote is classified once its output pauses `pauseMs` (default 40), never sooner
   * than `gapMs` (default 120) after its last classification began, and at the latest
   * `throttleMs` (default 250) after its first output not yet classified.
   */
  pauseMs?: number;
  gapMs?: number;
  throttleMs?: number;
  /** Reports are gathered this long into one batch. */
  batchMs?: number;
  /**
   * How long a pane may go on writing after its hooks' or its program's (OSC 7501) last word
   * before the next source (the program's status, then the screen) decides. Default 30 s.
   */
  quietMs?: number;
  /**
   * Type a one-line notice of unread messages into a settled pane whose agent has no hooks
   * (IDLE or DONE, empty input line, never BLOCKED), at most once per delivery. Default on.
   */
  notices?: boolean;
  /** How often a settled pane's pending messages are looked up (a new message may arrive). */
  noticePollMs?: number;
  log?: (line: string) => void;
}

/** The provider contract, as registered. */
/** How often bound panes' processes are looked for (a kill(pid, 0) each). */
const EXIT_CHECK_MS = 100;

export function declaration(
  providerId: string,
  instanceId: string,
  presenceTtlMs: number,
  host: string,
) {
  return {
    providerId,
    instanceId,
    presenceTtlMs,
    host,
    supportsPinnedWaits: true,
    membershipProof:
      'the pane belongs to this tmux server (listed by its control-mode client) and carries the pane option @switchboard_agent (and @switchboard_goal when the provider serves several goals), set by `switchboard attach` or `switchboard run`; hooks reach the provider only through its local socket (mode 0600, path in SWITCHBOARD_HOOK_SOCKET), name their pane by TMUX_PANE and prove it with the pane key that `switchboard run` / `attach` gave its occupant (SWITCHBOARD_PANE_KEY; the pane keeps only its hash)',
    identifierRules:
      'providerSessionRef is the tmux pane id (%N), unique within one tmux server and never reused by it; instanceId changes with each tmux server start (server pid + start time), so a restarted server starts from new rows and the old ones read stale; occupantRef is pane id + pane pid + command + agent kind: a new process in the same pane is a new occupant',
    livenessMapping: [
      {
        providerState: 'output within the settle window, or a busy indicator',
        liveness: 'WORKING' as Liveness,
      },
      {
        providerState: 'a recognised question/approval prompt of the agent kind',
        liveness: 'BLOCKED' as Liveness,
      },
      { providerState: 'a settled input prompt, before any work', liveness: 'IDLE' as Liveness },
      { providerState: 'a settled input prompt after work', liveness: 'DONE' as Liveness },
      { providerState: 'quiet screen with no recognised prompt', liveness: 'UNKNOWN' as Liveness },
      {
        providerState:
          'hook SessionStart / UserPromptSubmit, PreToolUse / Notification(permission) / Stop',
        liveness: 'IDLE' as Liveness,
      },
      {
        providerState:
          'OSC 7501 state=idle (decides after hooks, before the screen, until clear or quiet)',
        liveness: 'IDLE' as Liveness,
      },
      { providerState: 'OSC 7501 state=working', liveness: 'WORKING' as Liveness },
      {
        providerState: 'OSC 7501 state=blocked (its kind kept as blockedKind)',
        liveness: 'BLOCKED' as Liveness,
      },
      { providerState: 'OSC 7501 state=done or state=error', liveness: 'DONE' as Liveness },
      {
        providerState:
          'pane process exited, pane closed, tmux server exited or killed, hook SessionEnd (presence ended)',
        liveness: 'UNREACHABLE' as Liveness,
      },
    ],
    observationSources: [
      {
        source: 'VIEWPORT' as ObservationSource,
        maxLines: OBSERVATION_BOUNDS.VIEWPORT,
        limits: ['VIEWPORT_CLEARED', 'PROVIDER_RESTARTED'] as ObservationLimit[],
      },
      {
        source: 'RECENT' as ObservationSource,
        maxLines: OBSERVATION_BOUNDS.RECENT,
        limits: [
          'ALTERNATE_SCREEN_NOT_IN_SCROLLBACK',
          'VIEWPORT_CLEARED',
          'PROVIDER_RESTARTED',
        ] as ObservationLimit[],
      },
      {
        source: 'DETECTION_SNAPSHOT' as ObservationSource,
        maxLines: OBSERVATION_BOUNDS.DETECTION_SNAPSHOT,
        limits: ['PROVIDER_RESTARTED'] as ObservationLimit[],
      },
    ],
    persistence:
      'bindings live in tmux pane options, so they survive a client detach and the provider restarting (same tmux server: same instanceId, rows continue); a tmux server restart loses panes, bindings and scrollback (new instanceId: old rows stale); nothing survives a machine restart',
  };
}

export class TmuxProvider {
  private readonly o: Required<Omit<TmuxProviderOptions, 'hookSocket' | 'log'>> & {
    hookSocket: string;
    log: (line: string) => void;
  };
  private readonly panes = new Map<string, Pane>();
  private readonly connection: Connection;
  private readonly reporter: Reporter;
  private readonly notices: Notices;
  private readonly tracker: PaneTracker;
  private readonly hooks: HookServer;
  private instanceId: string | undefined;
  private timers: NodeJS.Timeout[] = [];
  private probing = false;
  private stopped = false;

  constructor(options: TmuxProviderOptions) {
    this.o = {
      presenceTtlMs: 60_000,
      scanMs: 5000,
      settleMs: 600,
      pauseMs: 40,
      gapMs: 120,
      throttleMs: 250,
      batchMs: 60,
      quietMs: 30_000,
      notices: true,
      noticePollMs: 2000,
      ...options,
      hookSocket: options.hookSocket ?? defaultHookSocket(options.server, options.providerId),
      host: options.host ?? hostname(),
      log: options.log ?? (() => {}),
    };
    this.connection = new Connection(this.o.server, {
      output: (paneId, data) => this.tracker.output(paneId, data),
      changed: () => void this.tracker.scan(),
      lost: () => void this.lost(),
    });
    this.reporter = new Reporter({
      client: this.o.client,
      panes: this.panes,
      connection: this.connection,
      batchMs: this.o.batchMs,
      log: this.o.log,
    });
    this.notices = new Notices({
      client: this.o.client,
      panes: this.panes,
      connection: this.connection,
      patterns: this.o.patterns,
      enabled: this.o.notices,
      settleMs: this.o.settleMs,
      log: this.o.log,
    });
    this.tracker = new PaneTracker({
      panes: this.panes,
      connection: this.connection,
      reporter: this.reporter,
      notices: this.notices,
      patterns: this.o.patterns,
      goals: this.o.goals,
      settleMs: this.o.settleMs,
      pauseMs: this.o.pauseMs,
      gapMs: this.o.gapMs,
      throttleMs: this.o.throttleMs,
      quietMs: this.o.quietMs,
    });
    this.hooks = new HookServer({
      socketPath: this.o.hookSocket,
      explicit: options.hookSocket !== undefined,
      log: this.o.log,
      client: this.o.client,
      panes: this.panes,
      tracker: this.tracker,
      reporter: this.reporter,
      status: () => this.status(),
    });
  }

  /** Where hooks reach the provider (known once it started). */
  get hookSocket(): string {
    return this.hooks.socketPath;
  }

  get currentInstanceId(): string | undefined {
    return this.instanceId;
  }

  async start(): Promise<void> {
    await this.hooks.listen();
    this.timers.push(
      setInterval(() => this.reporter.heartbeat(), Math.floor(this.o.presenceTtlMs / 3)),
    );
    this.timers.push(setInterval(() => void this.tracker.scan(), this.o.scanMs));
    this.timers.push(setInterval(() => this.tracker.checkExits(), EXIT_CHECK_MS));
    if (this.o.notices)
      this.timers.push(setInterval(() => this.notices.poll(), this.o.noticePollMs));
    await this.probe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.tracker.stop();
    this.notices.stop();
    this.connection.close();
    await this.reporter.stop();
    await this.hooks.close();
  }

  status(): ProviderStatus {
    return {
      instanceId: this.instanceId ?? null,
      hookSocket: this.hooks.socketPath,
      notices: this.o.notices,
      panes: [...this.panes.values()].filter((p) => p.agentId).map(paneStatus),
    };
  }

  // ---- finding the tmux server and registering for it ---------------------------------

  /** Finds the tmux server, registers (a new instanceId per server start), attaches. */
  private async probe(): Promise<void> {
    if (this.probing || this.stopped) return;
    this.probing = true;
    try {
      let sessions: string[];
      let instanceId: string;
      try {
        ({ instanceId, sessions } = await this.server());
      } catch {
        this.retryProbe();
        return;
      }
      if (instanceId !== this.instanceId) {
        // A new tmux server: its panes are new locations; the old server's rows read stale.
        this.tracker.clear();
        this.reporter.clear();
        await this.o.client.request(RegisterProviderDocument, {
          input: declaration(this.o.providerId, instanceId, this.o.presenceTtlMs, this.o.host),
        });
        this.instanceId = instanceId;
        this.o.log(`registered ${this.o.providerId} instance ${instanceId}`);
        await tmux(this.o.server, [
          'set-environment',
          '-g',
          'SWITCHBOARD_HOOK_SOCKET',
          this.hooks.socketPath,
        ]);
        await tmux(this.o.server, [
          'set-option',
          '-g',
          '@switchboard_hook_socket',
          this.hooks.socketPath,
        ]);
      }
      for (const session of sessions) this.connection.attach(session);
      await this.tracker.scan();
    } catch (error) {
      this.o.log(`probe failed: ${(error as Error).message}`);
      this.retryProbe();
    } finally {
      this.probing = false;
    }
  }

  /**
   * The last control client ended. When the tmux server is gone (killed, or its last pane
   * closed) or another one runs in its place, every occupant it had is gone with it: each
   * presence ends before anything else is reported. Then the server is looked for again.
   */
  private async lost(): Promise<void> {
    if (this.stopped) return;
    const running = await this.server().catch(() => undefined);
    if (running?.instanceId !== this.instanceId) {
      for (const pane of this.panes.values()) this.reporter.end(pane, 'tmux server gone');
      await this.reporter.flush();
      this.tracker.clear();
      this.o.log(`tmux server ${this.instanceId} gone: its panes' presence ended`);
    }
    this.retryProbe();
  }

  /** The running tmux server's instance id and sessions; throws when there is none. */
  private async server(): Promise<{ instanceId: string; sessions: string[] }> {
    const out = await tmux(this.o.server, [
      'list-sessions',
      '-F',
      '#{pid} #{start_time} #{session_name}',
    ]);
    const rows = out.split('\n').filter(Boolean);
    const [pid, start] = (rows[0] ?? '').split(' ');
    if (!pid || rows.length === 0) throw new Error('no sessions');
    return {
      instanceId: `tmux-${pid}-${start}`,
      sessions: rows.map((r) => r.split(' ').slice(2).join(' ')),
    };
  }

  private retryProbe(): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers = this.timers.filter((x) => x !== t);
      void this.probe();
    }, 500);
    this.timers.push(t);
  }
}
