/**
 * Agent lifecycle hooks and the local socket they report through: the provider's side of the
 * socket (HookServer), the hook's side (askProvider), the pane key a hook proves its pane with,
 * Claude Code's and Codex's event mapping, and `hooks install|uninstall claude-code`. A hook
 * never reports to the gateway itself: it hands its report to the local tmux provider (one
 * credential, one reporter), and uses the agent's own PEER credential only to take its next
 * message at a safe point.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import {
  BlockedKind,
  Liveness,
  RecordDeliveryNoticeDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import type { TmuxServer } from './connection.ts';
import type { Pane, PaneStatus } from './pane.ts';
import { keyProves, PANE_KEY_ENV } from './pane-key.ts';
import type { PaneTracker } from './panes.ts';
import type { Reporter } from './reporting.ts';

/** How long a hook's report may take to reach the gateway before the hook is answered. */
export const HOOK_SEND_WAIT_MS = 1000;

export const HOOK_OPS = ['report', 'end', 'state', 'status', 'notice'] as const;
export type HookOp = (typeof HOOK_OPS)[number];

/** What a hook asks of the provider, one JSON line on its socket. */
export interface HookRequest {
  op: HookOp;
  /** The pane the hook runs in (TMUX_PANE); every op but status names one. */
  pane?: string;
  /** The pane's key (SWITCHBOARD_PANE_KEY in its environment): proves the request comes from it. */
  key?: string;
  /** op report: one of the schema's Liveness values. */
  liveness?: Liveness;
  /** op report, with BLOCKED: what it waits for (one of the schema's BlockedKind values). */
  blockedKind?: BlockedKind;
  /** What happened, in the hook's words (shown as the pane's reason). */
  event?: string;
  /** op notice: the delivery a hook handed over. */
  deliveryId?: string;
}

const LIVENESS: readonly string[] = Object.values(Liveness);
const BLOCKED_KINDS: readonly string[] = Object.values(BlockedKind);
const FIELDS = new Set(['op', 'pane', 'key', 'liveness', 'blockedKind', 'event', 'deliveryId']);
const PRINTABLE = /^[^\p{Cc}\p{Cf}]*$/u;

/**
 * A hook request checked against the socket's vocabulary (the ops, the schema's Liveness, a
 * pane id, bounded printable text), or why it is not one. Nothing unchecked is ever queued.
 */
export function parseHookRequest(line: string): HookRequest | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'not a JSON object' };
  const r = value as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !FIELDS.has(k));
  if (unknown.length) return { error: `unknown field ${unknown[0]}` };
  const text = (field: string, max: number, pattern = PRINTABLE) => {
    const v = r[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length > max || !pattern.test(v))
      return `${field} is not ${max > 100 ? 'a bounded printable text' : 'well formed'}`;
    return undefined;
  };
  if (!HOOK_OPS.includes(r.op as HookOp))
    return { error: `op must be one of ${HOOK_OPS.join(', ')}` };
  const bad =
    text('pane', 12, /^%\d{1,10}$/) ??
    text('key', 128, /^[A-Za-z0-9_-]{16,128}$/) ??
    text('event', 200) ??
    text('deliveryId', 200, /^[A-Za-z0-9][A-Za-z0-9._-]*$/);
  if (bad) return { error: bad };
  if (r.liveness !== undefined && !LIVENESS.includes(r.liveness as string))
    return { error: `liveness must be one of ${LIVENESS.join(', ')}` };
  if (r.blockedKind !== undefined && !BLOCKED_KINDS.includes(r.blockedKind as string))
    return { error: `blockedKind must be one of ${BLOCKED_KINDS.join(', ')}` };
  if (r.blockedKind !== undefined && r.liveness !== 'BLOCKED')
    return { error: 'blockedKind goes with liveness BLOCKED only' };
  if (r.op !== 'status' && r.pane === undefined) return { error: `op ${r.op} names no pane` };
  if (r.op === 'report' && r.liveness === undefined) return { error: 'op report needs a liveness' };
  if (r.op === 'notice' && r.deliveryId === undefined)
    return { error: 'op notice needs a deliveryId' };
  return r as unknown as HookRequest;
}

/** The provider's answer, one JSON line back. */
export type HookAnswer =
  | {
      ok: true;
      paneId?: string;
      agentId?: string;
      goalId?: string | null;
      liveness?: Liveness | null;
      blocked?: boolean;
      reported?: string | null;
      status?: ProviderStatus;
      /** op notice: the receipt recorded, or why not. */
      notice?: string;
    }
  | { ok: false; error: string };

/** What op status answers: the provider's instance, hook socket, notices switch and panes. */
export interface ProviderStatus {
  instanceId: string | null;
  hookSocket: string;
  notices: boolean;
  panes: PaneStatus[];
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

export interface HookServerOptions {
  socketPath: string;
  /**
   * The path was given (--hook-socket): a folder that is not private is an error. Otherwise
   * (the default path) the provider moves to a fresh private folder of its own.
   */
  explicit: boolean;
  client: SwitchboardClient;
  /** The provider's panes, by pane id. */
  panes: Map<string, Pane>;
  tracker: PaneTracker;
  reporter: Reporter;
  status: () => ProviderStatus;
  log: (line: string) => void;
}

/**
 * Why a folder is not this user's own private one (a real folder, owned by this user, mode
 * 0700 or narrower), or undefined when it is.
 */
function notPrivate(dir: string): string | undefined {
  const uid = process.getuid?.();
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
  if (!st.isDirectory()) return 'is not a folder (a link or a file)';
  if (uid !== undefined && st.uid !== uid)
    return `is owned by uid ${st.uid}, not by this user (${uid})`;
  if (st.mode & 0o077) return `is open to others (mode ${(st.mode & 0o777).toString(8)}, not 700)`;
  return undefined;
}

/** How long a connection may stay silent before the provider closes it. */
export const HOOK_IDLE_MS = 3000;
/** The longest request line the socket reads. */
const MAX_REQUEST = 4096;

/** The provider's side of the hook socket: one JSON line in, one JSON line out, per connection. */
export class HookServer {
  private server: Server | undefined;
  private path: string;
  /** A fresh folder this server made for itself, removed on close. */
  private ownFolder: string | undefined;

  constructor(private readonly o: HookServerOptions) {
    this.path = o.socketPath;
  }

  /** Where it listens (after listen: a fresh private folder when the default one was not). */
  get socketPath(): string {
    return this.path;
  }

  /**
   * Listens on the socket path, in a folder that is this user's own and private, readable and
   * writable by this user only. A folder someone else owns, or open to others, is never used:
   * an error for a path that was given, a fresh private folder for the default one.
   */
  async listen(): Promise<void> {
    const dir = path.dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const problem = notPrivate(dir);
    if (problem) {
      const refused = `the hook socket's folder ${dir} ${problem}`;
      if (this.o.explicit) throw new Error(`${refused}: refusing to listen there`);
      this.ownFolder = mkdtempSync(
        path.join(tmpdir(), `switchboard-${process.getuid?.() ?? 'u'}-`),
      );
      this.path = path.join(this.ownFolder, path.basename(this.path));
      this.o.log(`${refused}: listening in ${this.ownFolder} instead`);
    }
    rmSync(this.path, { force: true });
    this.server = createServer((socket) => this.connection(socket));
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.path, () => resolve());
    });
    chmodSync(this.path, 0o600);
  }

  private connection(socket: Socket): void {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    // A hook writes its one line at once: a connection that says nothing is closed.
    socket.setTimeout(HOOK_IDLE_MS, () => socket.destroy());
    const answer = (a: HookAnswer) => socket.end(`${JSON.stringify(a)}\n`);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) {
        if (buffer.length > MAX_REQUEST) socket.destroy();
        return;
      }
      const line = buffer.slice(0, newline);
      buffer = '';
      socket.removeAllListeners('data');
      const request = parseHookRequest(line);
      if ('error' in request) return answer({ ok: false, error: request.error });
      this.request(request)
        .then(answer)
        .catch((error) => answer({ ok: false, error: (error as Error).message }));
    });
  }

  /** A hook's report or question, for the pane it runs in and proves with the pane's key. */
  private async request(request: HookRequest): Promise<HookAnswer> {
    if (request.op === 'status') return { ok: true, status: this.o.status() };
    let pane = request.pane ? this.o.panes.get(request.pane) : undefined;
    if (!pane?.keyHash) {
      // A pane just opened, or bound a moment ago: read the server's panes once more.
      await this.o.tracker.scan();
      pane = request.pane ? this.o.panes.get(request.pane) : undefined;
    }
    if (!pane)
      return { ok: false, error: `pane ${request.pane ?? '(none)'} is not in this tmux server` };
    if (!pane.agentId) return { ok: false, error: `pane ${pane.id} is not bound to an agent` };
    if (!pane.keyHash)
      return {
        ok: false,
        error: `pane ${pane.id} has no hook key: start its agent with \`switchboard run\`, or export the ${PANE_KEY_ENV} that \`switchboard attach\` prints before starting it`,
      };
    if (!keyProves(request.key, pane.keyHash))
      return {
        ok: false,
        error: `refused: the request does not prove it comes from pane ${pane.id} (${PANE_KEY_ENV})`,
      };
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
      this.o.reporter.end(pane, `hook: ${request.event ?? 'session ended'}`);
      await this.sent();
      return { ...base, liveness: null };
    }
    if (request.op === 'report' && request.liveness) {
      if (pane.hookEnded) {
        // A new session in the same process (e.g. /clear): the hooks speak again.
        pane.hookEnded = false;
      }
      pane.hook = true;
      pane.hookAt = Date.now();
      this.o.reporter.setLiveness(
        pane,
        request.liveness,
        'LIFECYCLE_HOOK',
        `hook: ${request.event ?? request.liveness}`,
        request.blockedKind,
      );
      const sent = await this.sent();
      return {
        ...base,
        liveness: request.liveness,
        reported: pane.notReported
          ? `not reported: ${pane.notReported}`
          : sent
            ? 'reported'
            : 'queued: the gateway has not answered yet; sent when it does',
      };
    }
    if (request.op === 'notice' && request.deliveryId) {
      if (!pane.goalId || pane.notReported)
        return { ...base, notice: `not recorded: ${pane.notReported ?? 'no goal'}` };
      await this.o.reporter.flush(); // the hook's latest report first: the receipt is checked against it
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

  /**
   * Sends what the hook queued; true once sent, false after HOOK_SEND_WAIT_MS while the
   * gateway does not answer (cut off, or moving to another gateway): the hook is answered
   * then, and the report stays queued.
   */
  private sent(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.o.reporter.flush().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), HOOK_SEND_WAIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Stops listening and removes the socket. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    rmSync(this.path, { force: true });
    if (this.ownFolder) rmSync(this.ownFolder, { recursive: true, force: true });
  }
}

/** Sends one request to the provider's hook socket; resolves with its answer. */
export function askProvider(
  socketPath: string,
  request: HookRequest,
  timeoutMs = 3000,
): Promise<HookAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the provider at ${socketPath} did not answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`no provider at ${socketPath}: ${error.message}`));
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buffer.trim()) as HookAnswer);
      } catch {
        reject(new Error('the provider answered something that is not JSON'));
      }
    });
  });
}

/** What a Claude Code hook event means for presence. */
export type HookEffect =
  | { kind: 'report'; liveness: Liveness; blockedKind?: BlockedKind }
  | { kind: 'end' }
  | { kind: 'none'; why: string };

/** Claude Code's hook payload (https://docs.claude.com/en/docs/claude-code/hooks), the parts used. */
export interface ClaudeHookPayload {
  hook_event_name?: string;
  session_id?: string;
  message?: string;
  notification_type?: string;
  stop_hook_active?: boolean;
  source?: string;
  reason?: string;
}

/**
 * SessionStart → IDLE; UserPromptSubmit, PreToolUse → WORKING; a Notification asking for
 * permission or an answer → BLOCKED (the 60-second "waiting for your input" idle reminder is
 * not a question: IDLE); Stop → DONE; SessionEnd → ended. Anything else changes nothing.
 */
export function claudeEffect(payload: ClaudeHookPayload): HookEffect {
  switch (payload.hook_event_name) {
    case 'SessionStart':
      return { kind: 'report', liveness: 'IDLE' };
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
      return { kind: 'report', liveness: 'WORKING' };
    case 'Notification': {
      const type = payload.notification_type ?? '';
      const message = payload.message ?? '';
      if (type === 'idle_prompt' || /waiting for your input/i.test(message))
        return { kind: 'report', liveness: 'IDLE' };
      if (type === 'permission_prompt' || /permission|approv/i.test(message))
        return { kind: 'report', liveness: 'BLOCKED', blockedKind: 'PERMISSION' };
      if (type === 'elicitation_dialog' || /needs your (answer|input|decision)/i.test(message))
        return { kind: 'report', liveness: 'BLOCKED', blockedKind: 'QUESTION' };
      return { kind: 'none', why: 'a notification that is not a question' };
    }
    case 'Stop':
    case 'SubagentStop':
      return payload.hook_event_name === 'Stop'
        ? { kind: 'report', liveness: 'DONE' }
        : { kind: 'none', why: 'a subagent stopped; the session goes on' };
    case 'SessionEnd':
      return { kind: 'end' };
    default:
      return { kind: 'none', why: `event ${payload.hook_event_name ?? '(none)'} is not mapped` };
  }
}

/** The events `hooks install claude-code` registers. */
export const CLAUDE_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'Notification',
  'Stop',
  'SessionEnd',
] as const;

/** The arguments after the program in every hook command `hooks install` writes. */
export const HOOK_ARGS = 'hook claude-code';

interface HookEntry {
  type?: string;
  command?: string;
  [key: string]: unknown;
}
interface MatcherGroup {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}
interface Settings {
  hooks?: Record<string, MatcherGroup[]>;
  [key: string]: unknown;
}

export function claudeSettingsPath(scope: 'project' | 'user', cwd = process.cwd()): string {
  return scope === 'user'
    ? path.join(process.env.HOME || homedir(), '.claude', 'settings.json')
    : path.join(cwd, '.claude', 'settings.json');
}

function readSettings(file: string): Settings {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as Settings;
  } catch {
    throw new Error(`${file} is not valid JSON: fix it first (nothing was written)`);
  }
}

const settingsText = (settings: Settings) => `${JSON.stringify(settings, null, 2)}\n`;

function writeSettings(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** A hook command install wrote: a `switchboard` program (bare, or a path to the bin) and HOOK_ARGS. */
const isOurs = (entry: HookEntry) =>
  entry.type === 'command' &&
  typeof entry.command === 'string' &&
  /^(['"]?)(?:\S*\/)?switchboard(?:\.js)?\1 hook claude-code$/.test(entry.command.trim());

const ours = (group: MatcherGroup) => (group.hooks ?? []).some(isOurs);

/** Every hook command install wrote in `file`, by event (none when the file is absent). */
export function installedClaudeHooks(file: string): { event: string; command: string }[] {
  const found: { event: string; command: string }[] = [];
  for (const [event, groups] of Object.entries(readSettings(file).hooks ?? {}))
    for (const group of groups)
      for (const entry of group.hooks ?? [])
        if (isOurs(entry)) found.push({ event, command: entry.command as string });
  return found;
}

/**
 * Adds `command` to each event once, or sets it where an earlier install wrote another;
 * returns the events it changed and the file's text before (null when it did not exist).
 */
export function installClaudeHooks(
  file: string,
  command: string,
): { events: string[]; before: string | null } {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const settings = readSettings(file);
  settings.hooks ??= {};
  const changed: string[] = [];
  for (const event of CLAUDE_EVENTS) {
    const groups = settings.hooks[event] ?? [];
    settings.hooks[event] = groups;
    const entries = groups.flatMap((g) => (g.hooks ?? []).filter(isOurs));
    if (entries.length) {
      const stale = entries.filter((entry) => entry.command !== command);
      for (const entry of stale) entry.command = command;
      if (stale.length) changed.push(event);
      continue;
    }
    groups.push({
      ...(event === 'PreToolUse' || event === 'Notification' ? { matcher: '' } : {}),
      hooks: [{ type: 'command', command, timeout: 10 }],
    });
    changed.push(event);
  }
  if (changed.length) writeSettings(file, settingsText(settings));
  return { events: changed, before };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Removes exactly the groups install wrote; returns the events it touched. `before` is the
 * file's text before the first install (null: there was no file): when nothing else changed
 * since, the file goes back to exactly that (removed when there was none).
 */
export function uninstallClaudeHooks(file: string, before?: string | null): string[] {
  if (!existsSync(file)) return [];
  const settings = readSettings(file);
  const removed: string[] = [];
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    const kept = groups.filter((g) => !ours(g));
    if (kept.length === groups.length) continue;
    removed.push(event);
    if (kept.length) (settings.hooks as Record<string, MatcherGroup[]>)[event] = kept;
    else delete (settings.hooks as Record<string, MatcherGroup[]>)[event];
  }
  if (settings.hooks && Object.keys(settings.hooks).length === 0) delete settings.hooks;
  if (!removed.length) return removed;
  const original = before === undefined ? undefined : before === null ? {} : safeParse(before);
  if (original !== undefined && sameJson(settings, original)) {
    if (before === null) rmSync(file);
    else writeSettings(file, before as string);
  } else writeSettings(file, settingsText(settings));
  return removed;
}

function safeParse(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}
