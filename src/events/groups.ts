import type { Doorbell, RingKind } from './doorbell.ts';

interface Group<M> {
  readonly members: Set<M>;
  readonly stopListening: () => void;
  running: boolean;
  again: boolean;
}

/**
 * Members (stream subscribers, pinned watchers) grouped by id — a goal, for every kind so far —
 * on this instance. Whenever (kind, id) rings, the listening connection comes back, or a
 * caller asks, `work` runs once for all of that id's members; requests that arrive while it
 * runs collapse into one more run. One doorbell listener per id, whatever the member count.
 */
export class RingGroups<M> {
  private readonly groups = new Map<string, Group<M>>();
  private readonly stopReconnects: () => void;

  constructor(
    private readonly doorbell: Doorbell,
    private readonly kind: RingKind,
    /** Runs for one id's members; returns true to run again at once (a page was cut short). */
    private readonly work: (id: string, members: ReadonlySet<M>) => Promise<boolean | undefined>,
    /** A run failed (the database briefly unreachable, say). */
    private readonly failed: (members: ReadonlySet<M>, error: Error) => void,
  ) {
    this.stopReconnects = doorbell.onReconnect(() => {
      for (const id of this.groups.keys()) void this.run(id);
    });
  }

  join(id: string, member: M): void {
    let group = this.groups.get(id);
    if (!group) {
      group = {
        members: new Set(),
        stopListening: this.doorbell.on(this.kind, id, () => void this.run(id)),
        running: false,
        again: false,
      };
      this.groups.set(id, group);
    }
    group.members.add(member);
  }

  leave(id: string, member: M): void {
    const group = this.groups.get(id);
    if (!group?.members.delete(member) || group.members.size > 0) return;
    group.stopListening();
    this.groups.delete(id);
  }

  /** Runs `work` for the id's members now; a run already under way is followed by one more. */
  async run(id: string): Promise<void> {
    const group = this.groups.get(id);
    if (!group) return;
    if (group.running) {
      group.again = true;
      return;
    }
    group.running = true;
    try {
      do {
        group.again = false;
        if (group.members.size === 0) break;
        if (await this.work(id, group.members)) group.again = true;
      } while (group.again && this.groups.get(id) === group);
    } catch (error) {
      this.failed(group.members, error as Error);
    } finally {
      group.running = false;
    }
  }

  close(): void {
    this.stopReconnects();
    for (const group of this.groups.values()) group.stopListening();
    this.groups.clear();
  }
}
