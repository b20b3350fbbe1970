/**
 * The typed client (src/client): its documents validate against the printed schema, its
 * generated types are fresh, and it talks to a real gateway over HTTP and graphql-ws —
 * including resuming streams across a gateway restart.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, type DocumentNode, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as generated from '../src/client/generated/graphql.ts';
import {
  ClientError,
  createClient,
  DeliverDocument,
  DirectoryDocument,
  deliveryOutcomes,
  followWait,
  inboxArrivals,
  ledgerEvents,
  presenceChanges,
  RecordEventDocument,
  StartWaitDocument,
  WhoamiDocument,
} from '../src/client/index.ts';
import { eventually, registerProvider, startGateway, team, uid } from './support/cli.ts';

const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
const operationsDir = 'src/client/operations';

describe('documents', () => {
  it('every operation file validates against schema/schema.graphql', () => {
    const files = readdirSync(operationsDir).filter((f) => f.endsWith('.graphql'));
    expect(files.length).toBeGreaterThan(5);
    // Fragments are shared across files: validate them as one document.
    const source = files.map((f) => readFileSync(path.join(operationsDir, f), 'utf8')).join('\n');
    const errors = validate(schema, parse(source));
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('every generated document (what the client sends) validates on its own', () => {
    const documents = Object.entries(generated).filter(([name]) => name.endsWith('Document'));
    expect(documents.length).toBeGreaterThan(40);
    for (const [name, document] of documents) {
      let parsed: DocumentNode;
      try {
        parsed = parse(String(document));
      } catch (error) {
        throw new Error(`${name} does not parse: ${error}`);
      }
      const errors = validate(schema, parsed);
      expect(errors.map((e) => `${name}: ${e.message}`)).toEqual([]);
    }
  });

  it('the generated types are fresh (npm run codegen:check)', () => {
    execFileSync('npx', ['graphql-codegen', '--config', 'codegen.ts', '--check'], {
      stdio: 'pipe',
    });
  }, 60_000);
});

describe('against a gateway', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('answers typed data and classifies failures without leaking the token', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const peer = peers[0]!;
    const client = createClient({ url: gw.url, token: peer.token });
    const { me } = await client.request(WhoamiDocument);
    expect(me).toMatchObject({ kind: 'PEER', agentId: peer.agentId, goalId });
    const { directory } = await client.request(DirectoryDocument, { goalId, limit: 10 });
    expect(directory.rows.map((r) => r.agentId).sort()).toEqual(peers.map((p) => p.agentId).sort());

    const bad = createClient({ url: gw.url, token: 'not-a-token-but-secret' });
    const error = await bad.request(WhoamiDocument).catch((e) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error.kind).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(error.details) + error.message).not.toContain('not-a-token-but-secret');

    const input = await client
      .request(DirectoryDocument, { goalId, limit: -5 })
      .catch((e: ClientError) => e.kind);
    expect(input).toBe('BAD_USER_INPUT');

    const nowhere = createClient({ url: 'http://127.0.0.1:9/graphql', token: peer.token });
    expect(((await nowhere.request(WhoamiDocument).catch((e) => e)) as ClientError).kind).toBe(
      'UNREACHABLE',
    );
  });

  it('follows a wait across a gateway restart and a delivery outcome to its end', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [sender, target] = [peers[0]!, peers[1]!];
    const provider = await registerProvider(gw.t, [goalId]);
    expect(
      (await provider.report([{ goalId, agentId: target.agentId, liveness: 'IDLE' }])).__typename,
    ).toBe('PresenceAccepted');
    const client = createClient({ url: gw.url, token: sender.token });
    const started = (
      await client.request(StartWaitDocument, {
        input: { goalId, agentId: target.agentId, accept: ['DONE'], timeoutMs: 60_000 },
      })
    ).startWait;
    if (started.__typename !== 'Wait') throw new Error(started.__typename);
    const streams = { url: gw.url, token: sender.token, webSocketImpl: WebSocket };
    let pending = 0;
    const connections: string[] = [];
    const outcome = followWait(
      { ...streams, onConnection: (e) => connections.push(e.state) },
      started.id,
      () => pending++,
    );
    await expect.poll(() => pending, { timeout: 5000 }).toBe(1);
    await gw.stop();
    await gw.start();
    // the provider speaks to the new instance (same database)
    await eventually(
      () =>
        provider.report([{ goalId, agentId: target.agentId, liveness: 'DONE' }]).then(
          () => true,
          () => undefined,
        ),
      'a report to the restarted gateway',
    );
    const result = await outcome;
    expect(result).toMatchObject({ __typename: 'Wait', status: 'SATISFIED' });
    expect(connections).toContain('reconnecting');

    // a delivery without activity in its window: SUBMITTED, then STALLED, then EXPIRED (final)
    const delivered = (
      await client.request(DeliverDocument, {
        input: {
          goalId,
          to: target.agentId,
          kind: 'REQUEST',
          subject: 'ping',
          body: 'hello',
          idempotencyKey: uid('key'),
          activityWindowMs: 300,
          timeoutMs: 900,
        },
      })
    ).deliver;
    if (delivered.__typename !== 'Delivery') throw new Error(delivered.__typename);
    const seen: string[] = [];
    for await (const change of deliveryOutcomes(streams, delivered.id)) {
      if (change.__typename === 'DeliveryOutcomeChange') seen.push(change.outcome);
    }
    expect(seen.at(-1)).toBe('EXPIRED');
    expect(seen).toContain('STALLED');

    // the recipient's inbox stream resumes after a cursor: the message arrives once
    const inbox = inboxArrivals({ ...streams, token: target.token }, goalId, '0');
    const first = await inbox.next();
    expect(first.value).toMatchObject({ __typename: 'InboxMessage', id: delivered.id });
    await inbox.return(undefined);
  }, 30_000);
});

describe('presence and ledger streams', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('presenceChanges and ledgerEvents resume from their cursor across a restart, each item once', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const provider = await registerProvider(gw.t, [goalId]);
    const streams = { url: gw.url, token: gw.adminToken, webSocketImpl: WebSocket };
    const presence = presenceChanges(streams, goalId, undefined, '0');
    const ledger = ledgerEvents({ ...streams, token: a.token }, goalId, a.agentId, '0');
    const seen: string[] = [];
    const events: string[] = [];
    const collecting = (async () => {
      for await (const change of presence) {
        seen.push(`${change.agentId}:${change.presence?.liveness}:${change.seq}`);
        if (seen.length === 3) return;
      }
    })();
    const recording = (async () => {
      for await (const event of ledger) {
        if (event.__typename === 'LedgerEvent') events.push(event.summary);
        if (events.length === 2) return;
      }
    })();
    await provider.report([{ goalId, agentId: a.agentId, liveness: 'WORKING' }]);
    const record = (summary: string) =>
      gw.t.ok(
        RecordEventDocument,
        { input: { goalId, eventKind: 'VALIDATION', summary } },
        a.token,
      );
    await record('before the restart');
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1);
    await expect.poll(() => events.length, { timeout: 5000 }).toBe(1);
    await gw.stop();
    await gw.start();
    await eventually(
      () =>
        provider
          .report([
            { goalId, agentId: a.agentId, liveness: 'DONE' },
            {
              goalId,
              agentId: b.agentId,
              liveness: 'IDLE',
              providerSessionRef: 'w1:p2',
              occupantRef: 'pane-2/agent',
            },
          ])
          .then(
            () => true,
            () => undefined,
          ),
      'a report to the restarted gateway',
    );
    await record('after the restart');
    await Promise.all([collecting, recording]);
    expect(seen).toEqual([
      `${a.agentId}:WORKING:${seen[0]!.split(':')[2]}`,
      `${a.agentId}:DONE:${seen[1]!.split(':')[2]}`,
      `${b.agentId}:IDLE:${seen[2]!.split(':')[2]}`,
    ]);
    const seqs = seen.map((s) => BigInt(s.split(':')[2]!));
    expect(seqs[0]! < seqs[1]! && seqs[1]! < seqs[2]!).toBe(true);
    expect(events).toEqual(['before the restart', 'after the restart']);
  }, 30_000);
});

// Which folders the client and the CLI may import is test/architecture.test.ts's rule.
describe('the browser-safe client', () => {
  it('the browser-safe client entry does not reach Node-only modules', () => {
    const browserFiles = ['client.ts', 'errors.ts', 'streams.ts', 'index.ts'];
    for (const name of browserFiles) {
      const source = readFileSync(path.join('src/client', name), 'utf8');
      expect(source, name).not.toMatch(/from ['"](node:|ws['"]|\.\/profiles)/);
    }
  });
});
