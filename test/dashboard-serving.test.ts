import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ClaimTodoDocument,
  CreateTodoDocument,
  GoalLedgerEventsDocument,
  TodoNamesDocument,
  TodoPageDocument,
} from '../src/client/generated/graphql.ts';
import { buildDashboard } from './support/browser.ts';
import { t } from './support/gateway-per-file.ts';
import {
  createGoal,
  peerInNewGoal,
  registerAgent,
  subscribe,
  uid,
  wsClient,
} from './support/harness.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET as it goes over the wire: no client-side decompression, the bytes counted as sent. */
function get(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, t.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (raw: Raw) =>
  raw.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(raw.body)
    : raw.headers['content-encoding'] === 'gzip'
      ? gunzipSync(raw.body)
      : raw.body;

beforeAll(() => buildDashboard());

describe('the dashboard and GraphiQL on the wire', () => {
  it('compresses the dashboard as the client accepts, Brotli first, and caches hashed assets for good', async () => {
    const plain = await get('/', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(plain.body.toString())?.[1];
    expect(script).toBeDefined();

    const identity = await get(`/${script}`, {});
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const asset = await get(`/${script}`, { 'accept-encoding': accept });
      expect(asset.status, accept).toBe(200);
      expect(asset.headers['content-encoding'], accept).toBe(encoding);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.vary).toBe('Accept-Encoding');
      expect(Number(asset.headers['content-length'])).toBe(asset.body.length);
      expect(decoded(asset).equals(identity.body), accept).toBe(true);
      if (encoding) expect(asset.body.length).toBeLessThan(identity.body.length / 2);
    }
    const index = await get('/', { 'accept-encoding': 'br' });
    expect(index.headers['content-encoding']).toBe('br');
    expect(decoded(index).equals(plain.body)).toBe(true);

    const refused = await get(`/${script}`, { 'accept-encoding': 'identity;q=0, *;q=0' });
    expect(refused.status).toBe(406);
  });

  it('serves GraphiQL to a browser compressed, at most 2 MB on the wire as Brotli', async () => {
    const html = { accept: 'text/html' };
    const br = await get('/graphql', { ...html, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const page = decoded(br).toString();
    expect(page).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(page).toContain('<title>Switchboard</title>');
    const gzip = await get('/graphql', { ...html, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip).toString()).toBe(page);
    // A GraphQL request on the same path is Yoga's, not the page.
    const query = await get('/graphql?query=%7B__typename%7D', {
      accept: 'application/json',
      'accept-encoding': 'br',
    });
    expect(query.headers['content-type']).toContain('application/json');
  });
});

describe('the goal ledger stream the dashboard follows', () => {
  it('gives an operator every row of the goal after the ledgerSeq of a cursor read naming no todo, and a peer a scope gap', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const before = await t.ok(CreateTodoDocument, {
      input: { goalId, title: 'written before the read', taskClass: 'ADVANCEMENT_TASK' },
    });
    // What the dashboard reads for its cursor: the ledger's head, no todo.
    const { todoPage: read } = await t.ok(TodoNamesDocument, { goalId, ids: [] });
    expect(read.rows).toEqual([]);
    // Written after the read, before the stream subscribes: the cursor still finds it.
    const todoId = (
      await t.ok(CreateTodoDocument, {
        input: { goalId, title: uid('after'), taskClass: 'ADVANCEMENT_TASK' },
      })
    ).createTodo.id as string;
    const client = wsClient(t.url, t.adminToken);
    const stream = subscribe(
      client,
      GoalLedgerEventsDocument,
      { goalId, after: read.ledgerSeq },
      'goalLedgerEvents',
    );
    try {
      await t.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId } });
      const rows = await stream.take(2);
      expect(rows.map((row) => [row.todoId, row.classification, row.relevance])).toEqual([
        [todoId, 'create', null],
        [todoId, 'claim', null],
      ]);
      expect(rows.every((row) => row.todoId !== before.createTodo.id)).toBe(true);
    } finally {
      stream.dispose();
      await client.dispose();
    }

    const peer = await peerInNewGoal(t);
    const peerClient = wsClient(t.url, peer.token);
    const refused = subscribe(
      peerClient,
      GoalLedgerEventsDocument,
      { goalId: peer.goalId },
      'goalLedgerEvents',
    );
    try {
      const [gap] = await refused.take(1);
      expect(gap).toMatchObject({ __typename: 'ScopeGap', reason: 'NOT_OWN_LEDGER' });
      await refused.completed;
    } finally {
      refused.dispose();
      await peerClient.dispose();
    }
  });
});

describe('todoPage: one screen of todos, or the todos named', () => {
  it('pages the todos order from an offset, reads named todos only, and counts what it left out', async () => {
    const goalId = await createGoal(t);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++)
      ids.push(
        (
          await t.ok(CreateTodoDocument, {
            input: { goalId, title: `todo ${n}`, taskClass: 'ADVANCEMENT_TASK', priority: n },
          })
        ).createTodo.id as string,
      );
    const titles = (page: { rows: { title: string }[] }) => page.rows.map((row) => row.title);
    const first = (await t.ok(TodoPageDocument, { goalId, limit: 2 })).todoPage;
    expect(titles(first)).toEqual(['todo 4', 'todo 3']);
    expect(first.omittedRowCount).toBe(3);
    const last = (await t.ok(TodoPageDocument, { goalId, offset: 4, limit: 2 })).todoPage;
    expect(titles(last)).toEqual(['todo 0']);
    expect(last.omittedRowCount).toBe(4);
    const past = (await t.ok(TodoPageDocument, { goalId, offset: 9, limit: 2 })).todoPage;
    expect(past).toMatchObject({ rows: [], omittedRowCount: 5 });

    // Named: only those, in the same order; an id of no todo in the goal is left out.
    const other = await createGoal(t);
    const elsewhere = (
      await t.ok(CreateTodoDocument, {
        input: { goalId: other, title: 'another goal', taskClass: 'ADVANCEMENT_TASK' },
      })
    ).createTodo.id as string;
    const named = (
      await t.ok(TodoNamesDocument, { goalId, ids: [ids[1], ids[3], elsewhere, 'todo_none'] })
    ).todoPage;
    expect(named.rows.map((row: { id: string }) => row.id)).toEqual([ids[3], ids[1]]);

    const refused = await t.gql(TodoPageDocument, { goalId, limit: 1001 });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const negative = await t.gql(TodoPageDocument, { goalId, offset: -1 });
    expect(negative.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const peer = await peerInNewGoal(t);
    const gap = (await t.ok(TodoNamesDocument, { goalId, ids: [ids[0]] }, peer.token)).todoPage;
    expect(gap.rows).toEqual([]);
    expect(gap.scopeGap).not.toBeNull();
  });
});
