/**
 * The tmux provider's reports to the gateway: the one place a pane's state becomes a presence
 * report or an end. Reports are kept per pane (the latest wins) and sent in batches, ends
 * first; a refused report is set aside (the gateway applies the rest), a batch that fails is
 * queued again. The report sequence is time-based and strictly increasing, so it stays monotonic
 * across the provider's restarts. Once a pane's presence is accepted, bounded excerpts of its
 * screen follow as observations, on a chain of their own.
 */
import {
  EndPresenceDocument,
  type Liveness,
  type ObservationLimit,
  type ObservationSource,
  type PresenceBasis,
  type PresenceReportInput,
  ReportObservationDocument,
  ReportPresenceDocument,
  type SwitchboardClient,
} from '../../client/index.ts';
import { type Connection, quote, SEP } from './connection.ts';
import type { Pane } from './pane.ts';

export const OBSERVATION_BOUNDS: Record<'VIEWPORT' | 'RECENT' | 'DETECTION_SNAPSHOT', number> = {
  VIEWPORT: 200,
  RECENT: 500,
  DETECTION_SNAPSHOT: 12,
};

export interface ReporterOptions {
  client: SwitchboardClient;
  /** The provider's panes, by pane id. */
  panes: Map<string, Pane>;
  connection: Connection;
  /** Reports are gathered this long into one batch. */
  batchMs: number;
  log: (line: string) => void;
}

export class Reporter {
  private lastSeq = 0n;
  private readonly queue = new Map<string, PresenceReportInput & { paneId: string }>();
  private ends: { paneId: string; goalId: string; agentId: string }[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private observing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: ReporterOptions) {}

  /** Records the pane's liveness; queues a report unless that much was reported already. */
  setLiveness(pane: Pane, liveness: Liveness, basis: PresenceBasis): void {
    pane.liveness = liveness;
    pane.basis = basis;
    if (
      pane.reportedLiveness === liveness &&
      pane.reportedOccupant === pane.occupantRef &&
      pane.reportedBasis === basis
    )
      return;
    this.enqueue(pane);
  }

  /** The occupant is gone (or no longer bound): its presence ends, if it was accepted. */
  end(pane: Pane, reason: string): void {
    pane.reason = reason;
    this.queue.delete(pane.id);
    if (pane.live && pane.agentId && pane.goalId) {
      this.ends.push({ paneId: pane.id, goalId: pane.goalId, agentId: pane.agentId });
      pane.live = false;
      pane.reportedLiveness = undefined;
      pane.reportedOccupant = undefined;
      this.schedule();
    }
  }

  /** Reports every live pane again, so its presence outlives the TTL. */
  heartbeat(): void {
    for (const pane of this.o.panes.values())
      if (pane.live && !pane.dead && !pane.hookEnded) this.enqueue(pane);
  }

  /** Drops what is queued: its panes belonged to a tmux server that is gone. */
  clear(): void {
    this.queue.clear();
    this.ends = [];
  }

  /** Sends nothing more; resolves once what is being sent is sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await this.flushing;
    await this.observing;
  }

  private enqueue(pane: Pane): void {
    if (!pane.agentId || !pane.goalId || pane.notReported || !pane.liveness) return;
    this.queue.set(pane.id, {
      paneId: pane.id,
      goalId: pane.goalId,
      agentId: pane.agentId,
      providerSessionRef: pane.id,
      occupantRef: pane.occupantRef,
      liveness: pane.liveness,
      basis: pane.basis,
      observedAt: new Date().toISOString(),
      reportSeq: '0',
    });
    pane.observe = true;
    this.schedule();
  }

  private seq(): string {
    const now = BigInt(Date.now()) * 1000n;
    this.lastSeq = now > this.lastSeq ? now : this.lastSeq + 1n;
    return this.lastSeq.toString();
  }

  /** Sends what is queued after batchMs, unless a send is already due. */
  schedule(): void {
    if (this.flushTimer || this.stopped) return;
    if (this.queue.size === 0 && this.ends.length === 0) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.o.batchMs);
  }

  /** Sends what is queued: ends, then one batch of reports, then observations. */
  flush(): Promise<void> {
    const run = async () => {
      await this.flushing;
      const ends = this.ends.splice(0);
      for (const end of ends) {
        try {
          await this.o.client.request(EndPresenceDocument, {
            input: {
              goalId: end.goalId,
              agentId: end.agentId,
              providerSessionRef: end.paneId,
              observedAt: new Date().toISOString(),
              reportSeq: this.seq(),
            },
          });
        } catch (error) {
          this.o.log(`endPresence failed: ${(error as Error).message}`);
        }
      }
      let batch = [...this.queue.values()];
      this.queue.clear();
      while (batch.length) {
        const reports = batch.map(({ paneId: _, ...r }) => ({ ...r, reportSeq: this.seq() }));
        let result: Awaited<ReturnType<typeof this.report>>;
        try {
          result = await this.report(reports);
        } catch (error) {
          this.o.log(`reportPresence failed: ${(error as Error).message}`);
          for (const r of batch) if (!this.queue.has(r.paneId)) this.queue.set(r.paneId, r);
          break;
        }
        if (result.__typename === 'PresenceRefused') {
          const refused = batch[result.index];
          const pane = refused && this.o.panes.get(refused.paneId);
          if (pane) pane.notReported = `refused: ${result.reason}`;
          batch = batch.filter((_, i) => i !== result.index);
          continue;
        }
        const refused = new Map(result.refused.map((r) => [r.index, r]));
        for (const [index, r] of batch.entries()) {
          const pane = this.o.panes.get(r.paneId);
          const refusal = refused.get(index);
          if (pane && refusal) {
            pane.notReported = `refused: ${refusal.reason}${refusal.message ? ` (${refusal.message})` : ''}`;
            continue;
          }
          if (!pane || pane.occupantRef !== r.occupantRef) continue;
          pane.live = true;
          pane.reportedLiveness = r.liveness;
          pane.reportedOccupant = r.occupantRef;
          pane.reportedBasis = r.basis;
        }
        break;
      }
      // Observations go on their own chain: they never delay the next presence batch.
      for (const pane of this.o.panes.values())
        if (pane.observe && pane.live && !pane.dead) {
          pane.observe = false;
          this.observing = this.observing.then(() =>
            this.observe(pane).catch((error) =>
              this.o.log(`reportObservation failed: ${(error as Error).message}`),
            ),
          );
        }
      if (this.queue.size || this.ends.length) this.schedule();
    };
    const p = run();
    this.flushing = p;
    return p;
  }

  private async report(reports: PresenceReportInput[]) {
    const { reportPresence } = await this.o.client.request(ReportPresenceDocument, { reports });
    return reportPresence;
  }

  /** Reports bounded capture-pane excerpts of the declared sources. */
  private async observe(pane: Pane): Promise<void> {
    const control = this.o.connection.of(pane.session);
    if (!control || !pane.agentId || !pane.goalId) return;
    const [info, viewport, recent] = await Promise.all([
      control.command(
        `display-message -p -t ${pane.id} ${quote(['#{alternate_on}', '#{history_size}'].join(SEP))}`,
      ),
      control.command(`capture-pane -p -t ${pane.id}`),
      control.command(`capture-pane -p -J -t ${pane.id} -S -${OBSERVATION_BOUNDS.RECENT}`),
    ]);
    const [alt] = (info[0] ?? '').split(SEP);
    const capturedAt = new Date().toISOString();
    const trim = (lines: string[]) => {
      let end = lines.length;
      while (end > 0 && !(lines[end - 1] ?? '').trim()) end--;
      return lines.slice(0, end);
    };
    const sends: [ObservationSource, string[], ObservationLimit[]][] = [
      ['VIEWPORT', trim(viewport).slice(-OBSERVATION_BOUNDS.VIEWPORT), []],
      [
        'RECENT',
        trim(recent).slice(-OBSERVATION_BOUNDS.RECENT),
        alt === '1' ? ['ALTERNATE_SCREEN_NOT_IN_SCROLLBACK'] : [],
      ],
      [
        'DETECTION_SNAPSHOT',
        trim(pane.lastSnapshot.length ? pane.lastSnapshot : viewport).slice(
          -OBSERVATION_BOUNDS.DETECTION_SNAPSHOT,
        ),
        [],
      ],
    ];
    for (const [source, lines, limits] of sends)
      await this.o.client.request(ReportObservationDocument, {
        input: { goalId: pane.goalId, agentId: pane.agentId, source, lines, capturedAt, limits },
      });
  }
}
