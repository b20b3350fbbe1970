/**
 * Agent lifecycle hooks: the hook side of the local socket, Claude Code's and Codex's event
 * mapping, and `hooks install|uninstall claude-code`. A hook never reports to the gateway
 * itself: it hands its report to the local tmux provider (one credential, one reporter), and
 * uses the agent's own PEER credential only to take its next message at a safe point.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Liveness } from '../../client/index.ts';
import type { HookAnswer, HookRequest } from './provider.ts';

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
  | { kind: 'report'; liveness: Liveness }
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
      if (
        type === 'permission_prompt' ||
        type === 'elicitation_dialog' ||
        /permission|approv|needs your (answer|input|decision)/i.test(message)
      )
        return { kind: 'report', liveness: 'BLOCKED' };
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

export const HOOK_COMMAND = 'switchboard hook claude-code';

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

function writeSettings(file: string, settings: Settings): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temporary, file);
}

const ours = (group: MatcherGroup) =>
  (group.hooks ?? []).some((h) => h.type === 'command' && h.command === HOOK_COMMAND);

/** Adds our hook to each event once; returns the events it added. */
export function installClaudeHooks(file: string, command = HOOK_COMMAND): string[] {
  const settings = readSettings(file);
  settings.hooks ??= {};
  const added: string[] = [];
  for (const event of CLAUDE_EVENTS) {
    const groups = settings.hooks[event] ?? [];
    settings.hooks[event] = groups;
    if (groups.some(ours)) continue;
    groups.push({
      ...(event === 'PreToolUse' || event === 'Notification' ? { matcher: '' } : {}),
      hooks: [{ type: 'command', command, timeout: 10 }],
    });
    added.push(event);
  }
  if (added.length) writeSettings(file, settings);
  return added;
}

/** Removes exactly the groups install wrote; returns the events it touched. */
export function uninstallClaudeHooks(file: string): string[] {
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
  if (removed.length) writeSettings(file, settings);
  return removed;
}
