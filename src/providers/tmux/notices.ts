/**
 * Safe-point notices for agents without hooks: "N unread messages: run switchboard next" typed
 * into a pane whose agent has messages it was never told about, only at a recognised agent's own
 * idle prompt with an empty input line, at most once per delivery, each followed by a
 * TERMINAL_NOTICE receipt; where typing is not safe, a message shown to the person in tmux
 * instead (TERMINAL_SIGNAL). `typeLine` is the one place the provider sends text into a pane.
 */
import {
  type DeliveryNoticeVia,
  PendingNoticesDocument,
  RecordDeliveryNoticeDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import { type Connection, type ControlClient, quote, SEP } from './connection.ts';
import type { Pane } from './pane.ts';
import { asksQuestion, type Patterns } from './patterns.ts';

export interface NoticesOptions {
  client: SwitchboardClient;
  /** The provider's panes, by pane id. */
  panes: Map<string, Pane>;
  connection: Connection;
  patterns: Patterns;
  /** Off (--no-notices): nothing is typed, and each pane's decision says so. */
  enabled: boolean;
  /** Quiet time after output before a screen counts as settled. */
  settleMs: number;
  log: (line: string) => void;
}

interface PendingNotice {
  deliveryId: string;
  agentId: string;
  providerSessionRef: string;
  occupantRef: string;
}

export class Notices {
  /** Deliveries a notice was typed for: at most once each, whatever the gateway answers. */
  private readonly noticed = new Set<string>();
  /** Deliveries the person was shown a message for instead: at most once each. */
  private readonly signalled = new Set<string>();
  /** Panes whose @switchboard_unread option this provider set. */
  private readonly marked = new Set<string>();
  /** One pendingNotices read per goal at a time, shared by the panes that ask. */
  private readonly pendingReads = new Map<string, Promise<PendingNotice[]>>();
  private stopped = false;

  constructor(private readonly o: NoticesOptions) {}

  /** Types nothing more. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Every reported pane not at work gets a look: a message may have arrived meanwhile. (A
   * pane whose hooks report is only told so in its status; it costs no read.)
   */
  poll(): void {
    for (const pane of this.o.panes.values())
      if (pane.live && !pane.dead && pane.liveness !== 'WORKING') void this.notify(pane);
  }

  /** The goal's pending notices; concurrent askers share one read. */
  private pending(goalId: string): Promise<PendingNotice[]> {
    const running = this.pendingReads.get(goalId);
    if (running) return running;
    const read = this.o.client
      .request(PendingNoticesDocument, { goalId })
      .then(({ pendingNotices: p }) => (p.__typename === 'PendingNotices' ? p.notices : []))
      .finally(() => this.pendingReads.delete(goalId));
    this.pendingReads.set(goalId, read);
    return read;
  }

  /**
   * Tells the pane's agent about messages it was never told about, and only in a way that is
   * safe there (docs/agents.md, "When Switchboard types into a pane"). It types
   * "N unread messages: run switchboard next" and Enter only into a recognised agent (the pane's
   * foreground program is one of its kind's commands) at that kind's own idle prompt (IDLE or
   * DONE, looked at again just before typing), with an empty input line that asks no question;
   * never while BLOCKED or WORKING, never over a draft, never into a pane whose hooks report
   * (they hand messages over themselves). Where the pane is not such a prompt — a shell, an
   * unknown program, a prompt pattern that cannot tell an empty line, a line asking a question —
   * it shows the person a message in tmux instead, without touching the pane's input
   * (TERMINAL_SIGNAL). Otherwise it waits for the next settled state or poll. Each delivery is
   * typed at most once and signalled at most once, each with its receipt.
   */
  async notify(pane: Pane): Promise<void> {
    if (pane.noticing || this.stopped || !pane.agentId || !pane.goalId || pane.notReported) return;
    if (!pane.live || pane.dead) return;
    const decide = (decision: string) => {
      pane.notice = decision;
      pane.noticeChecks++;
    };
    if (!this.o.enabled) return decide('off (--no-notices)');
    if (pane.hook)
      return decide('none: this agent reports through its hooks, which hand messages over');
    pane.noticing = true;
    try {
      const due = (await this.pending(pane.goalId)).filter(
        (n) =>
          n.agentId === pane.agentId &&
          n.providerSessionRef === pane.id &&
          n.occupantRef === pane.occupantRef &&
          !this.noticed.has(n.deliveryId),
      );
      const control = this.o.connection.of(pane.session);
      if (due.length === 0) {
        if (control && this.marked.delete(pane.id))
          await control.command(`set-option -p -u -t ${pane.id} @switchboard_unread`);
        return decide('nothing to notify');
      }
      const waiting = `waiting (${due.length} unread)`;
      if (pane.liveness === 'BLOCKED') return decide(`${waiting}: the pane is BLOCKED`);
      if (pane.liveness !== 'IDLE' && pane.liveness !== 'DONE')
        return decide(`${waiting}: the pane is ${pane.liveness ?? 'unclassified'}`);
      if (pane.draft) return decide(`${waiting}: the input line holds a draft`);
      // Look again just before typing: a person may have started typing since.
      if (!control) return decide(`${waiting}: no control client`);
      const [info, lines] = await Promise.all([
        control.command(
          `display-message -p -t ${pane.id} ${quote(['#{cursor_x}', '#{cursor_y}', '#{alternate_on}', '#{pane_current_command}'].join(SEP))}`,
        ),
        control.command(`capture-pane -p -t ${pane.id}`),
      ]);
      const [x, y, alt, program = ''] = (info[0] ?? '').split(SEP);
      const now = this.o.patterns.classify(
        pane.kind,
        { lines, cursorX: Number(x), cursorY: Number(y), alternate: alt === '1' },
        Date.now() - pane.lastOutput < this.o.settleMs,
      );
      const unsafe = !this.o.patterns.runs(pane.kind, program)
        ? `the pane's program ${program || '(none)'} is not a recognised ${pane.kind} agent`
        : now.state === 'prompt' && now.draft === undefined
          ? 'the prompt pattern cannot tell an empty input line (no draft group)'
          : now.state === 'prompt' && asksQuestion(lines[Number(y)] ?? '')
            ? 'the prompt line asks a question'
            : undefined;
      if (unsafe) return decide(await this.signal(control, pane, due, unsafe));
      if (now.state !== 'prompt') return decide(`${waiting}: ${now.reason}`);
      if (now.draft) return decide(`${waiting}: the input line holds a draft`);
      if (this.o.panes.get(pane.id) !== pane || pane.hook || this.stopped)
        return decide(`${waiting}: the pane changed`);
      const text = noticeText(due.length);
      for (const n of due) this.noticed.add(n.deliveryId);
      await typeLine(control, pane.id, text);
      const recorded = await this.record(pane, due, 'TERMINAL_NOTICE', text);
      decide(`typed for ${due.map((n) => n.deliveryId).join(', ')} (${recorded} recorded)`);
    } catch (error) {
      decide(`failed: ${(error as Error).message}`);
    } finally {
      pane.noticing = false;
    }
  }

  /**
   * Tells the person, never the program: a message on the status line of each person's client
   * showing the pane's session, and the pane option @switchboard_unread (the count, for a status
   * line format), each delivery at most once, with its TERMINAL_SIGNAL receipt.
   */
  private async signal(
    control: ControlClient,
    pane: Pane,
    due: PendingNotice[],
    why: string,
  ): Promise<string> {
    const decision = `signalled, not typed (${due.length} unread): ${why}`;
    const fresh = due.filter((n) => !this.signalled.has(n.deliveryId));
    if (fresh.length === 0) return decision;
    for (const n of fresh) this.signalled.add(n.deliveryId);
    this.marked.add(pane.id);
    await control.command(`set-option -p -t ${pane.id} @switchboard_unread ${due.length}`);
    // display-message expands formats and strftime: the text has no # or %.
    const text = `Switchboard: ${unread(due.length)} for ${pane.agentId} (switchboard next)`;
    const clients = await control.command(
      `list-clients -F ${quote(['#{client_name}', '#{session_name}', '#{client_control_mode}'].join(SEP))}`,
    );
    for (const line of clients) {
      const [name = '', session, controlMode] = line.split(SEP);
      if (controlMode !== '1' && session === pane.session)
        await control.command(`display-message -c ${quote(name)} -d 10000 ${quote(text)}`);
    }
    await this.record(pane, fresh, 'TERMINAL_SIGNAL', text);
    return decision;
  }

  /** Records the receipt of each delivery; returns how many the gateway recorded. */
  private async record(
    pane: Pane,
    notices: PendingNotice[],
    via: DeliveryNoticeVia,
    text: string,
  ): Promise<number> {
    const observedAt = new Date().toISOString();
    let recorded = 0;
    for (const n of notices) {
      const { recordDeliveryNotice: r } = await this.o.client.request(
        RecordDeliveryNoticeDocument,
        {
          input: {
            goalId: pane.goalId as string,
            deliveryId: n.deliveryId,
            via,
            providerSessionRef: pane.id,
            text,
            observedAt,
          },
        },
      );
      if (r.__typename === 'DeliveryNotice') recorded++;
      else
        this.o.log(
          `${via} for ${n.deliveryId} given but not recorded: ${r.__typename === 'DeliveryNoticeRefused' ? r.reason : 'scope gap'}`,
        );
    }
    return recorded;
  }
}

/**
 * The notice typed into an agent's prompt: plain words, with nothing a shell or a prompt could
 * take as syntax (no quotes, backquotes, $, ;, |, &, <, >, #, %, brackets or newline).
 */
export const noticeText = (count: number) => `${unread(count)}: run switchboard next`;

const unread = (count: number) => `${count} unread message${count === 1 ? '' : 's'}`;

/** Types one line into a pane and presses Enter: the one place the provider sends keys. */
async function typeLine(control: ControlClient, paneId: string, text: string): Promise<void> {
  await control.command(`send-keys -t ${paneId} -l ${quote(text)}`);
  await control.command(`send-keys -t ${paneId} Enter`);
}
