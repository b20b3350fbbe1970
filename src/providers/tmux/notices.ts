/**
 * Safe-point notices for agents without hooks: "N unread messages — run `switchboard next`"
 * typed into a pane whose agent has messages it was never told about, only when that is safe
 * (the pane IDLE or DONE, its input line empty), at most once per delivery, each followed by a
 * TERMINAL_NOTICE receipt. `typeLine` is the one place the provider sends text into a pane.
 */
import {
  PendingNoticesDocument,
  RecordDeliveryNoticeDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import { type Connection, type ControlClient, quote, SEP } from './connection.ts';
import type { Pane } from './pane.ts';
import type { Patterns } from './patterns.ts';

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
   * Types "N unread messages — run `switchboard next`" into the pane when its agent has
   * messages it was never told about, and only at a safe point: the pane IDLE or DONE, its
   * input line empty, looked at again just before typing; never BLOCKED; never a pane whose
   * agent reports through hooks (they hand messages over themselves). Otherwise it waits for
   * the next settled state or poll. Each delivery is noticed at most once, then a
   * TERMINAL_NOTICE receipt is recorded for it.
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
      const goalId = pane.goalId;
      const due = (await this.pending(goalId)).filter(
        (n) =>
          n.agentId === pane.agentId &&
          n.providerSessionRef === pane.id &&
          n.occupantRef === pane.occupantRef &&
          !this.noticed.has(n.deliveryId),
      );
      if (due.length === 0) return decide('nothing to notify');
      const waiting = `waiting (${due.length} unread)`;
      if (pane.hook) return decide('none: this agent reports through its hooks');
      if (pane.liveness === 'BLOCKED') return decide(`${waiting}: the pane is BLOCKED`);
      if (pane.liveness !== 'IDLE' && pane.liveness !== 'DONE')
        return decide(`${waiting}: the pane is ${pane.liveness ?? 'unclassified'}`);
      if (pane.draft) return decide(`${waiting}: the input line holds a draft`);
      // Look again just before typing: a person may have started typing since.
      const control = this.o.connection.of(pane.session);
      if (!control) return decide(`${waiting}: no control client`);
      const [info, lines] = await Promise.all([
        control.command(
          `display-message -p -t ${pane.id} ${quote(['#{cursor_x}', '#{cursor_y}', '#{alternate_on}'].join(SEP))}`,
        ),
        control.command(`capture-pane -p -t ${pane.id}`),
      ]);
      const [x, y, alt] = (info[0] ?? '').split(SEP);
      const now = this.o.patterns.classify(
        pane.kind,
        { lines, cursorX: Number(x), cursorY: Number(y), alternate: alt === '1' },
        Date.now() - pane.lastOutput < this.o.settleMs,
      );
      if (now.state !== 'prompt') return decide(`${waiting}: ${now.reason}`);
      if (now.draft === undefined)
        return decide(
          `${waiting}: the prompt pattern cannot tell an empty input line (no draft group)`,
        );
      if (now.draft) return decide(`${waiting}: the input line holds a draft`);
      if (this.o.panes.get(pane.id) !== pane || pane.hook || this.stopped)
        return decide(`${waiting}: the pane changed`);
      const text = `${due.length} unread message${due.length === 1 ? '' : 's'} — run \`switchboard next\``;
      for (const n of due) this.noticed.add(n.deliveryId);
      await typeLine(control, pane.id, text);
      const observedAt = new Date().toISOString();
      const recorded: string[] = [];
      for (const n of due) {
        const { recordDeliveryNotice: r } = await this.o.client.request(
          RecordDeliveryNoticeDocument,
          {
            input: {
              goalId,
              deliveryId: n.deliveryId,
              via: 'TERMINAL_NOTICE',
              providerSessionRef: pane.id,
              text,
              observedAt,
            },
          },
        );
        if (r.__typename === 'DeliveryNotice') recorded.push(n.deliveryId);
        else
          this.o.log(
            `notice for ${n.deliveryId} typed but not recorded: ${r.__typename === 'DeliveryNoticeRefused' ? r.reason : 'scope gap'}`,
          );
      }
      decide(`typed for ${due.map((n) => n.deliveryId).join(', ')} (${recorded.length} recorded)`);
    } catch (error) {
      decide(`failed: ${(error as Error).message}`);
    } finally {
      pane.noticing = false;
    }
  }
}

/** Types one line into a pane and presses Enter: the one place the provider sends keys. */
async function typeLine(control: ControlClient, paneId: string, text: string): Promise<void> {
  await control.command(`send-keys -t ${paneId} -l ${quote(text)}`);
  await control.command(`send-keys -t ${paneId} Enter`);
}
