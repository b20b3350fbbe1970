/**
 * The suite's other clients: writers that report presence through faults until acknowledged,
 * pinned waits followed across instances, a credential's streams to be revoked, and probes of
 * each instance's readiness.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { now, until } from '../support.ts';
import { clients } from './cluster.ts';
import {
  type Gateway,
  type Goal,
  RECOVERY_DEADLINE_MS,
  REVOKE_DEADLINE_MS,
  sleep,
} from './settings.ts';
import { PRESENCE } from './streams.ts';

/** A goal's writer: reports one agent's changes in turn, retrying each until acknowledged. */
export class Writer {
  readonly acked = new Map<string, string[]>();
  retries = 0;
  refused = 0;
  private running = true;
  readonly done: Promise<void>;

  constructor(
    goal: Goal,
    agents: string[],
    via: () => Gateway,
    pauseMs: number,
    readonly onAck: (at: number) => void = () => {},
  ) {
    this.done = (async () => {
      for (let n = 0; this.running; n++) {
        const agentId = agents[n % agents.length] as string;
        const liveness = Math.floor(n / agents.length) % 2 ? 'WORKING' : 'IDLE';
        if (await report(goal, agentId, liveness, via, () => this.running, this)) {
          const list = this.acked.get(agentId) ?? [];
          list.push(liveness);
          this.acked.set(agentId, list);
          this.onAck(now());
        }
        if (pauseMs > 0) await sleep(pauseMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/**
 * Reports `liveness` of one agent, retrying through faults until acknowledged (true), or
 * until `go` turns false. A typed refusal counts in `counts.refused` (a wrong outcome).
 */
export async function report(
  goal: Goal,
  agentId: string,
  liveness: string,
  via: () => Gateway,
  go: () => boolean = () => true,
  counts: { retries: number; refused: number } = { retries: 0, refused: 0 },
): Promise<boolean> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  while (go() && Date.now() < deadline) {
    try {
      const result = await goal.report([agentId], liveness, via().gql);
      if (result.reportPresence.__typename === 'PresenceAccepted') return true;
      counts.refused++;
      return false;
    } catch {
      counts.retries++;
      await sleep(20);
    }
  }
  return false;
}

/** Retries `action` through faults until it succeeds; returns its result. */
export async function retry<T>(action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

/**
 * Pinned waits for DONE of `agents` (one each), started on `gateway`. Each follows its wait
 * by id on the next of `urls` when its socket goes. `outcomes` has each terminal status.
 */
export class Waits {
  readonly outcomes = new Map<string, { status: string; at: number }>();
  readonly pending = new Set<string>();
  private readonly ids = new Map<string, string>();
  private urls: string[];

  private readonly token: string;

  constructor(
    gateway: Gateway,
    goal: Goal,
    private readonly agents: string[],
  ) {
    this.urls = [gateway.wsUrl];
    this.token = goal.steward as string;
    for (const agentId of agents)
      this.follow(agentId, 0, {
        input: { goalId: goal.goalId, agentId, accept: ['DONE'], timeoutMs: 600_000 },
      });
  }

  only(urls: string[]): void {
    this.urls = urls;
  }

  private follow(agentId: string, attempt: number, variables: Record<string, unknown>): void {
    const client = createClient({
      url: this.urls[attempt % this.urls.length] as string,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${this.token}` },
    });
    clients.add(client);
    let over = false;
    const again = () => {
      if (over || this.outcomes.has(agentId)) return;
      over = true;
      clients.delete(client);
      void client.dispose();
      const waitId = this.ids.get(agentId);
      setTimeout(() => this.follow(agentId, attempt + 1, waitId ? { waitId } : variables), 50);
    };
    client.subscribe<{ waitForAgent: { id?: string; status?: string } }>(
      {
        query: `subscription($input: WaitInput, $waitId: ID) { waitForAgent(input: $input, waitId: $waitId) {
          __typename ... on Wait { id status } } }`,
        variables,
      },
      {
        next: ({ data }) => {
          const wait = data?.waitForAgent;
          if (!wait?.status || !wait.id) {
            this.outcomes.set(agentId, {
              status: String(wait && (wait as any).__typename),
              at: now(),
            });
            return;
          }
          this.ids.set(agentId, wait.id);
          if (wait.status === 'PENDING') this.pending.add(agentId);
          else if (!this.outcomes.has(agentId))
            this.outcomes.set(agentId, { status: wait.status, at: now() });
        },
        error: () => again(),
        complete: () => {
          if (!this.outcomes.has(agentId)) again();
          else {
            clients.delete(client);
            void client.dispose();
          }
        },
      },
    );
  }

  started = () =>
    until(() => this.pending.size === this.agents.length, 'every wait to be PENDING', 60_000);

  /** Wrong = not SATISFIED, or not settled by the deadline. */
  async wrong(): Promise<number> {
    await until(
      () => this.outcomes.size === this.agents.length,
      'every wait to settle',
      RECOVERY_DEADLINE_MS,
    ).catch(() => {});
    return this.agents.filter((a) => this.outcomes.get(a)?.status !== 'SATISFIED').length;
  }
}

/** A PEER credential's stream on each of `on`, to be revoked: its sockets must close. */
export async function revocable(issuer: Gateway, goal: Goal, agentId: string, on: Gateway[]) {
  const issued = await issuer.gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token credential { id } } }`,
    { input: { kind: 'PEER', goalId: goal.goalId, agentId } },
  );
  const token = issued.issueCredential.token as string;
  const id = issued.issueCredential.credential.id as string;
  const sockets = on.map((gateway) => {
    const socket = { open: true, ended: false, closedAt: 0, subscribed: false, forgotten: false };
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      connectionParams: { authorization: `Bearer ${token}` },
      on: {
        closed: () => {
          if (socket.open) socket.closedAt = now();
          socket.open = false;
        },
      },
    });
    clients.add(client);
    client.subscribe(
      { query: PRESENCE, variables: { g: goal.goalId, after: '0' } },
      {
        next: () => {
          socket.subscribed = true;
        },
        error: () => {
          socket.ended = true;
        },
        complete: () => {
          socket.ended = true;
        },
      },
    );
    return { socket, client };
  });
  await until(
    () => sockets.every((s) => s.socket.subscribed),
    'the revocable streams to open',
    60_000,
  );
  let revokedAt = 0;
  const counted = () => sockets.filter((s) => !s.socket.forgotten);
  return {
    /** Drops the streams on instances that are gone (not counted either way). */
    forget(gateway: Gateway) {
      const i = on.indexOf(gateway);
      if (i >= 0) sockets[i]!.socket.forgotten = true;
    },
    async revoke(via: () => Gateway) {
      // From the attempt that succeeded: the commit is between it and its answer.
      await retry(() => {
        revokedAt = now();
        return via().gql(`mutation($id: ID!) { revokeCredential(id: $id) { id } }`, { id });
      });
    },
    /** Sockets still open REVOKE_DEADLINE_MS after the revocation, and how long closing took. */
    async stillOpen() {
      await until(
        () => counted().every((s) => !s.socket.open),
        'revoked sockets to close',
        REVOKE_DEADLINE_MS,
      ).catch(() => {});
      const open = counted().filter((s) => s.socket.open).length;
      const closeMs = counted()
        .filter((s) => s.socket.closedAt > 0)
        .map((s) => s.socket.closedAt - revokedAt);
      for (const s of sockets) {
        clients.delete(s.client);
        await s.client.dispose();
      }
      return { open, closeMs };
    },
  };
}

async function readyz(gateway: Gateway): Promise<number> {
  try {
    return (await fetch(gateway.url.replace(/\/graphql$/, '/readyz'))).status;
  } catch {
    return 0;
  }
}

/**
 * When /readyz first answered 200 after `since()` became non-zero (the database accepting
 * writes again, seen by the caller's own probe); NaN when it did not within the deadline.
 */
export async function untilReadyAfter(gateway: Gateway, since: () => number): Promise<number> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  while (Date.now() < deadline) {
    const watching = since() > 0;
    if (watching && (await readyz(gateway)) === 200) return now();
    await sleep(watching ? 10 : 2);
  }
  return Number.NaN;
}

export async function untilReady(
  gateway: Gateway,
  timeoutMs = RECOVERY_DEADLINE_MS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await readyz(gateway)) === 200) return true;
    await sleep(10);
  }
  return false;
}
