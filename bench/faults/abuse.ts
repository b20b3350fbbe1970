/**
 * The limits' scenarios (issue 35): subscriptions, large-answers and wrong-tokens, each with
 * another client's latency measured beside the abuse against its idle value
 * (bench/probe-process.ts, a process of its own). Each counts as wrong what a limit should have
 * refused and did not, and the other client's failures.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../src/config.ts';
import {
  benchGateway,
  benchProcess,
  now,
  seedGoal,
  summary,
  until,
  YOUNG_GENERATION,
} from '../support.ts';
import { gateways } from './cluster.ts';
import type { Latency, Outcome } from './outcome.ts';
import {
  ABUSE_MS,
  BARE_ABUSER_TOKEN,
  BARE_PROBE_TOKEN,
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

/** Where an abuse is aimed: its endpoints, the abuser's token and the other client's. */
interface Target {
  readonly url: string;
  readonly wsUrl: string;
  readonly token: string;
  readonly probeToken: string;
}

/**
 * The other client's latency (bench/probe-process.ts, a process of its own) while idle for
 * IDLE_MS, then while `abuse` runs.
 */
async function probed<T>(target: Target, abuse: () => Promise<T>) {
  const probe = benchProcess('./probe-process.ts');
  try {
    const report = async () => {
      const reply = probe.next<{ ms: number[]; failed: number }>('report');
      probe.send({ type: 'report' });
      return reply;
    };
    const ready = probe.next('ready');
    probe.send({ type: 'measure', url: target.url, token: target.probeToken });
    await ready;
    await report(); // its first requests, cold
    await sleep(IDLE_MS);
    const idle = await report();
    const result = await abuse();
    const during = await report();
    const idleMs = summary(idle.ms);
    const duringMs = summary(during.ms);
    const ratio = Math.round((duringMs.p99 / idleMs.p99) * 100) / 100;
    return { result, idleMs, duringMs, ratio, failed: idle.failed + during.failed };
  } finally {
    await probe.stop();
  }
}

/**
 * The abuse aimed at the gateway, with the other client's latency beside it; then the same
 * abuse, and the same client, on a bare server that refuses it at the least cost
 * (bench/bare-refusal-process.ts): the floor, what the machine and the abusers themselves cost.
 * The abuse's result on the gateway is returned with the latency.
 */
async function beside<T>(gateway: Target, abuse: (target: Target) => Promise<T>) {
  const { result, ...latency } = await probed(gateway, () => abuse(gateway));
  const bare = benchProcess('./bare-refusal-process.ts', { execArgv: [YOUNG_GENERATION] });
  try {
    const { url, wsUrl } = await bare.next<{ url: string; wsUrl: string }>('ready');
    const floorTarget = { url, wsUrl, token: BARE_ABUSER_TOKEN, probeToken: BARE_PROBE_TOKEN };
    say('the same against the bare floor server');
    const floor = await probed(floorTarget, () => abuse(floorTarget));
    return {
      result,
      latency: {
        ...latency,
        floor: { idleMs: floor.idleMs, duringMs: floor.duringMs, ratio: floor.ratio },
        overFloor: Math.round((latency.ratio / floor.ratio) * 100) / 100,
      } satisfies Latency,
    };
  } finally {
    await bare.stop();
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
async function rawSocket(target: Target, onMessage: (m: any) => void) {
  const socket = new WebSocket(target.wsUrl, 'graphql-transport-ws');
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
    JSON.stringify({
      type: 'connection_init',
      payload: { authorization: `Bearer ${target.token}` },
    }),
  );
  await acknowledged;
  return socket;
}

/** Endpoints of a bench gateway with the abuser's and the other client's tokens. */
const aimAt = (gateway: Gateway, token: string, probeToken: string): Target => ({
  url: gateway.url,
  wsUrl: gateway.wsUrl,
  token,
  probeToken,
});

/**
 * SUBSCRIPTIONS subscribe messages on one socket, as fast as it takes them: each answered, or
 * the socket closed for flooding (4429) and the rest dropped. The socket is left open.
 */
async function subscribeFlood(target: Target, goalId: string) {
  const streaming = new Set<string>();
  const refused = new Map<string, number>();
  const state = { closed: null as { code: number; reason: string } | null };
  const socket = await rawSocket(target, (message) => {
    if (message.type === 'next') streaming.add(message.id);
    else if (message.type === 'error') {
      const code = String(message.payload?.[0]?.extensions?.code);
      refused.set(code, (refused.get(code) ?? 0) + 1);
    }
  });
  socket.once('close', (code, reason) => {
    state.closed = { code, reason: String(reason) };
  });
  const query = `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") { seq } }`;
  say(`subscriptions: ${SUBSCRIPTIONS} subscribe messages on one socket`);
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    socket.send(
      JSON.stringify({
        id: String(i),
        type: 'subscribe',
        payload: { query, variables: { g: goalId } },
      }),
    );
    if (i % 500 === 499) await sleep(0);
  }
  const answered = () => streaming.size + [...refused.values()].reduce((n, c) => n + c, 0);
  await until(
    () => answered() >= SUBSCRIPTIONS || state.closed !== null,
    'every subscribe answered, or the socket closed',
    60_000,
  ).catch(() => {});
  await sleep(ABUSE_MS / 2);
  return { socket, streaming, refused, state };
}

/** SUBSCRIPTIONS subscribe messages on one PEER socket: at most the limit may stream. */
export async function subscriptions([a]: Gateway[]): Promise<Outcome> {
  const { goal, token } = await peerOn(a!);
  const other = await peerOn(a!);
  const heapBefore = await a!.heapUsed();
  const { result: flood, latency } = await beside(aimAt(a!, token, other.token), async (target) => {
    const flooded = await subscribeFlood(target, goal.goalId);
    if (target.url !== a!.url) flooded.socket.close();
    return flooded;
  });
  const { socket, streaming, refused, state } = flood;
  const closed = state.closed;
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

/** LARGE_QUERIES at once, again and again for ABUSE_MS: the answers' error codes and sizes. */
async function largeQueries(target: Target, query: string) {
  const codes = new Map<string, number>();
  let answered = 0;
  let largestBytes = 0;
  say(`large-answers: ${LARGE_QUERIES} at once, for ${ABUSE_MS} ms`);
  const end = Date.now() + ABUSE_MS;
  while (Date.now() < end) {
    await Promise.all(
      Array.from({ length: LARGE_QUERIES }, async () => {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
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
  return { codes, answered, largestBytes };
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
  const { result, latency } = await beside(aimAt(a!, token, other.token), (target) =>
    largeQueries(target, query),
  );
  const { codes, answered, largestBytes } = result;
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

/** FLOODERS sending wrong tokens for ABUSE_MS over HTTP, then five sockets with a wrong token. */
async function wrongTokenFlood(target: Target) {
  const statuses = new Map<number, number>();
  let requests = 0;
  let withRetryAfter = 0;
  const closes = new Map<number, number>();
  say(`wrong-tokens: ${FLOODERS} flooders for ${ABUSE_MS} ms`);
  const end = Date.now() + ABUSE_MS;
  await Promise.all(
    Array.from({ length: FLOODERS }, async (_, f) => {
      for (let n = 0; Date.now() < end; n++) {
        const response = await fetch(target.url, {
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
  for (let i = 0; i < 5; i++) {
    const socket = new WebSocket(target.wsUrl, 'graphql-transport-ws');
    const code = await new Promise<number>((resolve) => {
      socket.once('open', () =>
        socket.send(
          JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer wrong' } }),
        ),
      );
      socket.once('close', (c) => resolve(c));
      socket.once('error', () => resolve(0));
    });
    closes.set(code, (closes.get(code) ?? 0) + 1);
  }
  return { statuses, requests, withRetryAfter, closes };
}

/** A flood of wrong tokens from this address, on an instance of its own (its address is refused after). */
export async function wrongTokens(): Promise<Outcome> {
  const gateway = await benchGateway({ env: { DATABASE_URL } });
  gateways.push(gateway);
  try {
    const other = await peerOn(gateway);
    const { result, latency } = await beside(aimAt(gateway, 'wrong', other.token), wrongTokenFlood);
    const { statuses, requests, withRetryAfter, closes } = result;
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
