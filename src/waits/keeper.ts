import { DONE } from '../core/stream.ts';
import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { agentChangesBetween, CHANGE_PAGE, changesAfter } from '../presence/pins.ts';
import type { PresenceChangeRow } from '../presence/tables.ts';
import { GoalWatchers } from '../presence/watchers.ts';
import { byAgent, type Outcome, recordOutcomes, Settler, type Wait } from './waits.ts';

/**
 * Watches the waits that clients on this instance subscribe to, grouped by goal (GoalWaits).
 * A settle of a goal costs what changed, not how many waits are pending: a page of changes is
 * applied only to the waits of the agents in it, newcomers are caught up together, and only
 * the waits whose deadline passed are expired. One statement records all the outcomes a
 * settle decides. A presence ring, the earliest deadline, a newcomer and a reconnect of the
 * listening connection each settle the goal (GoalWatchers, with one member per goal).
 */
export class WaitKeeper {
  private readonly watchers: GoalWatchers<GoalWaits>;
  private readonly goals = new Map<string, GoalWaits>();

  constructor(
    private readonly db: Db,
    doorbell: Doorbell,
  ) {
    this.watchers = new GoalWatchers(doorbell, (goalId, [goal]) =>
      goal ? this.settleGoal(goalId, goal) : Promise.resolve(),
    );
  }

  /**
   * The wait as it is now, then (if it was pending) exactly one terminal state, then the end.
   * A wait `started` by this subscription always shows itself PENDING first, with what could
   * and could not be pinned, also when it ended at once.
   */
  watch(wait: Wait, started = false): AsyncIterableIterator<Wait> {
    const endedAtOnce = wait.row.status !== 'PENDING';
    const first = started && endedAtOnce ? [asPending(wait), wait] : [wait];
    return new WaitStream(this, first, new Settler(wait), !endedAtOnce);
  }

  close(): void {
    this.watchers.close();
    this.goals.clear();
  }

  /** A stream's first wait for its terminal state: it joins its goal as a newcomer. */
  join(stream: WaitStream): GoalWaits {
    const { goalId } = stream.settler.wait.row;
    let goal = this.goals.get(goalId);
    if (!goal) {
      goal = new GoalWaits();
      this.goals.set(goalId, goal);
      this.watchers.join(goalId, goal);
    }
    goal.size++;
    goal.newcomers.add(stream);
    void this.watchers.pump(goalId);
    return goal;
  }

  /** The stream leaves its goal, wherever it stands in it (returned, or finished). */
  leave(stream: WaitStream, goal: GoalWaits): void {
    if (!goal.forget(stream)) return;
    if (goal.size > 0) return;
    const { goalId } = stream.settler.wait.row;
    if (this.goals.get(goalId) === goal) this.goals.delete(goalId);
    this.watchers.leave(goalId, goal);
  }

  private async settleGoal(goalId: string, goal: GoalWaits): Promise<void> {
    await this.catchUp(goalId, goal);
    await this.readOn(goalId, goal);
    const now = new Date();
    for (let due = goal.deadlines.peek(); due; due = goal.deadlines.peek()) {
      const expired = due.settler.expire(now);
      if (!expired) break;
      goal.decide(due, expired);
    }
    const next = goal.deadlines.peek();
    if (next && this.goals.get(goalId) === goal)
      this.watchers.wakeAt(goalId, goal, next.settler.wait.row.deadline);
    await this.record(goal);
  }

  /**
   * Brings the newcomers to the goal's cursor, all together: one read (a page at a time) of
   * their agents' changes from the lowest of their cursors, applied to them only. The first
   * settle of a goal starts its cursor at the lowest newcomer's.
   */
  private async catchUp(goalId: string, goal: GoalWaits): Promise<void> {
    if (goal.newcomers.size === 0) return;
    const batch = [...goal.newcomers];
    goal.newcomers.clear();
    const behind: WaitStream[] = [];
    for (const stream of batch) {
      stream.place = 'catching up';
      const immediate = stream.settler.decided ?? stream.settler.start();
      if (immediate) goal.decide(stream, immediate);
      else behind.push(stream);
    }
    if (behind.length === 0) return;
    // The first settle starts the cursor at the newest newcomer's: the others catch up to it
    // by their own agents' changes, not by the goal's whole log.
    if (goal.cursor === null) {
      let newest = 0n;
      for (const { settler } of behind) if (settler.seenSeq > newest) newest = settler.seenSeq;
      goal.cursor = newest;
    }
    const upto = goal.cursor;
    const index = new AgentIndex();
    let after = upto;
    for (const stream of behind) {
      if (stream.settler.seenSeq >= upto) continue;
      index.add(stream);
      if (stream.settler.seenSeq < after) after = stream.settler.seenSeq;
    }
    let caughtUp = false;
    try {
      while (index.size > 0 && after < upto) {
        const changes = await agentChangesBetween(this.db, goalId, index.agents(), after, upto);
        this.applyPage(goal, index, changes);
        const last = changes.at(-1);
        if (!last || changes.length < CHANGE_PAGE) break;
        after = last.seq;
      }
      caughtUp = true;
    } finally {
      // Caught up to the cursor: members now. A read that failed leaves them newcomers, to
      // be caught up by the next settle from where they got to.
      for (const stream of behind) {
        if (stream.place !== 'catching up') continue;
        if (caughtUp) goal.admit(stream);
        else {
          stream.place = 'newcomer';
          goal.newcomers.add(stream);
        }
      }
    }
  }

  /** Applies the goal's changes after its cursor, a page at a time, to the waits of their agents. */
  private async readOn(goalId: string, goal: GoalWaits): Promise<void> {
    for (;;) {
      if (goal.cursor === null) return; // no member yet
      const changes = await changesAfter(this.db, goalId, goal.cursor);
      const last = changes.at(-1);
      if (!last) return;
      this.applyPage(goal, goal.members, changes);
      goal.cursor = last.seq;
      if (changes.length < CHANGE_PAGE) return;
    }
  }

  private applyPage(
    goal: GoalWaits,
    index: AgentIndex,
    changes: readonly PresenceChangeRow[],
  ): void {
    if (changes.length === 0) return;
    const pageByAgent = byAgent(changes);
    const touched = new Set<WaitStream>();
    for (const agentId of pageByAgent.keys()) {
      const streams = index.of(agentId);
      if (streams) for (const stream of streams) touched.add(stream);
    }
    for (const stream of touched) {
      const outcome = stream.settler.applyPage(changes, pageByAgent);
      if (outcome) {
        index.remove(stream);
        goal.decide(stream, outcome);
      }
    }
  }

  /** Records every outcome decided and not yet recorded; an outcome not recorded is tried again. */
  private async record(goal: GoalWaits): Promise<void> {
    if (goal.decided.size === 0) return;
    const settled = [...goal.decided];
    const rows = await recordOutcomes(
      this.db,
      settled.map(([stream, outcome]) => ({ waitId: stream.settler.wait.row.id, outcome })),
    );
    const recorded = new Map(rows.map((row) => [row.id, row]));
    for (const [stream] of settled) {
      const row = recorded.get(stream.settler.wait.row.id);
      if (row && row.status !== 'PENDING') {
        this.leave(stream, goal);
        stream.finish({ ...stream.settler.wait, row });
      }
    }
  }
}

/** Streams by the agents their settlers pin. */
class AgentIndex {
  private readonly streams = new Map<string, Set<WaitStream>>();
  size = 0;

  add(stream: WaitStream): void {
    for (const { agentId } of stream.settler.pinned) {
      let set = this.streams.get(agentId);
      if (!set) {
        set = new Set();
        this.streams.set(agentId, set);
      }
      set.add(stream);
    }
    this.size++;
  }

  remove(stream: WaitStream): void {
    let found = false;
    for (const { agentId } of stream.settler.pinned) {
      const set = this.streams.get(agentId);
      if (!set?.delete(stream)) continue;
      found = true;
      if (set.size === 0) this.streams.delete(agentId);
    }
    if (found) this.size--;
  }

  of(agentId: string): ReadonlySet<WaitStream> | undefined {
    return this.streams.get(agentId);
  }

  agents(): string[] {
    return [...this.streams.keys()];
  }
}

/** Pending streams by deadline, earliest first (a binary heap; each stream knows its slot). */
class Deadlines {
  private readonly heap: WaitStream[] = [];

  peek(): WaitStream | undefined {
    return this.heap[0];
  }

  push(stream: WaitStream): void {
    stream.slot = this.heap.length;
    this.heap.push(stream);
    this.up(stream.slot);
  }

  remove(stream: WaitStream): void {
    const at = stream.slot;
    if (at < 0 || this.heap[at] !== stream) return;
    stream.slot = -1;
    const last = this.heap.pop() as WaitStream;
    if (at === this.heap.length) return;
    this.heap[at] = last;
    last.slot = at;
    this.up(at);
    this.down(last.slot);
  }

  private up(at: number): void {
    const heap = this.heap;
    const item = heap[at] as WaitStream;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = heap[parent] as WaitStream;
      if (deadlineOf(above) <= deadlineOf(item)) break;
      heap[at] = above;
      above.slot = at;
      at = parent;
    }
    heap[at] = item;
    item.slot = at;
  }

  private down(at: number): void {
    const heap = this.heap;
    const item = heap[at] as WaitStream;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      const right = child + 1;
      if (
        right < heap.length &&
        deadlineOf(heap[right] as WaitStream) < deadlineOf(heap[child] as WaitStream)
      )
        child = right;
      const below = heap[child] as WaitStream;
      if (deadlineOf(item) <= deadlineOf(below)) break;
      heap[at] = below;
      below.slot = at;
      at = child;
    }
    heap[at] = item;
    item.slot = at;
  }
}

const deadlineOf = (stream: WaitStream): number => stream.settler.wait.row.deadline.getTime();

/**
 * One goal's pending waits on this instance. Members have applied every change up to `cursor`
 * and are indexed by the agents they pin; newcomers wait to be caught up to it; decided ones
 * wait for their outcome to be recorded (a record that failed is tried again on the next settle).
 */
class GoalWaits {
  /** Every member applied the goal's changes up to here; null before the first settle. */
  cursor: bigint | null = null;
  readonly members = new AgentIndex();
  readonly newcomers = new Set<WaitStream>();
  readonly decided = new Map<WaitStream, Outcome>();
  /** Members by deadline: a settle expires only the waits whose deadline passed. */
  readonly deadlines = new Deadlines();
  /** Streams in the goal, wherever they stand. */
  size = 0;

  admit(stream: WaitStream): void {
    stream.place = 'member';
    this.members.add(stream);
    this.deadlines.push(stream);
  }

  decide(stream: WaitStream, outcome: Outcome): void {
    if (stream.place === null) return; // left meanwhile
    if (stream.place === 'member') {
      this.members.remove(stream);
      this.deadlines.remove(stream);
    }
    stream.place = 'decided';
    this.decided.set(stream, outcome);
  }

  /** Drops the stream from wherever it stands; false if it was not here. */
  forget(stream: WaitStream): boolean {
    const place = stream.place;
    if (place === null) return false;
    if (place === 'newcomer') this.newcomers.delete(stream);
    else if (place === 'member') {
      this.members.remove(stream);
      this.deadlines.remove(stream);
    } else if (place === 'decided') this.decided.delete(stream);
    stream.place = null;
    this.size--;
    return true;
  }
}

/**
 * One subscription's wait as a plain iterator that is also its goal's watcher: a pending wait
 * costs this object and its settler, not a Repeater with its executor, promises and closures
 * (thousands of waits may be pending on one instance). It joins its goal on the first `next`
 * that has nothing queued, so a stream never read holds nothing.
 */
class WaitStream implements AsyncIterableIterator<Wait> {
  /** The next `next` call's resolver while the consumer waits for the terminal state. */
  private waiting: ((result: IteratorResult<Wait>) => void) | null = null;
  /** The goal it joined, while it is in it. */
  private goal: GoalWaits | null = null;
  /** Where it stands in its goal (GoalWaits); null when not in it. */
  place: 'newcomer' | 'catching up' | 'member' | 'decided' | null = null;
  /** Its slot in the goal's Deadlines while a member. */
  slot = -1;

  constructor(
    private readonly keeper: WaitKeeper,
    private readonly queue: Wait[],
    readonly settler: Settler,
    /** Whether a terminal state is still to come (not ended at once, finished or returned). */
    private pending: boolean,
  ) {}

  next(): Promise<IteratorResult<Wait>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (!this.pending) return Promise.resolve(DONE);
    if (!this.goal) {
      this.place = 'newcomer';
      this.goal = this.keeper.join(this);
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Called by the keeper once the outcome is recorded, after it left the goal. */
  finish(wait: Wait): void {
    // A settle that began before `return` may still finish this stream: nothing more is read.
    if (!this.pending) return;
    this.pending = false;
    this.goal = null;
    this.deliver({ value: wait, done: false });
  }

  return(): Promise<IteratorResult<Wait>> {
    if (this.goal) this.keeper.leave(this, this.goal);
    this.goal = null;
    this.pending = false;
    this.queue.length = 0;
    this.deliver(DONE);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Wait> {
    return this;
  }

  private deliver(result: IteratorResult<Wait>): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(result);
    else if (!result.done) this.queue.push(result.value);
  }
}

/** A settled wait as it stood when it started: pending, pins and limitations as recorded. */
function asPending(wait: Wait): Wait {
  return {
    ...wait,
    row: {
      ...wait.row,
      status: 'PENDING',
      reason: null,
      resolvedAgentId: null,
      resolvedSeq: null,
      resolvedLiveness: null,
      resolvedAt: null,
    },
  };
}
