/**
 * Limits per caller and per operation, on both transports: each refusal has its code and its
 * words, writes nothing, and leaves other callers (and the caller's other operations) alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { isEnumType, isInputObjectType, Kind, parse, type TypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { LIMITS } from '../src/core/validate.ts';
import { rowsOf } from '../src/db/sql.ts';
import { MAX_TAIL } from '../src/delivery/inbox.ts';
import { MAX_DELIVERIES_LIMIT } from '../src/delivery/listing.ts';
import { MAX_DIRECTORY_LIMIT } from '../src/directory/directory.ts';
import { estimateResponseBytes } from '../src/graphql/execution/response-size.ts';
import { REFUSAL_HOLD_MS, RefusalHold } from '../src/http/limits.ts';
import { LEDGER_LIMITS } from '../src/ledger/limits.ts';
import { GATEWAY_MAX_LINES } from '../src/presence/providers.ts';
import { schema } from '../src/schema.ts';
import { MAX_WAITS_LIMIT } from '../src/waits/listing.ts';
import { TODO_PAGE_MAX } from '../src/work/pages.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  driver,
  eventually,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  subscribe,
  type TestGateway,
  wsClient,
  wsQuery,
} from './support/harness.ts';

/** An error as a client compares it: without the request id, which differs per request. */
const comparable = (errors: unknown) =>
  (errors as { extensions?: Record<string, unknown> }[]).map(({ extensions, ...error }) => {
    const { requestId: _requestId, ...rest } = extensions ?? {};
    return { ...error, extensions: rest };
  });

describe(`query limits read the same on every transport (${driver})`, () => {
  it('aliases, tokens, depth, syntax and unknown fields: the same words and code over graphql-ws as over HTTP', async () => {
    const peer = await peerInNewGoal(t);
    const client = wsClient(t.wsUrl, peer.token);
    const bad = [
      `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { kind }`).join(' ')} }`,
      `{ me { ${Array.from({ length: 4100 }, () => 'kind').join(' ')} } }`,
      `{ ${'me { '.repeat(14)}kind${' }'.repeat(15)}`,
      '{ me { ',
      '{ nope }',
    ];
    for (const query of bad) {
      const http = await t.gql(query, {}, peer.token);
      const ws = await wsQuery(client, query).then(
        () => [],
        (errors: unknown) => errors,
      );
      expect(comparable(ws), query.slice(0, 40)).toEqual(comparable(http.errors));
      expect(comparable(ws)[0]?.extensions.code, query.slice(0, 40)).toMatch(/^[A-Z_]+$/);
      expect(JSON.stringify(ws)).not.toMatch(/Syntax Error: Query validation error|"http"/);
    }
    await client.dispose();
  });
});

const ME = '{ me { kind } }';
const RECORD = `mutation($input: RecordEventInput!) { recordEvent(input: $input) { __typename } }`;
const LEDGER = `subscription($g: ID!, $a: ID!) {
  ledgerEvents(goalId: $g, agentId: $a, after: "0") { ... on LedgerEvent { summary } }
}`;

/**
 * POSTs `query` with `token` from this process; the status, the Retry-After header, the body
 * and how long the answer took (ms).
 */
async function post(url: string, query: string, token: string, variables = {}) {
  const start = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: any[] };
  const ms = performance.now() - start;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ms, ...body };
}

/** The value of `switchboard_limit_refusals_total{limit}` on `gateway`. */
async function refusals(gateway: TestGateway, limit: string): Promise<number> {
  const text = await (await fetch(gateway.url.replace('/graphql', '/metrics'))).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`switchboard_limit_refusals_total{limit="${limit}"}`));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

/** Opens a socket with `token`; resolves when acknowledged, or with its close event. */
function openSocket(url: string, token: string) {
  let closed: { code: number; reason: string } | undefined;
  let acknowledged = false;
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
    onNonLazyError: () => {},
    on: {
      connected: () => {
        acknowledged = true;
      },
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closed ??= { code, reason };
      },
    },
  });
  const settled = eventually(
    () => (acknowledged ? ('open' as const) : closed ? closed : undefined),
    'the socket to be acknowledged or closed',
  );
  return { client, settled, closed: () => closed };
}

describe(`requests per second per credential (${driver})`, () => {
  it('past the rate: HTTP 429 with Retry-After and RATE_LIMITED, the refused mutations write nothing; other credentials and the operator go on', async () => {
    const limited = await startTestGateway(database, { limits: { requestsPerSecond: 3 } });
    try {
      const peer = await peerInNewGoal(t);
      const other = await peerInNewGoal(t);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post(limited.url, RECORD, peer.token, {
            input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: `burst ${i}` },
          }),
        ),
      );
      const refused = answers.filter((a) => a.status === 429);
      const served = answers.filter((a) => a.status === 200);
      expect(refused.length + served.length).toBe(10);
      // One window of a second holds 3; a burst that straddles two windows gets at most 6.
      expect(refused.length).toBeGreaterThanOrEqual(4);
      for (const answer of refused) {
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        // Sent no sooner than a caller honouring Retry-After would have asked again.
        expect(answer.ms).toBeGreaterThanOrEqual(REFUSAL_HOLD_MS - 1);
        expect(answer.data ?? null).toBeNull();
        expect(answer.errors).toEqual([
          {
            message: `this credential sent more than 3 operations in a second to this instance: retry after ${answer.retryAfter} s`,
            extensions: {
              code: 'RATE_LIMITED',
              retryAfterSeconds: Number(answer.retryAfter),
              requestId: expect.any(String),
            },
          },
        ]);
      }
      // Nothing half-written: the ledger holds exactly the served ones.
      const ledger = await t.ok(
        `query($g: ID!, $a: ID!) { evidenceLedger(goalId: $g, agentId: $a, limit: 50) { events { summary } } }`,
        { g: peer.goalId, a: peer.agentId },
      );
      const written = ledger.evidenceLedger.events
        .map((e: { summary: string }) => e.summary)
        .filter((s: string) => s.startsWith('burst'));
      expect(written).toHaveLength(served.length);
      // Another credential, and the operator, on the same instance meanwhile.
      expect((await post(limited.url, ME, other.token)).data).toEqual({ me: { kind: 'PEER' } });
      for (let i = 0; i < 10; i++)
        expect((await post(limited.url, ME, limited.adminToken)).status).toBe(200);
      expect(await refusals(limited, 'requestsPerSecond')).toBe(refused.length);
    } finally {
      await limited.stop();
    }
  });

  it('a caller that loops on its refusals without reading Retry-After is paced to one a second per connection', async () => {
    const limited = await startTestGateway(database, { limits: { requestsPerSecond: 3 } });
    try {
      const peer = await peerInNewGoal(t);
      const end = performance.now() + 2500;
      const statuses: number[] = [];
      while (performance.now() < end)
        statuses.push((await post(limited.url, ME, peer.token)).status);
      const refused = statuses.filter((s) => s === 429).length;
      // 2.5 s span at most 3 windows of 3 served; each refusal takes a second.
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(refused).toBeLessThanOrEqual(3);
      expect(statuses.length - refused).toBeLessThanOrEqual(9);
    } finally {
      await limited.stop();
    }
  });

  it('over graphql-ws: the same words and code on the refused operation, the socket and its subscription go on; a socket that goes on at twice the rate closes with 4429', async () => {
    const limited = await startTestGateway(database, { limits: { requestsPerSecond: 3 } });
    try {
      const peer = await peerInNewGoal(t);
      let closed: { code: number; reason: string } | undefined;
      const client = wsClient(limited.wsUrl, peer.token, (event) => {
        closed = { code: event.code, reason: event.reason };
      });
      const live = subscribe(client, LEDGER, { g: peer.goalId, a: peer.agentId }, 'ledgerEvents');
      const burst = (count: number) =>
        Promise.all(
          Array.from({ length: count }, () =>
            wsQuery(client, ME).then(
              (result) => result,
              (errors: unknown) => ({ errors }) as { errors: any[] },
            ),
          ),
        );
      // The subscription and five queries: at most three refused, fewer than the rate itself.
      const refused = (await burst(5)).filter((a) => a.errors);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const { errors } of refused) {
        expect(errors).toEqual([
          {
            message: expect.stringMatching(
              /^this credential sent more than 3 operations in a second to this instance: retry after \d+ s$/,
            ),
            extensions: {
              code: 'RATE_LIMITED',
              retryAfterSeconds: expect.any(Number),
              requestId: expect.any(String),
            },
          },
        ]);
      }
      await t.ok(
        RECORD,
        { input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: 'on' } },
        peer.token,
      );
      expect((await live.take(1))[0]).toEqual({ summary: 'on' });
      expect(closed).toBeUndefined();
      // Twenty more at once: more refusals in a second than the rate, and the socket closes.
      void burst(20);
      expect(await eventually(() => closed, 'the socket to close')).toEqual({
        code: 4429,
        reason: expect.stringMatching(
          /^this credential sent more than 3 operations in a second to this instance: retry after \d+ s$/,
        ),
      });
      live.dispose();
      await client.dispose();
    } finally {
      await limited.stop();
    }
  });
});

describe(`failed authentications per client address (${driver})`, () => {
  it('past the limit: 429 TOO_MANY_FAILED_AUTHENTICATIONS, unknown tokens unchecked; a token the instance has seen valid goes on', async () => {
    const counted = countingDatabase(database);
    const limited = await startTestGateway(counted.database, {
      limits: { failedAuthsPerMinute: 3 },
    });
    try {
      const peer = await peerInNewGoal(t);
      const fresh = await peerInNewGoal(t);
      expect((await post(limited.url, ME, peer.token)).status).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await post(limited.url, ME, `wrong-${i}`)).status).toBe(401);
      // The fourth failure goes over the limit: from now on, for a minute, no lookups.
      expect((await post(limited.url, ME, 'wrong-3')).status).toBe(401);
      counted.reset();
      const flood = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(limited.url, ME, `flood-${i}`)),
      );
      for (const answer of flood) {
        expect(answer.status).toBe(429);
        expect(Number(answer.retryAfter)).toBeGreaterThan(50);
        expect(answer.errors?.[0]).toEqual({
          message: `more than 3 failed authentications from this address in a minute: retry after ${answer.retryAfter} s`,
          extensions: {
            code: 'TOO_MANY_FAILED_AUTHENTICATIONS',
            retryAfterSeconds: Number(answer.retryAfter),
            requestId: expect.any(String),
          },
        });
      }
      expect(counted.statements()).toBe(0);
      // A credential this instance has seen valid still works; one it has not is refused too.
      expect((await post(limited.url, ME, peer.token)).data).toEqual({ me: { kind: 'PEER' } });
      expect((await post(limited.url, ME, fresh.token)).status).toBe(429);
      // The same words over graphql-ws: the socket closes with 4429.
      const socket = openSocket(limited.wsUrl, 'wrong-socket');
      expect(await socket.settled).toEqual({
        code: 4429,
        reason: expect.stringMatching(
          /^more than 3 failed authentications from this address in a minute: retry after \d+ s$/,
        ),
      });
      await socket.client.dispose();
      expect(await refusals(limited, 'failedAuthsPerMinute')).toBe(52);
    } finally {
      await limited.stop();
    }
  });

  it('a socket closed for flooding is read no further: what it sent after stays unread, and the connection is cut', async () => {
    const limited = await startTestGateway(database, { limits: { requestsPerSecond: 3 } });
    try {
      const peer = await peerInNewGoal(t);
      const socket = new WebSocket(limited.wsUrl, 'graphql-transport-ws');
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      const acknowledged = new Promise((resolve) => socket.once('message', resolve));
      socket.send(
        JSON.stringify({
          type: 'connection_init',
          payload: { authorization: `Bearer ${peer.token}` },
        }),
      );
      await acknowledged;
      const closed = new Promise<{ code: number; at: number }>((resolve) =>
        socket.once('close', (code) => resolve({ code, at: Date.now() })),
      );
      // 40 MB of operations, far more than the kernel buffers between two sockets on loopback:
      // a gateway that went on reading would take it all before the close could complete.
      const padding = 'x'.repeat(8_000);
      const frames = 5_000;
      let queued = 0;
      for (let i = 0; i < frames; i++) {
        const frame = JSON.stringify({
          id: String(i),
          type: 'subscribe',
          payload: { query: ME, variables: { padding } },
        });
        queued += Buffer.byteLength(frame);
        socket.send(frame);
      }
      const tcp = (socket as unknown as { _socket: { bytesWritten: number } })._socket;
      const { code } = await closed;
      expect(code).toBe(4429);
      // The connection ended with most of what was sent never taken by the gateway.
      expect(tcp.bytesWritten).toBeLessThan(queued / 2);
    } finally {
      await limited.stop();
    }
  });

  it('a token found unknown is refused from memory: a flood of one wrong token costs one lookup', async () => {
    const counted = countingDatabase(database);
    const open = await startTestGateway(counted.database, { limits: { failedAuthsPerMinute: 0 } });
    try {
      await post(open.url, ME, 'wrong-once');
      counted.reset();
      const flood = await Promise.all(
        Array.from({ length: 50 }, () => post(open.url, ME, 'wrong-once')),
      );
      expect(flood.every((answer) => answer.status === 401)).toBe(true);
      expect(flood[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(counted.statements()).toBe(0);
    } finally {
      await open.stop();
    }
  });
});

describe(`sockets per credential and subscriptions per socket (${driver})`, () => {
  it("a socket past the credential's limit closes with 4429; other credentials and the operator open theirs", async () => {
    const limited = await startTestGateway(database, { limits: { socketsPerCredential: 2 } });
    try {
      const peer = await peerInNewGoal(t);
      const other = await peerInNewGoal(t);
      const first = openSocket(limited.wsUrl, peer.token);
      const second = openSocket(limited.wsUrl, peer.token);
      expect([await first.settled, await second.settled]).toEqual(['open', 'open']);
      const third = openSocket(limited.wsUrl, peer.token);
      expect(await third.settled).toEqual({
        code: 4429,
        reason: 'too many sockets: this credential has 2 open on this instance',
      });
      expect(await openSocket(limited.wsUrl, other.token).settled).toBe('open');
      const operator = [1, 2, 3].map(() => openSocket(limited.wsUrl, limited.adminToken));
      for (const socket of operator) expect(await socket.settled).toBe('open');
      // The open ones still serve; once one closes, another may open.
      expect((await wsQuery(first.client, ME)).data).toEqual({ me: { kind: 'PEER' } });
      await first.client.dispose();
      await eventually(
        async () =>
          (await openSocket(limited.wsUrl, peer.token).settled) === 'open' ? true : undefined,
        'a socket to open again',
      );
      expect(await refusals(limited, 'socketsPerCredential')).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });

  it("a subscription past the socket's limit is refused on its own id; the others stream on; completing one frees a place", async () => {
    const limited = await startTestGateway(database, { limits: { subscriptionsPerSocket: 2 } });
    try {
      const peer = await peerInNewGoal(t);
      const client = wsClient(limited.wsUrl, peer.token);
      const vars = { g: peer.goalId, a: peer.agentId };
      const a = subscribe(client, LEDGER, vars, 'ledgerEvents');
      const b = subscribe(client, LEDGER, vars, 'ledgerEvents');
      await t.ok(
        RECORD,
        { input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: 'one' } },
        peer.token,
      );
      await a.take(1);
      await b.take(1);
      const c = subscribe(client, LEDGER, vars, 'ledgerEvents');
      await c.completed;
      expect(c.errors).toEqual([
        [
          {
            message:
              'this socket has 2 open subscriptions, the most it may have: complete one first, or open another socket',
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', requestId: expect.any(String) },
          },
        ],
      ]);
      // Queries are not subscriptions; the two streams go on.
      expect((await wsQuery(client, ME)).data).toEqual({ me: { kind: 'PEER' } });
      await t.ok(
        RECORD,
        { input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: 'two' } },
        peer.token,
      );
      expect((await a.take(2))[1]).toEqual({ summary: 'two' });
      expect((await b.take(2))[1]).toEqual({ summary: 'two' });
      // Another socket of the same credential has its own places.
      const elsewhere = wsClient(limited.wsUrl, peer.token);
      const d = subscribe(elsewhere, LEDGER, vars, 'ledgerEvents');
      expect(await d.take(2)).toHaveLength(2);
      // Completing one frees its place.
      a.dispose();
      const e = await eventually(async () => {
        const s = subscribe(client, LEDGER, vars, 'ledgerEvents');
        await Promise.race([s.take(2, 2000).catch(() => {}), s.completed]);
        if (s.items.length === 2) return s;
        s.dispose();
        return undefined;
      }, 'a place to free up');
      expect(e.errors).toEqual([]);
      expect(await refusals(limited, 'subscriptionsPerSocket')).toBeGreaterThanOrEqual(1);
      b.dispose();
      d.dispose();
      e.dispose();
      await client.dispose();
      await elsewhere.dispose();
    } finally {
      await limited.stop();
    }
  });
});

describe(`the size of an answer, estimated before it runs (${driver})`, () => {
  const inboxes = (goalId: string, aliases: number) =>
    `{ ${Array.from(
      { length: aliases },
      (_, i) =>
        `a${i}: inbox(goalId: "${goalId}", tail: 200) { ... on Inbox { messages { subject body } } }`,
    ).join(' ')} }`;

  it('20 aliases × inbox(tail: 200) over 16 KiB bodies: RESPONSE_TOO_LARGE before a row is read, the same on both transports; one alias is answered', async () => {
    const counted = countingDatabase(database);
    const gateway = await startTestGateway(counted.database);
    try {
      const peer = await peerInNewGoal(t);
      expect((await post(gateway.url, ME, peer.token)).status).toBe(200);
      await eventually(
        () => (counted.statements() >= 2 ? true : undefined),
        'the lookup and last use',
      );
      counted.reset();
      const http = await post(gateway.url, inboxes(peer.goalId, 20), peer.token);
      expect(http.status).toBe(200);
      expect(http.data ?? null).toBeNull();
      expect(http.errors).toEqual([
        {
          message: expect.stringMatching(
            /^the answer to this operation could reach \d+ bytes, more than the 16000000 this server answers: ask for fewer items \(limit, tail, lines\) or use fewer aliases$/,
          ),
          extensions: { code: 'RESPONSE_TOO_LARGE', requestId: expect.any(String) },
        },
      ]);
      expect(Number(/reach (\d+)/.exec(http.errors?.[0].message)?.[1])).toBeGreaterThan(
        20 * 200 * 16_384,
      );
      expect(counted.statements()).toBe(0);
      const client = wsClient(gateway.wsUrl, peer.token);
      const ws = await wsQuery(client, inboxes(peer.goalId, 20)).then(
        (result) => result.errors,
        (errors: unknown) => errors,
      );
      expect(comparable(ws)).toEqual(comparable(http.errors));
      await client.dispose();
      const one = await post(gateway.url, inboxes(peer.goalId, 1), peer.token);
      expect(one.errors).toBeUndefined();
      expect(one.data.a0.messages).toEqual([]);
      expect(await refusals(gateway, 'responseBytes')).toBe(2);
    } finally {
      await gateway.stop();
    }
  });

  it('every operation of the typed client, at the largest its arguments go, is under the default', () => {
    const folder = path.resolve(import.meta.dirname, '../src/client/operations');
    // The most each size argument takes where the typed client sends it (the services refuse more).
    const limitOf: Record<string, number> = {
      Directory: MAX_DIRECTORY_LIMIT,
      Deliveries: MAX_DELIVERIES_LIMIT,
      Waits: MAX_WAITS_LIMIT,
      EvidenceLedger: LEDGER_LIMITS.maxLimit,
      Todos: LIMITS.maxTodosPage,
      TodoPage: TODO_PAGE_MAX,
    };
    const estimates: Record<string, number> = {};
    // One document of every file, as the generated client sends each operation with its fragments.
    const document = parse(
      readdirSync(folder)
        .filter((file) => file.endsWith('.graphql'))
        .map((file) => readFileSync(path.join(folder, file), 'utf8'))
        .join('\n'),
    );
    for (const operation of document.definitions) {
      if (operation.kind !== Kind.OPERATION_DEFINITION || !operation.name) continue;
      const largest: Record<string, number | undefined> = {
        limit: limitOf[operation.name.value],
        tail: MAX_TAIL,
        lines: GATEWAY_MAX_LINES,
      };
      const variableValues: Record<string, unknown> = {};
      for (const variable of operation.variableDefinitions ?? []) {
        const name = variable.variable.name.value;
        const type = schema.getType(namedTypeOf(variable.type));
        variableValues[name] =
          largest[name] ??
          (type && isEnumType(type)
            ? type.getValues()[0]?.value
            : type?.name === 'Int'
              ? 1
              : type?.name === 'Boolean'
                ? true
                : type && isInputObjectType(type)
                  ? undefined
                  : 'x');
      }
      estimates[operation.name.value] = estimateResponseBytes({
        schema,
        document,
        operationName: operation.name.value,
        variableValues,
      });
    }
    expect(estimates.Inbox).toBeGreaterThan(200 * 16_384);
    expect(estimates.Observe).toBeGreaterThan(500 * 2_000);
    console.log(
      JSON.stringify(
        Object.entries(estimates)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8),
      ),
    );
    const over = Object.entries(estimates).filter(
      ([, bytes]) => bytes > DEFAULT_LIMITS.responseBytes,
    );
    expect(over).toEqual([]);
  });
});

const namedTypeOf = (type: TypeNode): string =>
  type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);

describe(`pending waits per credential (${driver})`, () => {
  const RESULT = `__typename
    ... on Wait { id status }
    ... on PendingWaitsLimited { limit pending }`;
  const START = `mutation($input: WaitInput!) { startWait(input: $input) { ${RESULT} } }`;
  const WAIT_FOR = `subscription($input: WaitInput) { waitForAgent(input: $input) { ${RESULT} } }`;

  it('past the limit: the typed PendingWaitsLimited on the mutation and the subscription, nothing written; other credentials and the operator go on; an ended wait frees a place', async () => {
    const limited = await startTestGateway(database, { limits: { pendingWaits: 2 } });
    try {
      const goalId = await createGoal(t);
      for (const agentId of ['alpha', 'beta', 'gamma']) await registerAgent(t, goalId, agentId);
      const { token } = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
      const other = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
      const provider = await registerProvider(t, [goalId]);
      await provider.report([{ goalId, agentId: 'alpha', liveness: 'WORKING' }]);
      const input = { goalId, agentId: 'alpha', accept: ['DONE'], timeoutMs: 60_000 };
      const start = async (as = token) =>
        (await limited.ok(START, { input }, as)).startWait as Record<string, unknown>;
      const waitRows = async () =>
        Number(
          rowsOf<{ n: number }>(
            await database.db.execute(
              sql`select count(*) as n from waits where goal_id = ${goalId}`,
            ),
          )[0]?.n,
        );

      const first = await start();
      expect(first).toMatchObject({ __typename: 'Wait', status: 'PENDING' });
      expect(await start()).toMatchObject({ __typename: 'Wait', status: 'PENDING' });
      expect(await start()).toEqual({ __typename: 'PendingWaitsLimited', limit: 2, pending: 2 });
      const client = wsClient(limited.wsUrl, token);
      const stream = subscribe(client, WAIT_FOR, { input }, 'waitForAgent');
      await stream.completed;
      expect(stream.items).toEqual([{ __typename: 'PendingWaitsLimited', limit: 2, pending: 2 }]);
      await client.dispose();
      expect(await waitRows()).toBe(2);
      // Another credential, and the operator, start theirs.
      expect(await start(other.token)).toMatchObject({ __typename: 'Wait', status: 'PENDING' });
      for (let i = 0; i < 3; i++)
        expect(await start(limited.adminToken)).toMatchObject({ status: 'PENDING' });
      // One of the two ends (settled when read): a place is free again.
      await provider.report([{ goalId, agentId: 'alpha', liveness: 'DONE' }]);
      const read = await limited.ok(
        `query($id: ID!) { wait(id: $id) { ${RESULT} } }`,
        {
          id: first.id,
        },
        token,
      );
      expect(read.wait.status).toBe('SATISFIED');
      await provider.report([{ goalId, agentId: 'alpha', liveness: 'WORKING' }]);
      expect(await start()).toMatchObject({ __typename: 'Wait', status: 'PENDING' });
      expect(await refusals(limited, 'pendingWaits')).toBe(2);
    } finally {
      await limited.stop();
    }
  });
});

describe('HTTP 429s are held a second before they are sent', () => {
  /** A node:http server answering every request through `hold`, and its URL. */
  async function holding(hold: RefusalHold) {
    const server = createServer((_req, res) =>
      hold.send(res, () => {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    };
    return { url, close };
  }

  it('past the most held, one is sent at once; a caller that gives up is dropped; stopping sends the rest now', async () => {
    const hold = new RefusalHold(2);
    const server = await holding(hold);
    try {
      const order: string[] = [];
      const ask = (name: string, signal?: AbortSignal) =>
        fetch(server.url, { signal }).then(
          (response) => order.push(`${name} ${response.status}`),
          () => order.push(`${name} aborted`),
        );
      const gaveUp = new AbortController();
      const first = ask('first', gaveUp.signal);
      const second = ask('second');
      await eventually(() => hold.size === 2 || undefined, 'two held');
      await ask('third');
      expect(order).toEqual(['third 429']);
      gaveUp.abort();
      await first;
      await eventually(() => hold.size === 1 || undefined, 'the one that gave up dropped');
      hold.releaseAll();
      await second;
      expect(order).toEqual(['third 429', 'first aborted', 'second 429']);
      expect(hold.size).toBe(0);
    } finally {
      await server.close();
    }
  });
});
