/**
 * One pane as the tmux provider knows it: its occupant (pane id, pid, command, agent kind), its
 * binding to an agent and goal, the liveness the screen or the agent's hooks last gave it, what
 * was last reported for it and the notice decided for it. The provider's rooms share these
 * records by pane id; `paneStatus` is what `provider tmux --status` shows of one.
 */
import type { BlockedKind, Liveness, PresenceBasis } from '../../client/index.ts';
import { StatusScanner } from './program-status.ts';

export interface Pane {
  id: string;
  session: string;
  pid: number;
  command: string;
  dead: boolean;
  agentId?: string;
  goalId?: string;
  /**
   * The hash of the pane key its hooks prove themselves with, taken from @switchboard_key the
   * first time it is seen for this occupant and binding, and kept: a later change of the option
   * cannot move the hooks' authority to another key.
   */
  keyHash?: string;
  kind: string;
  occupantRef: string;
  liveness?: Liveness;
  /** With BLOCKED: what it waits for, when its source says. */
  blockedKind?: BlockedKind;
  /** Which source decided, and how (sent as the report's explain). */
  basis: PresenceBasis;
  reason: string;
  /** What the screen showed at the last look, whether or not the screen decides. */
  screen?: string;
  draft?: string;
  notReported?: string;
  /** Presence for this occupant was accepted and not yet ended. */
  live: boolean;
  reportedLiveness?: Liveness;
  reportedOccupant?: string;
  reportedBasis?: PresenceBasis;
  reportedBlockedKind?: BlockedKind;
  /** The agent's hooks reported for this occupant (they hand messages over themselves). */
  hook: boolean;
  /** When the hooks last reported: they decide while they report. */
  hookAt?: number;
  /** The program's own last OSC 7501 status (root record) and when: it decides after hooks. */
  program?: { liveness: Liveness; blockedKind?: BlockedKind; explain: string; at: number };
  /** Reads OSC 7501 from this occupant's output. */
  scanner: StatusScanner;
  /** The hooks said the session ended: nothing more for this occupant. */
  hookEnded: boolean;
  wasWorking: boolean;
  /** The screen above the cursor when last seen at an empty prompt (a change is a turn). */
  promptScreen?: string;
  lastOutput: number;
  /** Its process was seen alive by this provider (so its absence means it exited). */
  pidSeen?: boolean;
  /** Its process exited (the kernel said so before tmux did): the next scan ends it. */
  exited?: boolean;
  /** The first output since the screen was last looked at, if any. */
  unseenSince?: number;
  /** When the screen was last looked at. */
  lastLook: number;
  timer?: NodeJS.Timeout;
  checking: boolean;
  recheck: boolean;
  lastSnapshot: string[];
  observe: boolean;
  notice?: string;
  noticeChecks: number;
  noticing: boolean;
}

/** A new occupant's record: not yet classified, bound or reported. */
export function newPane(o: {
  id: string;
  session: string;
  pid: number;
  command: string;
  dead: boolean;
  kind: string;
}): Pane {
  return {
    ...o,
    occupantRef: `tmux:${o.id}:${o.pid}:${o.command}:${o.kind}`,
    basis: 'PROVIDER_DETECTION',
    reason: 'not yet classified',
    live: false,
    hook: false,
    hookEnded: false,
    wasWorking: false,
    lastOutput: 0,
    lastLook: 0,
    checking: false,
    recheck: false,
    lastSnapshot: [],
    observe: true,
    noticeChecks: 0,
    noticing: false,
    scanner: new StatusScanner(),
  };
}

export interface PaneStatus {
  paneId: string;
  session: string;
  pid: number;
  command: string;
  kind: string;
  agentId: string | null;
  goalId: string | null;
  occupantRef: string;
  liveness: Liveness | null;
  basis: PresenceBasis;
  reason: string;
  /**
   * Whether the input line holds typed text (null: the prompt pattern cannot tell). The text
   * itself is never shown: a person's draft is theirs.
   */
  draft: boolean | null;
  /** Whether hooks can prove this pane (it has a pane key). */
  hookKey: boolean;
  /** The program's last own status (OSC 7501), whether or not it decides now. */
  program: string | null;
  /** What the screen showed at the last look, whether or not the screen decides. */
  screen: string | null;
  /** The last safe-point notice decision for this pane (typed, waiting and why, off). */
  notice: string | null;
  /** How many times the provider decided about a notice for this pane. */
  noticeChecks: number;
  /** Why nothing is reported for this pane (unbound panes are not listed). */
  notReported: string | null;
  dead: boolean;
}

/** What `provider tmux --status` shows of a pane. */
export function paneStatus(p: Pane): PaneStatus {
  return {
    paneId: p.id,
    session: p.session,
    pid: p.pid,
    command: p.command,
    kind: p.kind,
    agentId: p.agentId ?? null,
    goalId: p.goalId ?? null,
    occupantRef: p.occupantRef,
    liveness: p.liveness ?? null,
    basis: p.basis,
    reason: p.reason,
    draft: p.draft === undefined ? null : p.draft !== '',
    hookKey: p.keyHash !== undefined,
    program: p.program?.explain ?? null,
    screen: p.screen ?? null,
    notice: p.notice ?? null,
    noticeChecks: p.noticeChecks,
    notReported: p.notReported ?? null,
    dead: p.dead,
  };
}
