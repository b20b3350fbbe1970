/**
 * The tmux provider's reports to the gateway: the one place a pane's state becomes a presence
 * report or an end. Reports are kept per pane (the latest wins) and sent in batches, ends
 * first; a report the gateway refuses is set aside (it applies the rest), one it rejects as bad
 * input is dropped alone with one log line, and what could not be sent is queued again for a
 * send that backs off (doubling, up to 5 s) while the gateway cannot be reached. The report
 * sequence is time-based and strictly increasing, so it stays monotonic across the provider's
 * restarts. Once a pane's presence is accepted, bounded excerpts of its
 * screen follow as observations, on a chain of their own.
 */
import {
  type BlockedKind,
  ClientError,
  ClientErrorKind,
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

/** The longest wait between sends while the gateway cannot be reached. */
export const MAX_BACKOFF_MS = 5000;

type QueuedReport = PresenceReportInput & { paneId: string };

/** A report's explain: one printable line of at most 160 characters. */
const oneLine = (text: string) => {
  const line = text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ');
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
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
  private readonly queue = new Map<string, QueuedReport>();
  /**
   * A pane's WORKING report that a later one replaced before it was sent: it goes first, in
   * the same batch, so work shorter than a send is still reported (over a slow link a whole
   * burst of work can begin and end within one round trip). Only WORKING: a screen read
   * BLOCKED for a moment while output is still being written is not kept.
   */
  private readonly activity = new Map<string, QueuedReport>();
  private ends: { paneId: string; goalId: string; agentId: string }[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private observing: Promise<void> = Promise.resolve();
  /** Sends failed in a row (the gateway unreachable): the next send backs off. */
  private failures = 0;
  private stopped = false;

  constructor(private readonly o: ReporterOptions) {}

  /**
   * Records the pane's liveness as its deciding source gives it (with BLOCKED, what it waits
   * for; `explain` is sent as the report's explain); queues a report unless that much was
   * reported already.
   */
  setLiveness(
    pane: Pane,
    liveness: Liveness,
    basis: PresenceBasis,
    explain: string,
    blockedKind?: BlockedKind,
  ): void {
    pane.liveness = liveness;
    pane.basis = basis;
    pane.reason = explain;
    pane.blockedKind = liveness === 'BLOCKED' ? blockedKind : undefined;
    if (
      pane.reportedLiveness === liveness &&
      pane.reportedOccupant === pane.occupantRef &&
      pane.reportedBasis === basis &&
      pane.reportedBlockedKind === pane.blockedKind
    )
      return;
    this.enqueue(pane);
  }

  /** The occupant is gone (or no longer bound): its presence ends, if it was accepted. */
  end(pane: Pane, reason: string): void {
    pane.reason = reason;
    this.queue.delete(pane.id);
    this.activity.delete(pane.id);
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

  /** Drops the queued reports: their panes belonged to a tmux server that is gone (ends still go). */
  clear(): void {
    this.queue.clear();
    this.activity.clear();
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
    const queued = this.queue.get(pane.id);
    if (
      queued &&
      queued.liveness === 'WORKING' &&
      pane.liveness !== 'WORKING' &&
      queued.occupantRef === pane.occupantRef
    )
      this.activity.set(pane.id, queued);
    this.queue.set(pane.id, {
      paneId: pane.id,
      goalId: pane.goalId,
      agentId: pane.agentId,
      providerSessionRef: pane.id,
      occupantRef: pane.occupantRef,
      liveness: pane.liveness,
      basis: pane.basis,
      explain: oneLine(pane.reason),
      ...(pane.blockedKind ? { blockedKind: pane.blockedKind } : {}),
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

  /**
   * Sends what is queued after batchMs, unless a send is already due; after failed sends,
   * after a delay that doubles with each failure up to MAX_BACKOFF_MS.
   */
  schedule(): void {
    if (this.flushTimer || this.stopped) return;
    if (this.queue.size === 0 && this.ends.length === 0) return;
    const delay = Math.min(this.o.batchMs * 2 ** this.failures, MAX_BACKOFF_MS);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, delay);
  }

  /** Sends what is queued: ends, then batches of reports, then observations. */
  flush(): Promise<void> {
    const run = async () => {
      await this.flushing;
      if ((await this.sendEnds()) && (await this.sendReports())) this.failures = 0;
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

  /**
   * A send failed. Input the gateway refuses is dropped with one log line (sending it again
   * would fail again); anything else (the gateway unreachable, a server error) is kept for the
   * next send, which backs off. Returns whether the failure was of the send, not the input.
   */
  private failed(error: unknown, what: string): boolean {
    if (error instanceof ClientError && error.kind === ClientErrorKind.BAD_USER_INPUT) {
      this.o.log(`${what} dropped, the gateway refused it: ${error.message}`);
      return false;
    }
    this.failures++;
    this.o.log(`${what} failed (retrying): ${(error as Error).message}`);
    return true;
  }

  /** Sends the queued ends; false when the gateway could not be reached (the rest stay queued). */
  private async sendEnds(): Promise<boolean> {
    while (this.ends.length) {
      const end = this.ends[0] as (typeof this.ends)[number];
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
        if (this.failed(error, `endPresence for ${end.agentId} at ${end.paneId}`)) return false;
      }
      this.ends.shift();
    }
    return true;
  }

  /**
   * Sends the queued reports in one batch. The gateway judges each report on its own: a
   * malformed one (INVALID_REPORT) is dropped with one log line, one naming an agent or goal
   * that is not the provider's marks its pane not reported. A batch it rejects whole as bad
   * input is sent again report by report, so the one it cannot take is dropped alone; when the
   * gateway cannot be reached (or refuses the whole call), the batch is queued again (a newer
   * report for the same pane wins). False in that last case.
   */
  private async sendReports(): Promise<boolean> {
    const batches = [[...this.activity.values(), ...this.queue.values()]];
    this.activity.clear();
    this.queue.clear();
    while (batches.length) {
      const batch = batches.shift() as QueuedReport[];
      if (batch.length === 0) continue;
      const reports = batch.map(({ paneId: _, ...r }) => ({ ...r, reportSeq: this.seq() }));
      let result: Awaited<ReturnType<Reporter['report']>>;
      try {
        result = await this.report(reports);
      } catch (error) {
        const first = batch[0] as QueuedReport;
        if (
          batch.length > 1 &&
          error instanceof ClientError &&
          error.kind === ClientErrorKind.BAD_USER_INPUT
        ) {
          batches.unshift(...batch.map((r) => [r]));
          continue;
        }
        if (!this.failed(error, `report for ${first.agentId} at ${first.paneId}`)) continue;
        this.requeue([...batch, ...batches.flat()]);
        return false;
      }
      if (result.__typename === 'PresenceRefused') {
        // The whole call (an unregistered provider): nothing was written; try again later.
        this.failures++;
        this.o.log(`reportPresence refused: ${result.reason}`);
        this.requeue([...batch, ...batches.flat()]);
        return false;
      }
      const refused = new Map(result.refused.map((r) => [r.index, r]));
      for (const [index, r] of batch.entries()) {
        const pane = this.o.panes.get(r.paneId);
        const refusal = refused.get(index);
        if (refusal?.reason === 'INVALID_REPORT') {
          this.o.log(
            `report for ${r.agentId} at ${r.paneId} dropped, the gateway refused it: ${refusal.field ?? ''} ${refusal.message ?? ''}`,
          );
          continue;
        }
        if (pane && refusal) {
          // Not this provider's agent or goal: nothing more is reported for the pane.
          pane.notReported = `refused: ${refusal.reason}`;
          continue;
        }
        if (!pane || pane.occupantRef !== r.occupantRef) continue;
        pane.live = true;
        pane.reportedLiveness = r.liveness;
        pane.reportedOccupant = r.occupantRef;
        pane.reportedBasis = r.basis;
        pane.reportedBlockedKind = r.blockedKind ?? undefined;
      }
    }
    return true;
  }

  /**
   * Queues again what could not be sent: a pane's last report unless a newer one is queued,
   * and its earlier WORKING report first.
   */
  private requeue(reports: QueuedReport[]): void {
    const latest = new Map(reports.map((r) => [r.paneId, r]));
    for (const r of reports) {
      if (latest.get(r.paneId) !== r) {
        if (!this.activity.has(r.paneId)) this.activity.set(r.paneId, r);
      } else if (!this.queue.has(r.paneId)) this.queue.set(r.paneId, r);
    }
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
