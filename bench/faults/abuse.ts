/**
 * The limits' scenarios (issue 35): subscriptions, large-answers and wrong-tokens, each with
 * another client's latency measured beside the abuse against its idle value
 * (bench/probe-process.ts, a process of its own). Each counts as wrong what a limit should have
 * refused and did not, and the other client's failures.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../src/config.ts';
import { benchGateway, benchProcess, now, seedGoal, summary, until } from '../support.ts';
import { gateways } from './cluster.ts';
import type { Latency, Outcome } from './outcome.ts';
import {
  ABUSE_MS,
  DATABASE_URL,
  FLOODERS,
  type Gateway,
  IDLE_MS,
  LARGE_MESSAGES,
  LARGE_QUERIES,
  SUBSCRIPTIONS,
  say,
  sleep,
} from './settings.ts';

const ME = '{ me { kind goalIds } }';

/**
 * The other client's latency (bench/probe-process.ts, a process of its own) while idle for
 * IDLE_MS, then while `abuse` runs.
 */
async function beside(gateway: Gateway, token: string, abuse: () => Promise<void>) {
  const probe = benchProcess('./probe-process.ts');
  try {
    const report = async () => {
      const reply = probe.next<{ ms: number[]; failed: number }>('report');
      probe.send({ type: 'report' });
      return reply;
    };
    const ready = probe.next('ready');
    probe.send({ type: 'measure', url: gateway.url, token });
    await ready;
    await report(); // its first requests, cold
    await sleep(IDLE_MS);
    const idle = await report();
    await abuse();
    const during = await report();
    const idleMs = summary(idle.ms);
    const duringMs = summary(during.ms);
    return {
      idleMs,
      duringMs,
      ratio: Math.round((duringMs.p99 / idleMs.p99) * 100) / 100,
      failed: idle.failed + during.failed,
    } satisfies Latency;
  } finally {
    await probe.stop();
  }
}

/** A goal with one agent and a PEER credential for it, used once before (the gateway knows it). */
async function peerOn(gateway: Gateway) {
  const goal = await seedGoal(gateway.gql, 2);
  await goal.report(goal.agentIds, 'WORKING', gateway.gql);
  const issued = await gateway.gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'PEER', goalId: goal.goalId, agentId: goal.agentIds[0] } },
  );
  const token = issued.issueCredential.token as string;
  await gateway.gql(ME, {}, token);
  return { goal, token };
}

/** A raw graphql-ws socket with `token`, acknowledged; messages go to `onMessage`. */
async function rawSocket(gateway: Gateway, token: string, onMessage: (m: any) => void) {
  const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const acknowledged = new Promise<void>((resolve) =>
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') resolve();
      else onMessage(message);
    }),
  );
  socket.send(
    JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }),
  );
  await acknowledged;
  return socket;
}

/** SUBSCRIPTIONS subscribe messages on one PEER socket: at most the limit may stream. */
export async function subscriptions([a]: Gateway[]): Promise<Outcome> {
  const { goal, token } = await peerOn(a!);
  const other = await peerOn(a!);
  const streaming = new Set<string>();
  const refused = new Map<string, number>();
  let closed = null as { code: number; reason: string } | null;
  const socket = await rawSocket(a!, token, (message) => {
    if (message.type === 'next') streaming.add(message.id);
    else if (message.type === 'error') {
      const code = String(message.payload?.[0]?.extensions?.code);
      refused.set(code, (refused.get(code) ?? 0) + 1);
    }
  });
  socket.once('close', (code, reason) => {
    closed = { code, reason: String(reason) };
  });
  const heapBefore = await a!.heapUsed();
  const query = `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") { seq } }`;
  const latency = await beside(a!, other.token, async () => {
    say(`subscriptions: ${SUBSCRIPTIONS} subscribe messages on one socket`);
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      socket.send(
        JSON.stringify({
          id: String(i),
          type: 'subscribe',
          payload: { query, variables: { g: goal.goalId } },
        }),
      );
      if (i % 500 === 499) await sleep(0);
    }
    const answered = () => streaming.size + [...refused.values()].reduce((n, c) => n + c, 0);
    // Each is answered, or the socket is closed for flooding (4429) and the rest dropped.
    await until(
      () => answered() >= SUBSCRIPTIONS || closed !== null,
      'every subscribe answered, or the socket closed',
      60_000,
    ).catch(() => {});
    await sleep(ABUSE_MS / 2);
  });
  const heapAfter = await a!.heapUsed();
  // Unless the socket was closed for flooding, a change still reaches every stream let in.
  let changeMs: number | null = null;
  let unreached = 0;
  if (!closed) {
    const changedAt = now();
    const seen = new Set<string>();
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'next') seen.add(message.id);
    });
    await goal.report([goal.agentIds[0] as string], 'IDLE', a!.gql);
    await until(
      () => seen.size >= streaming.size,
      'the change to reach every stream',
      30_000,
    ).catch(() => {});
    changeMs = Math.round(now() - changedAt);
    unreached = streaming.size - seen.size;
  }
  socket.close();
  const refusedCount = [...refused.values()].reduce((n, c) => n + c, 0);
  const unanswered = closed?.code === 4429 ? 0 : SUBSCRIPTIONS - streaming.size - refusedCount;
  const overLimit = Math.max(0, streaming.size - DEFAULT_LIMITS.subscriptionsPerSocket);
  return {
    name: 'subscriptions',
    runs: 1,
    lost: 0,
    duplicated: 0,
    wrong: unanswered + overLimit + latency.failed + unreached,
    revokedStillOpen: 0,
    resumeMs: null,
    latency,
    details: {
      subscribeMessages: SUBSCRIPTIONS,
      streaming: streaming.size,
      refusedByCode: Object.fromEntries(refused),
      socketClosed: closed,
      unanswered,
      gatewayHeapGrowthMB: Math.round(((heapAfter - heapBefore) / 2 ** 20) * 10) / 10,
      changeToEveryStreamMs: changeMs,
      otherClientMs: latency,
    },
  };
}

/** LARGE_QUERIES at once of 20 aliases × inbox(tail: 200) over 16 KiB bodies, for ABUSE_MS. */
export async function largeAnswers([a]: Gateway[]): Promise<Outcome> {
  const { goal, token } = await peerOn(a!);
  const other = await peerOn(a!);
  const recipient = goal.agentIds[0] as string;
  say(`large-answers: ${LARGE_MESSAGES} messages of 16 KiB to one inbox`);
  const body = 'x'.repeat(16_384);
  for (let i = 0; i < LARGE_MESSAGES; i++)
    await a!.gql(`mutation($input: DeliverInput!) { deliver(input: $input) { __typename } }`, {
      input: {
        goalId: goal.goalId,
        to: recipient,
        kind: 'CONTEXT',
        subject: `large ${i}`,
        body,
        idempotencyKey: `large-${i}`,
      },
    });
  const query = `{ ${Array.from(
    { length: 20 },
    (_, i) =>
      `a${i}: inbox(goalId: "${goal.goalId}", tail: 200) { ... on Inbox { messages { body } } }`,
  ).join(' ')} }`;
  const codes = new Map<string, number>();
  let answered = 0;
  let largestBytes = 0;
  const latency = await beside(a!, other.token, async () => {
    say(`large-answers: ${LARGE_QUERIES} at once, for ${ABUSE_MS} ms`);
    const end = Date.now() + ABUSE_MS;
    while (Date.now() < end) {
      await Promise.all(
        Array.from({ length: LARGE_QUERIES }, async () => {
          const response = await fetch(a!.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ query }),
          });
          const text = await response.text();
          largestBytes = Math.max(largestBytes, text.length);
          const parsed = JSON.parse(text) as { data?: unknown; errors?: any[] };
          if (parsed.data) answered++;
          const code = String(parsed.errors?.[0]?.extensions?.code ?? 'none');
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }),
      );
    }
  });
  const unrefused = [...codes].filter(
    ([code]) => code !== 'RESPONSE_TOO_LARGE' && code !== 'RATE_LIMITED',
  );
  return {
    name: 'large-answers',
    runs: 1,
    lost: 0,
    duplicated: 0,
    wrong: answered + unrefused.reduce((n, [, c]) => n + c, 0) + latency.failed,
    revokedStillOpen: 0,
    resumeMs: null,
    latency,
    details: {
      messages: LARGE_MESSAGES,
      queriesAtOnce: LARGE_QUERIES,
      answersByCode: Object.fromEntries(codes),
      answeredWithData: answered,
      largestResponseBytes: largestBytes,
      otherClientMs: latency,
    },
  };
}

/** A flood of wrong tokens from this address, on an instance of its own (its address is refused after). */
export async function wrongTokens(): Promise<Outcome> {
  const gateway = await benchGateway({ env: { DATABASE_URL } });
  gateways.push(gateway);
  try {
    const other = await peerOn(gateway);
    const statuses = new Map<number, number>();
    let requests = 0;
    let withRetryAfter = 0;
    const closes = new Map<number, number>();
    const latency = await beside(gateway, other.token, async () => {
      say(`wrong-tokens: ${FLOODERS} flooders for ${ABUSE_MS} ms`);
      const end = Date.now() + ABUSE_MS;
      await Promise.all(
        Array.from({ length: FLOODERS }, async (_, f) => {
          for (let n = 0; Date.now() < end; n++) {
            const response = await fetch(gateway.url, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer wrong-${f}-${n}-${randomUUID()}`,
              },
              body: JSON.stringify({ query: ME }),
            });
            await response.arrayBuffer();
            requests++;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            if (response.headers.get('retry-after')) withRetryAfter++;
          }
        }),
      );
      // The same over WebSocket: a few sockets with wrong tokens.
      for (let i = 0; i < 5; i++) {
        const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
        const code = await new Promise<number>((resolve) => {
          socket.once('open', () =>
            socket.send(
              JSON.stringify({
                type: 'connection_init',
                payload: { authorization: 'Bearer wrong' },
              }),
            ),
          );
          socket.once('close', (c) => resolve(c));
          socket.once('error', () => resolve(0));
        });
        closes.set(code, (closes.get(code) ?? 0) + 1);
      }
    });
    const refused = statuses.get(429) ?? 0;
    return {
      name: 'wrong-tokens',
      runs: 1,
      lost: 0,
      duplicated: 0,
      // Past the limit every wrong token is a 429 with Retry-After, sockets close 4429.
      wrong:
        (refused === 0 ? 1 : 0) +
        (withRetryAfter !== refused ? 1 : 0) +
        (closes.get(4429) === 5 ? 0 : 1) +
        latency.failed,
      revokedStillOpen: 0,
      resumeMs: null,
      latency,
      details: {
        flooders: FLOODERS,
        requests,
        requestsPerSecond: Math.round(requests / (ABUSE_MS / 1000)),
        statuses: Object.fromEntries(statuses),
        socketCloses: Object.fromEntries(closes),
        otherClientMs: latency,
      },
    };
  } finally {
    gateways.splice(gateways.indexOf(gateway), 1);
    await gateway.stop();
  }
}
