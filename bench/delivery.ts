/**
 * Deliveries submitted per second with 50 concurrent senders (each a PEER with its own
 * credential, each sending one request after another over HTTP, as fast as answers come),
 * median of a few runs; and the latency from starting a submission to the recipient
 * receiving it on inboxMessages (graphql-ws): at that saturation (where it is mostly the
 * queue of 50 waiting senders), at an offered load of RATE deliveries/s spread over the
 * same 50 senders (timed from each request's scheduled start, so a sender that falls behind
 * counts its lateness), and one at a time. The recipient is pinned (a provider sees
 * it WORKING), so each submission also resolves and records a pin. The senders run in a
 * child process, so the gateway's event loop is not also the load generator's. On Postgres,
 * the floor in the same run: the same row inserted bare with its NOTIFY over as many
 * connections (bench/floors.ts), and the rate as a ratio of it.
 *
 *   node --import tsx bench/delivery.ts                 # PGlite
 *   DATABASE_URL=postgres://… node --import tsx bench/delivery.ts
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import postgres from 'postgres';
import WebSocket from 'ws';
import { insertNotifyRate, ratio } from './floors.ts';
import {
  benchGateway,
  figure,
  now,
  printReport,
  progress,
  seedGoal,
  setting,
  summary,
  UNLIMITED_RATE,
  until,
} from './support.ts';

const DELIVER = `mutation($input: DeliverInput!) {
  deliver(input: $input) { __typename ... on Delivery { id } }
}`;

interface Target {
  url: string;
  goalId: string;
  recipient: string;
}

/**
 * Keep-alive connections for the senders. node:http rather than fetch: on this 2-core machine
 * the load generator shares the cores with the gateway and Postgres, and fetch (undici) cost
 * it 1.1 ms of CPU per request against 0.4 ms.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request; throws unless it was delivered. */
async function deliver(target: Target, token: string, subject: string): Promise<void> {
  const payload = JSON.stringify({
    query: DELIVER,
    variables: {
      input: {
        goalId: target.goalId,
        to: target.recipient,
        kind: 'REQUEST',
        subject,
        body: `Please look at ${subject}: a body of ordinary size, a few sentences long, nothing more.`,
        idempotencyKey: subject,
      },
    },
  });
  const text = await new Promise<string>((resolve, reject) => {
    const request = http.request(
      target.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve(body));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
  const body = JSON.parse(text) as { data?: { deliver: { __typename: string } } };
  if (body.data?.deliver.__typename !== 'Delivery') throw new Error(text);
}

const SENDERS = setting('SENDERS', 50, 50);
const PER_SENDER = setting('PER_SENDER', 40, 2);
const RUNS = setting('RUNS', 3, 1);
const SINGLE_ROUNDS = setting('SINGLE_ROUNDS', 200, 20);
/** The offered load of the paced run: the rate issue 17 asks for. */
const RATE = setting('RATE', 500, 100);

async function main() {
  // One sender goes one at a time as fast as it can.
  const { url, wsUrl, gql, stop } = await benchGateway({ env: UNLIMITED_RATE });
  const { goalId, agentIds, report } = await seedGoal(gql, SENDERS + 1);
  const [recipient, ...senders] = agentIds as [string, ...string[]];
  await report([recipient], 'WORKING');
  const tokens: string[] = [];
  for (const agentId of [recipient, ...senders]) {
    const issued = await gql(
      `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
      { input: { kind: 'PEER', goalId, agentId } },
    );
    tokens.push(issued.issueCredential.token);
  }
  const [recipientToken, ...senderTokens] = tokens as [string, ...string[]];
  const target: Target = { url, goalId, recipient };

  // The recipient: every arrival, stamped on receipt (subjects are unique).
  const arrivedAt = new Map<string, number>();
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${recipientToken}` },
  });
  client.subscribe<{ inboxMessages: { subject: string } }>(
    {
      query: `subscription($goalId: ID!) { inboxMessages(goalId: $goalId, after: "0") { ... on InboxMessage { subject } } }`,
      variables: { goalId },
    },
    {
      next: ({ data }) => arrivedAt.set(data?.inboxMessages.subject as string, now()),
      error: (error) => {
        throw error;
      },
      complete: () => {},
    },
  );
  let sent = 0;
  /** Submits one request and resolves with its submit-to-arrival latency. */
  const oneRoundTrip = async (subject: string) => {
    const start = now();
    await deliver(target, senderTokens[0] as string, subject);
    sent++;
    await until(() => arrivedAt.has(subject), `the arrival of ${subject}`);
    return (arrivedAt.get(subject) as number) - start;
  };

  // Warm up the path (schema, connections, the first subscription read).
  await oneRoundTrip('warm-up');

  // Throughput: every sender sends PER_SENDER requests back to back, all senders at once.
  progress('delivery', `${RUNS} runs of ${SENDERS} senders × ${PER_SENDER} deliveries`);
  const worker = fork(fileURLToPath(import.meta.url), ['--senders']);
  worker.send({ target, tokens: senderTokens });
  const runs: { perSecond: number; ms: number }[] = [];
  const underLoad: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const done = new Promise<{ ms: number; starts: [string, number][] }>((resolve) =>
      worker.once('message', resolve),
    );
    worker.send({ run, perSender: PER_SENDER });
    const { ms, starts } = await done;
    sent += starts.length;
    runs.push({ perSecond: Math.round(starts.length / (ms / 1000)), ms: Math.round(ms) });
    await until(() => starts.every(([s]) => arrivedAt.has(s)), `run ${run} arrivals`);
    for (const [subject, at] of starts) underLoad.push((arrivedAt.get(subject) as number) - at);
  }
  const rates = runs.map((r) => r.perSecond).sort((a, b) => a - b);

  // Paced: the same senders together offer RATE deliveries/s.
  progress('delivery', `${SENDERS} senders offering ${RATE} deliveries/s`);
  const paced = await new Promise<{ ms: number; starts: [string, number][] }>((resolve) => {
    worker.once('message', resolve);
    worker.send({ run: RUNS, perSender: PER_SENDER, rate: RATE });
  });
  worker.kill();
  sent += paced.starts.length;
  await until(() => paced.starts.every(([s]) => arrivedAt.has(s)), 'the paced run arrivals');
  const atRate = summary(paced.starts.map(([s, at]) => (arrivedAt.get(s) as number) - at));
  const pacedPerSecond = Math.round(paced.starts.length / (paced.ms / 1000));

  // One at a time: one sender, the next request only after the previous one arrived.
  progress('delivery', `${SINGLE_ROUNDS} deliveries one at a time`);
  const single: number[] = [];
  for (let i = 0; i < SINGLE_ROUNDS; i++) single.push(await oneRoundTrip(`single-${i}`));

  const median = rates[Math.floor(rates.length / 2)] as number;

  // The floor, on the same database at the same concurrency: the same delivery row inserted
  // bare (no stream head, no pin, no GraphQL), each with its NOTIFY.
  let floorPerSecond: number | null = null;
  if (process.env.DATABASE_URL) {
    progress('delivery', `the floor: ${SENDERS} connections inserting the same row bare`);
    const read = postgres(process.env.DATABASE_URL, { max: 1 });
    const [template] = await read.unsafe(
      'select to_jsonb(d) as row from deliveries d where goal_id = $1 limit 1',
      [goalId],
    );
    await read.end();
    const rates = [];
    for (let run = 0; run < RUNS; run++)
      rates.push(
        await insertNotifyRate(
          process.env.DATABASE_URL,
          'deliveries',
          template?.row as Record<string, unknown>,
          (i) => ({
            id: `floor-${run}-${i}`,
            seq: run * 1_000_000 + i,
            idempotency_key: `floor-${run}-${i}`,
          }),
          SENDERS,
          PER_SENDER,
        ),
      );
    floorPerSecond = Math.round(
      rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)] as number,
    );
  }
  const loaded = summary(underLoad);
  const alone = summary(single);
  printReport(
    'delivery',
    [
      figure(`deliveries per second, one goal, ${SENDERS} senders`, median, 'deliveries/s', {
        atLeast: 500,
        source: 'issue 17',
      }),
      figure(
        `deliveries per second ÷ the bare INSERT + NOTIFY floor (${SENDERS} connections)`,
        ratio(median, floorPerSecond),
        '×',
        { atLeast: 0.5, source: 'issue 40' },
        floorPerSecond === null
          ? 'Postgres only: the floor writes through its own connections'
          : undefined,
      ),
      figure(`submit → inbox at ${RATE} deliveries/s offered, p99`, atRate.p99, 'ms', {
        atMost: 100,
        source: 'issue 17',
      }),
      figure(`submit → inbox at ${RATE} deliveries/s offered, p50`, atRate.p50, 'ms'),
      figure('submit → inbox at saturation, p99', loaded.p99, 'ms'),
      figure('submit → inbox at saturation, p50', loaded.p50, 'ms'),
      figure('submit → inbox one at a time, p50', alone.p50, 'ms'),
      figure('submit → inbox one at a time, p99', alone.p99, 'ms'),
    ],
    {
      setup: {
        senders: SENDERS,
        deliveriesPerSenderPerRun: PER_SENDER,
        runs: RUNS,
        recipientPinned: true,
        transport: 'HTTP POST per delivery (keep-alive); recipient on one graphql-ws socket',
        load: 'gateway and senders each in a child process; the recipient in this one',
      },
      submittedPerSecond: { median, runs, paced: { offered: RATE, achieved: pacedPerSecond } },
      bareInsertNotifyPerSecond: floorPerSecond,
      submitToInboxMessagesMs: { atSaturation: loaded, atOfferedRate: atRate, oneAtATime: alone },
      delivered: sent,
      arrived: arrivedAt.size,
    },
  );
  await client.dispose();
  await stop();
  process.exit(0);
}

// The senders' process: runs one throughput run per message and reports when each request started.
if (process.argv.includes('--senders')) {
  let setup: { target: Target; tokens: string[] } | null = null;
  type Run = { run: number; perSender: number; rate?: number };
  process.on('message', async (message: Run | typeof setup) => {
    if (message && 'target' in message) {
      setup = message;
      return;
    }
    const { target, tokens } = setup as { target: Target; tokens: string[] };
    const { run, perSender, rate } = message as Run;
    const starts: [string, number][] = [];
    const start = now();
    // Paced: sender s sends its i-th at start + (i × senders + s) / rate seconds, or at once
    // when it is already late; unpaced: one after another.
    const scheduled = (s: number, i: number) =>
      rate ? start + ((i * tokens.length + s) * 1000) / rate : now();
    await Promise.all(
      tokens.map(async (token, s) => {
        for (let i = 0; i < perSender; i++) {
          const subject = `run${run}-s${s}-m${i}`;
          const at = scheduled(s, i);
          const wait = at - now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          starts.push([subject, at]);
          await deliver(target, token, subject);
        }
      }),
    );
    process.send?.({ ms: now() - start, starts });
  });
} else {
  await main();
}
