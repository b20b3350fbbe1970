/**
 * The tmux presence provider: one PROVIDER credential, one tmux server. Panes are bound to
 * registered agents by pane options (@switchboard_agent, @switchboard_goal, @switchboard_kind)
 * that `switchboard attach` / `switchboard run` set. Liveness comes from control mode (%output
 * and format subscriptions, one control client per session) classified against per-kind
 * patterns, or — authoritative for that occupant once they report — from the agent's own
 * lifecycle hooks through the local hook socket. Reports are batched; the report sequence is
 * time-based and strictly increasing, so it stays monotonic across the provider's restarts.
 * Imports only the typed client.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Liveness,
  type ObservationLimit,
  type ObservationSource,
  RecordDeliveryNoticeDocument,
  RegisterProviderDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import { Connection, type TmuxServer, tmux } from './connection.ts';
import { Notices } from './notices.ts';
import { type Pane, type PaneStatus, paneStatus } from './pane.ts';
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
  /** Safety rescan of panes (format subscriptions trigger the prompt ones). */
  scanMs?: number;
  /** Quiet time after output before a screen counts as settled. */
  settleMs?: number;
  /** At most one classification per pane per this long while output flows. */
  throttleMs?: number;
  /** Reports are gathered this long into one batch. */
  batchMs?: number;
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
export function declaration(providerId: string, instanceId: string, presenceTtlMs: number) {
  return {
    providerId,
    instanceId,
    presenceTtlMs,
    supportsPinnedWaits: true,
    membershipProof:
      'the pane belongs to this tmux server (listed by its control-mode client) and carries the pane option @switchboard_agent (and @switchboard_goal when the provider serves several goals), set by `switchboard attach` or `switchboard run`; hooks reach the provider only through its local socket (mode 0600, path in SWITCHBOARD_HOOK_SOCKET) and name their pane by TMUX_PANE',
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
        providerState: 'pane process exited, pane closed, hook SessionEnd',
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

/** Where the hook socket of a tmux server lives by default. */
export function defaultHookSocket(server: TmuxServer, providerId: string): string {
  const base =
    process.env.XDG_RUNTIME_DIR || path.join(tmpdir(), `switchboard-${process.getuid?.() ?? 'u'}`);
  const key = createHash('sha256')
    .update(`${server.socketPath ?? ''}|${server.socketName ?? ''}|${providerId}`)
    .digest('hex')
    .slice(0, 12);
  return path.join(base, `switchboard-tmux-${key}.sock`);
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
  private instanceId: string | undefined;
  private timers: NodeJS.Timeout[] = [];
  private probing = false;
  private stopped = false;
  private hookServer: Server | undefined;

  constructor(options: TmuxProviderOptions) {
    this.o = {
      presenceTtlMs: 60_000,
      scanMs: 5000,
      settleMs: 600,
      throttleMs: 250,
      batchMs: 60,
      notices: true,
      noticePollMs: 2000,
      ...options,
      hookSocket: options.hookSocket ?? defaultHookSocket(options.server, options.providerId),
      log: options.log ?? (() => {}),
    };
    this.connection = new Connection(this.o.server, {
      output: (paneId) => this.tracker.output(paneId),
      changed: () => void this.tracker.scan(),
      lost: () => this.retryProbe(),
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
      throttleMs: this.o.throttleMs,
    });
  }

  get hookSocket(): string {
    return this.o.hookSocket;
  }

  get currentInstanceId(): string | undefined {
    return this.instanceId;
  }

  async start(): Promise<void> {
    await this.listenHooks();
    this.timers.push(
      setInterval(() => this.reporter.heartbeat(), Math.floor(this.o.presenceTtlMs / 3)),
    );
    this.timers.push(setInterval(() => void this.tracker.scan(), this.o.scanMs));
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
    await new Promise<void>((resolve) =>
      this.hookServer ? this.hookServer.close(() => resolve()) : resolve(),
    );
    rmSync(this.o.hookSocket, { force: true });
  }

  status(): {
    instanceId: string | null;
    hookSocket: string;
    notices: boolean;
    panes: PaneStatus[];
  } {
    return {
      instanceId: this.instanceId ?? null,
      hookSocket: this.o.hookSocket,
      notices: this.o.notices,
      panes: [...this.panes.values()].filter((p) => p.agentId).map(paneStatus),
    };
  }

  // ---- connection to the tmux server -------------------------------------------------

  /** Finds the tmux server, registers (a new instanceId per server start), attaches. */
  private async probe(): Promise<void> {
    if (this.probing || this.stopped) return;
    this.probing = true;
    try {
      let sessions: string[];
      let instanceId: string;
      try {
        const out = await tmux(this.o.server, [
          'list-sessions',
          '-F',
          '#{pid} #{start_time} #{session_name}',
        ]);
        const rows = out.split('\n').filter(Boolean);
        const [pid, start] = (rows[0] ?? '').split(' ');
        instanceId = `tmux-${pid}-${start}`;
        sessions = rows.map((r) => r.split(' ').slice(2).join(' '));
        if (!pid || sessions.length === 0) throw new Error('no sessions');
      } catch {
        this.retryProbe();
        return;
      }
      if (instanceId !== this.instanceId) {
        // A new tmux server: its panes are new locations; the old server's rows read stale.
        this.tracker.clear();
        this.reporter.clear();
        await this.o.client.request(RegisterProviderDocument, {
          input: declaration(this.o.providerId, instanceId, this.o.presenceTtlMs),
        });
        this.instanceId = instanceId;
        this.o.log(`registered ${this.o.providerId} instance ${instanceId}`);
        await tmux(this.o.server, [
          'set-environment',
          '-g',
          'SWITCHBOARD_HOOK_SOCKET',
          this.o.hookSocket,
        ]);
        await tmux(this.o.server, [
          'set-option',
          '-g',
          '@switchboard_hook_socket',
          this.o.hookSocket,
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

  private retryProbe(): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers = this.timers.filter((x) => x !== t);
      void this.probe();
    }, 500);
    this.timers.push(t);
  }

  // ---- hooks ------------------------------------------------------------------------

  private async listenHooks(): Promise<void> {
    mkdirSync(path.dirname(this.o.hookSocket), { recursive: true, mode: 0o700 });
    rmSync(this.o.hookSocket, { force: true });
    this.hookServer = createServer((socket) => this.hookConnection(socket));
    await new Promise<void>((resolve, reject) => {
      this.hookServer?.once('error', reject);
      this.hookServer?.listen(this.o.hookSocket, () => resolve());
    });
    chmodSync(this.o.hookSocket, 0o600);
  }

  private hookConnection(socket: Socket): void {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) {
        if (buffer.length > 65_536) socket.destroy();
        return;
      }
      const line = buffer.slice(0, newline);
      buffer = '';
      let request: HookRequest;
      try {
        request = JSON.parse(line) as HookRequest;
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'not JSON' })}\n`);
        return;
      }
      this.hookRequest(request)
        .then((answer) => socket.end(`${JSON.stringify(answer)}\n`))
        .catch((error) =>
          socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`),
        );
    });
  }

  /** A hook's report or question, for the pane it runs in. */
  async hookRequest(request: HookRequest): Promise<HookAnswer> {
    if (request.op === 'status') return { ok: true, status: this.status() };
    let pane = request.pane ? this.panes.get(request.pane) : undefined;
    if (request.pane && !pane) {
      await this.tracker.scan();
      pane = this.panes.get(request.pane);
    }
    if (!pane)
      return { ok: false, error: `pane ${request.pane ?? '(none)'} is not in this tmux server` };
    if (!pane.agentId) return { ok: false, error: `pane ${pane.id} is not bound to an agent` };
    const base = {
      ok: true as const,
      paneId: pane.id,
      agentId: pane.agentId,
      goalId: pane.goalId ?? null,
      liveness: pane.liveness ?? null,
      blocked: pane.liveness === 'BLOCKED',
      reported: pane.notReported ? `not reported: ${pane.notReported}` : null,
    };
    if (request.op === 'state') return base;
    if (request.op === 'end') {
      pane.hook = true;
      pane.hookEnded = true;
      pane.liveness = undefined;
      this.reporter.end(pane, `hook: ${request.event ?? 'session ended'}`);
      await this.reporter.flush();
      return { ...base, liveness: null };
    }
    if (request.op === 'report' && request.liveness) {
      if (pane.hookEnded) {
        // A new session in the same process (e.g. /clear): the hooks speak again.
        pane.hookEnded = false;
      }
      pane.hook = true;
      pane.reason = `hook: ${request.event ?? request.liveness}`;
      this.reporter.setLiveness(pane, request.liveness, 'LIFECYCLE_HOOK');
      await this.reporter.flush();
      return {
        ...base,
        liveness: request.liveness,
        reported: pane.notReported ? `not reported: ${pane.notReported}` : 'reported',
      };
    }
    if (request.op === 'notice' && request.deliveryId) {
      if (!pane.goalId || pane.notReported)
        return { ...base, notice: `not recorded: ${pane.notReported ?? 'no goal'}` };
      await this.reporter.flush(); // the hook's latest report first: the receipt is checked against it
      const { recordDeliveryNotice: r } = await this.o.client.request(
        RecordDeliveryNoticeDocument,
        {
          input: {
            goalId: pane.goalId,
            deliveryId: request.deliveryId,
            via: 'LIFECYCLE_HOOK',
            providerSessionRef: pane.id,
            text: `handed over by the ${request.event ?? 'Stop'} hook (decision: block)`,
          },
        },
      );
      return {
        ...base,
        notice:
          r.__typename === 'DeliveryNotice'
            ? 'recorded'
            : `not recorded: ${r.__typename === 'DeliveryNoticeRefused' ? r.reason : 'scope gap'}`,
      };
    }
    return { ok: false, error: `unknown op ${request.op}` };
  }
}

export interface HookRequest {
  op: 'report' | 'end' | 'state' | 'status' | 'notice';
  pane?: string;
  liveness?: Liveness;
  event?: string;
  /** op notice: the delivery a hook handed over. */
  deliveryId?: string;
}

export type HookAnswer =
  | {
      ok: true;
      paneId?: string;
      agentId?: string;
      goalId?: string | null;
      liveness?: Liveness | null;
      blocked?: boolean;
      reported?: string | null;
      status?: ReturnType<TmuxProvider['status']>;
      /** op notice: the receipt recorded, or why not. */
      notice?: string;
    }
  | { ok: false; error: string };
