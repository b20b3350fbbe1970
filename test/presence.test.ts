import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DirectoryDocument, PresenceChangedDocument } from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  issueCredential,
  openTestDatabase,
  PROVIDER_DECLARATION,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  subscribe,
  uid,
  wsClient,
} from './support/harness.ts';

async function countRows(table: 'presence' | 'presence_changes', goalId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from ${sql.raw(table)} where goal_id = ${goalId}`,
    ),
  );
  return row?.n ?? -1;
}

/** A goal with two agents, a provider for it and a subscriber to its presence stream from the start. */
async function world(gateway = t) {
  const goalId = await createGoal(gateway);
  const alpha = await registerAgent(gateway, goalId, 'alpha');
  const beta = await registerAgent(gateway, goalId, 'beta');
  const provider = await registerProvider(gateway, [goalId]);
  return { goalId, alpha, beta, provider };
}

describe(`providers and presence reports (${driver})`, () => {
  it('registers a provider only for its own providerId, with a validated declaration', async () => {
    const goalId = await createGoal(t);
    const { token } = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: 'prov-a',
      goalIds: [goalId],
    });
    const register = `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { providerId goalIds presenceTtlMs } }`;
    const base = {
      instanceId: 'i1',
      membershipProof: 'flag',
      identifierRules: 'ids',
      livenessMapping: [],
      presenceTtlMs: 30_000,
      observationSources: [],
      supportsPinnedWaits: false,
      persistence: 'none',
    };
    const other = await t.gql(register, { input: { ...base, providerId: 'prov-b' } }, token);
    expect(other.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const badTtl = await t.gql(
      register,
      { input: { ...base, providerId: 'prov-a', presenceTtlMs: 5 } },
      token,
    );
    expect(badTtl.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const ok = await t.ok(register, { input: { ...base, providerId: 'prov-a' } }, token);
    expect(ok.registerProvider).toEqual({
      providerId: 'prov-a',
      goalIds: [goalId],
      presenceTtlMs: 30_000,
    });
    const peer = await peerInNewGoal(t);
    const asPeer = await t.gql(register, { input: { ...base, providerId: 'prov-a' } }, peer.token);
    expect(asPeer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('a provider declares the host it runs on: its presences, their changes and the directory carry it; a malformed host is refused by field', async () => {
    const goalId = await createGoal(t);
    const alpha = await registerAgent(t, goalId, 'alpha');
    const provider = await registerProvider(t, [goalId], { host: 'agent-host-1.example' });
    const client = wsClient(t.wsUrl, t.adminToken);
    const changes = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]);
    const register = `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { host } }`;
    const declaration = { ...PROVIDER_DECLARATION, providerId: provider.providerId };
    for (const host of ['bad host', '-leading', 'a'.repeat(64), 'x'.repeat(254), 'ünicode'])
      expect(
        (
          await t.gql(
            register,
            { input: { ...declaration, instanceId: 'instance-1', host } },
            provider.token,
          )
        ).errors?.[0]?.extensions,
      ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'host' });
    // Moved to another machine: it registers again from there, and reports from there.
    const moved = await t.ok(
      register,
      { input: { ...declaration, instanceId: 'instance-2', host: '10.0.0.7' } },
      provider.token,
    );
    expect(moved.registerProvider).toEqual({ host: '10.0.0.7' });
    await provider.report([{ goalId, agentId: alpha, liveness: 'IDLE' }]);
    // WORKING on the first host; the move's lapse (PROVIDER_RESTARTED) of that presence still
    // says where it was; IDLE from the second.
    expect((await changes.take(3)).map((c) => [c.presence.liveness, c.presence.host])).toEqual([
      ['WORKING', 'agent-host-1.example'],
      ['UNKNOWN', 'agent-host-1.example'],
      ['IDLE', '10.0.0.7'],
    ]);
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory.rows[0]?.presence).toMatchObject({ liveness: 'IDLE', host: '10.0.0.7' });
    changes.dispose();
    await client.dispose();
  });

  it('refuses a report naming an unregistered agent or another goal, one by one (the rest apply); an unregistered provider as a whole', async () => {
    const { goalId, alpha, provider } = await world();
    const otherGoal = await createGoal(t);
    await registerAgent(t, otherGoal, 'alpha');
    const result = await provider.report([
      { goalId, agentId: alpha, liveness: 'WORKING' },
      { goalId, agentId: 'ghost', liveness: 'WORKING' },
      { goalId: otherGoal, agentId: 'alpha', liveness: 'WORKING' },
    ]);
    expect(result).toEqual({
      __typename: 'PresenceAccepted',
      changed: 1,
      heartbeats: 0,
      outOfOrder: 0,
      refused: [
        {
          index: 1,
          goalId,
          agentId: 'ghost',
          reason: 'AGENT_NOT_REGISTERED',
          field: null,
          message: null,
        },
        {
          index: 2,
          goalId: otherGoal,
          agentId: 'alpha',
          reason: 'GOAL_NOT_IN_SCOPE',
          field: null,
          message: null,
        },
      ],
    });
    expect(await countRows('presence', goalId)).toBe(1);
    expect(await countRows('presence_changes', goalId)).toBe(1);
    expect(await countRows('presence', otherGoal)).toBe(0);

    const { token } = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('unreg'),
      goalIds: [goalId],
    });
    const unregistered = await t.ok(
      `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename ... on PresenceRefused { reason } } }`,
      {
        r: [
          {
            goalId,
            agentId: alpha,
            providerSessionRef: 'x',
            occupantRef: 'y',
            liveness: 'IDLE',
            observedAt: new Date().toISOString(),
            basis: 'SELF_REPORT',
            reportSeq: '1',
          },
        ],
      },
      token,
    );
    expect(unregistered.reportPresence).toEqual({
      __typename: 'PresenceRefused',
      reason: 'PROVIDER_NOT_REGISTERED',
    });
    expect(await countRows('presence', goalId)).toBe(1);
  });

  it('advances stateChangeSeq only on a change of liveness or occupant; heartbeats and old reports do not', async () => {
    const { goalId, alpha, provider } = await world();
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );

    expect(await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }])).toMatchObject({
      changed: 1,
      heartbeats: 0,
    });
    expect(await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }])).toMatchObject({
      changed: 0,
      heartbeats: 1,
    });
    expect(await provider.report([{ goalId, agentId: alpha, liveness: 'DONE' }])).toMatchObject({
      changed: 1,
    });
    // An older report sequence than the last applied is ignored.
    const stale = await t.ok(
      `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { ... on PresenceAccepted { changed outOfOrder } } }`,
      {
        r: [
          {
            goalId,
            agentId: alpha,
            providerSessionRef: 'w1:p1',
            occupantRef: 'pane-1/agent',
            liveness: 'IDLE',
            observedAt: new Date().toISOString(),
            basis: 'PROVIDER_DETECTION',
            reportSeq: '1',
          },
        ],
      },
      provider.token,
    );
    expect(stale.reportPresence).toEqual({ changed: 0, outOfOrder: 1 });
    // A new occupant at the same location is a change even with the same liveness.
    expect(
      await provider.report([
        { goalId, agentId: alpha, liveness: 'DONE', occupantRef: 'pane-1/other' },
      ]),
    ).toMatchObject({ changed: 1 });

    const changes = await stream.take(3);
    expect(
      changes.map((c) => [c.seq, c.presence.liveness, c.previousLiveness, c.presence.occupantRef]),
    ).toEqual([
      ['1', 'WORKING', null, 'pane-1/agent'],
      ['2', 'DONE', 'WORKING', 'pane-1/agent'],
      ['3', 'DONE', 'DONE', 'pane-1/other'],
    ]);
    expect(changes.map((c) => c.presence.stateChangeSeq)).toEqual(['1', '2', '3']);
    expect(await countRows('presence_changes', goalId)).toBe(3);
    stream.dispose();
    await client.dispose();
  });

  it('applies a batch in order and records each change once', async () => {
    const { goalId, alpha, beta, provider } = await world();
    const result = await provider.report([
      { goalId, agentId: alpha, liveness: 'WORKING' },
      { goalId, agentId: beta, liveness: 'IDLE', providerSessionRef: 'w1:p2' },
      { goalId, agentId: alpha, liveness: 'WORKING', reportSeq: '100' },
      { goalId, agentId: alpha, liveness: 'BLOCKED', reportSeq: '101' },
    ]);
    expect(result).toEqual({
      __typename: 'PresenceAccepted',
      changed: 3,
      heartbeats: 1,
      outOfOrder: 0,
      refused: [],
    });
    expect(await countRows('presence', goalId)).toBe(2);
    expect(await countRows('presence_changes', goalId)).toBe(3);
  });

  it('endPresence records the occupant gone; ending a location with no presence is refused', async () => {
    const { goalId, alpha, provider } = await world();
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]);
    const end = `mutation($input: EndPresenceInput!) {
      endPresence(input: $input) { __typename ... on PresenceAccepted { changed } ... on PresenceRefused { reason } }
    }`;
    const input = {
      goalId,
      agentId: alpha,
      providerSessionRef: 'w1:p1',
      observedAt: new Date().toISOString(),
      reportSeq: '50',
    };
    expect((await t.ok(end, { input }, provider.token)).endPresence).toEqual({
      __typename: 'PresenceAccepted',
      changed: 1,
    });
    const missing = await t.ok(
      end,
      { input: { ...input, providerSessionRef: 'w9:p9', reportSeq: '51' } },
      provider.token,
    );
    expect(missing.endPresence).toEqual({
      __typename: 'PresenceRefused',
      reason: 'NO_PRESENCE_AT_LOCATION',
    });
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    const [, ended] = await stream.take(2);
    expect(ended.presence.endedAt).toEqual(expect.any(String));
    expect(ended.previousLiveness).toBe('WORKING');
    stream.dispose();
    await client.dispose();
  });
});

describe(`which source decided: basis, explain and blockedKind (${driver})`, () => {
  const DIRECTORY = `query($goalId: ID!) {
    directory(goalId: $goalId) { rows { agentId presence { liveness basis explain blockedKind stateChangeSeq } } }
  }`;

  it('stores them on the presence row and on each change, and exposes them on Presence', async () => {
    const { goalId, alpha, provider } = await world();
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      `subscription($goalId: ID!) {
        presenceChanged(goalId: $goalId, after: "0") { seq presence { liveness basis explain blockedKind } }
      }`,
      { goalId },
      'presenceChanged',
    );
    await provider.report([
      {
        goalId,
        agentId: alpha,
        liveness: 'BLOCKED',
        basis: 'PROGRAM_STATUS',
        explain: 'OSC 7501 blocked(permission)',
        blockedKind: 'PERMISSION',
      },
    ]);
    // Another kind of block is another state: a change, not a heartbeat.
    expect(
      await provider.report([
        {
          goalId,
          agentId: alpha,
          liveness: 'BLOCKED',
          basis: 'LIFECYCLE_HOOK',
          explain: 'hook Notification elicitation',
          blockedKind: 'QUESTION',
        },
      ]),
    ).toMatchObject({ changed: 1, heartbeats: 0 });
    // The same state from another source is a heartbeat: the row's basis and explain follow it.
    expect(
      await provider.report([
        {
          goalId,
          agentId: alpha,
          liveness: 'BLOCKED',
          basis: 'PROVIDER_DETECTION',
          explain: 'screen pattern /Do you want to proceed/',
          blockedKind: 'QUESTION',
        },
      ]),
    ).toMatchObject({ changed: 0, heartbeats: 1 });
    expect(await stream.take(2)).toEqual([
      {
        seq: '1',
        presence: {
          liveness: 'BLOCKED',
          basis: 'PROGRAM_STATUS',
          explain: 'OSC 7501 blocked(permission)',
          blockedKind: 'PERMISSION',
        },
      },
      {
        seq: '2',
        presence: {
          liveness: 'BLOCKED',
          basis: 'LIFECYCLE_HOOK',
          explain: 'hook Notification elicitation',
          blockedKind: 'QUESTION',
        },
      },
    ]);
    const read = await t.ok(DIRECTORY, { goalId });
    expect(read.directory.rows[0].presence).toEqual({
      liveness: 'BLOCKED',
      basis: 'PROVIDER_DETECTION',
      explain: 'screen pattern /Do you want to proceed/',
      blockedKind: 'QUESTION',
      stateChangeSeq: '2',
    });
    // Neither is required: a report without them clears them.
    await provider.report([{ goalId, agentId: alpha, liveness: 'IDLE' }]);
    expect((await t.ok(DIRECTORY, { goalId })).directory.rows[0].presence).toMatchObject({
      liveness: 'IDLE',
      explain: null,
      blockedKind: null,
    });
    stream.dispose();
    await client.dispose();
  });

  it('refuses a malformed report on its own, typed, and applies the rest; the next batch is not held back', async () => {
    const { goalId, alpha, beta, provider } = await world();
    const good = { goalId, agentId: beta, liveness: 'WORKING', providerSessionRef: 'w1:p2' };
    const result = await provider.report([
      { goalId, agentId: alpha, liveness: 'BLOCKED', explain: 'x'.repeat(161) },
      good,
      { goalId, agentId: alpha, liveness: 'BLOCKED', explain: 'OSC 7501 \u001b[31mblocked' },
      { goalId, agentId: alpha, liveness: 'IDLE', blockedKind: 'AUTH' },
      { goalId, agentId: alpha, liveness: 'IDLE', explain: 'two\nlines' },
      { goalId, agentId: 'not an id!', liveness: 'IDLE' },
    ]);
    expect(result.changed).toBe(1);
    expect(
      result.refused.map((r: { index: number; reason: string; field: string }) => [
        r.index,
        r.reason,
        r.field,
      ]),
    ).toEqual([
      [0, 'INVALID_REPORT', 'explain'],
      [2, 'INVALID_REPORT', 'explain'],
      [3, 'INVALID_REPORT', 'blockedKind'],
      [4, 'INVALID_REPORT', 'explain'],
      [5, 'INVALID_REPORT', 'agentId'],
    ]);
    expect(result.refused[0].message).toContain('at most 160 characters');
    expect(result.refused[3]).toMatchObject({ goalId, agentId: alpha });
    // Nothing of the refused reports was written: only beta's presence exists.
    const rows = (await t.ok(DIRECTORY, { goalId })).directory.rows;
    expect(
      rows.map((r: { agentId: string; presence: { liveness: string } | null }) => [
        r.agentId,
        r.presence?.liveness ?? null,
      ]),
    ).toEqual(
      [
        [alpha, null],
        [beta, 'WORKING'],
      ].sort(),
    );
    expect(
      await provider.report([
        {
          goalId,
          agentId: alpha,
          liveness: 'BLOCKED',
          blockedKind: 'AUTH',
          explain: 'OSC 7501 blocked(auth)',
        },
      ]),
    ).toMatchObject({ changed: 1, refused: [] });
  });

  it('passes explain through the privacy screen: a credential or an absolute path never reaches a reader', async () => {
    const { goalId, alpha, provider } = await world();
    await provider.report([
      {
        goalId,
        agentId: alpha,
        liveness: 'WORKING',
        explain: 'screen pattern in /home/someone/secret-project/notes.txt',
      },
    ]);
    const explain = (await t.ok(DIRECTORY, { goalId })).directory.rows[0].presence.explain;
    expect(explain).toContain('[redacted:path]');
    expect(explain).not.toContain('/home/someone');
  });
});

describe(`presenceChanged (${driver})`, () => {
  it('is scoped like the directory: out of scope yields one scope gap and completes; providers may not subscribe', async () => {
    const { goalId, provider } = await world();
    const outsider = await peerInNewGoal(t);
    const client = wsClient(t.wsUrl, outsider.token);
    const stream = subscribe(client, PresenceChangedDocument, { goalId }, 'presenceChanged');
    await stream.completed;
    expect(stream.items).toEqual([
      {
        goalId,
        agentId: null,
        seq: null,
        previousLiveness: null,
        presence: null,
        scopeGap: { goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
        retentionGap: null,
      },
    ]);
    await client.dispose();

    const providerClient = wsClient(t.wsUrl, provider.token);
    const refused = subscribe(
      providerClient,
      PresenceChangedDocument,
      { goalId },
      'presenceChanged',
    );
    await refused.completed;
    expect(JSON.stringify(refused.errors)).toContain('FORBIDDEN');
    await providerClient.dispose();
  });

  it('filters by agent and resumes exactly after a cursor', async () => {
    const { goalId, alpha, beta, provider } = await world();
    const client = wsClient(t.wsUrl, t.adminToken);
    const onlyBeta = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, agentIds: [beta], after: '0' },
      'presenceChanged',
    );
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]); // seq 1
    await provider.report([
      { goalId, agentId: beta, liveness: 'IDLE', providerSessionRef: 'w1:p2' },
    ]); // seq 2
    await provider.report([{ goalId, agentId: alpha, liveness: 'DONE' }]); // seq 3
    await provider.report([
      { goalId, agentId: beta, liveness: 'WORKING', providerSessionRef: 'w1:p2' },
    ]); // seq 4
    expect((await onlyBeta.take(2)).map((c) => [c.seq, c.agentId])).toEqual([
      ['2', beta],
      ['4', beta],
    ]);

    const resumed = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '2' },
      'presenceChanged',
    );
    expect((await resumed.take(2)).map((c) => c.seq)).toEqual(['3', '4']);
    await provider.report([{ goalId, agentId: alpha, liveness: 'IDLE' }]); // seq 5
    expect((await resumed.take(3)).map((c) => c.seq)).toEqual(['3', '4', '5']);
    expect(resumed.items).toHaveLength(3);
    expect(onlyBeta.items).toHaveLength(2);
    onlyBeta.dispose();
    resumed.dispose();
    await client.dispose();
  });

  it('without `after`, starts from now: earlier changes are not replayed, later ones arrive in order', async () => {
    const { goalId, alpha, provider } = await world();
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]); // seq 1, before subscribing
    const client = wsClient(t.wsUrl, t.adminToken);
    const live = subscribe(client, PresenceChangedDocument, { goalId }, 'presenceChanged');
    // The subscription has no "ready" signal: keep changing state until the first change reaches it.
    const states = ['IDLE', 'WORKING'] as const;
    for (let i = 0; live.items.length === 0; i++) {
      expect(i).toBeLessThan(100);
      await provider.report([{ goalId, agentId: alpha, liveness: states[i % 2] }]);
      await live.take(1, 200).catch(() => undefined);
    }
    const seqs = live.items.map((c) => Number(c.seq));
    expect(seqs[0]).toBeGreaterThan(1);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
    live.dispose();
    await client.dispose();
  });

  it('streams over SSE too', async () => {
    const { goalId, alpha, provider } = await world();
    const controller = new AbortController();
    const response = await fetch(t.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${t.adminToken}`,
      },
      body: JSON.stringify({ query: PresenceChangedDocument, variables: { goalId, after: '0' } }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes('"seq":"1"') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toContain('"liveness":"WORKING"');
    controller.abort();
  });

  it('two instances on one database: a report sent to A reaches a subscriber on B', async () => {
    const secondDatabase = driver === 'postgres' ? await openTestDatabase() : database;
    const b = await startTestGateway(secondDatabase, { adminToken: t.adminToken });
    const { goalId, alpha, provider } = await world(t);
    const client = wsClient(b.wsUrl, b.adminToken);
    const stream = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    await provider.report([{ goalId, agentId: alpha, liveness: 'WORKING' }]);
    await provider.report([{ goalId, agentId: alpha, liveness: 'DONE' }]);
    expect((await stream.take(2)).map((c) => c.presence.liveness)).toEqual(['WORKING', 'DONE']);
    stream.dispose();
    await client.dispose();
    await b.stop();
    if (secondDatabase !== database) await secondDatabase.close();
  });

  it.skipIf(driver === 'pglite')(
    'a killed LISTEN connection delays changes but never drops or duplicates them',
    async () => {
      const { goalId, alpha, provider } = await world();
      const client = wsClient(t.wsUrl, t.adminToken);
      const stream = subscribe(
        client,
        PresenceChangedDocument,
        { goalId, after: '0' },
        'presenceChanged',
      );
      const states = ['WORKING', 'IDLE', 'WORKING', 'BLOCKED', 'WORKING', 'DONE'];
      await provider.report([{ goalId, agentId: alpha, liveness: states[0] }]);
      await stream.take(1);
      // Kill every LISTEN connection of this database; reports keep coming while it reconnects.
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%' and datname = current_database()`,
      );
      for (const liveness of states.slice(1))
        await provider.report([{ goalId, agentId: alpha, liveness }]);
      const changes = await stream.take(states.length, 15_000);
      expect(changes.map((c) => c.presence.liveness)).toEqual(states);
      expect(changes.map((c) => c.seq)).toEqual(states.map((_, i) => String(i + 1)));
      await provider.report([{ goalId, agentId: alpha, liveness: 'IDLE' }]);
      await stream.take(states.length + 1);
      expect(stream.items).toHaveLength(states.length + 1);
      stream.dispose();
      await client.dispose();
    },
    30_000,
  );
});

describe(`observation (${driver})`, () => {
  const OBSERVE = `query($goalId: ID!, $agentId: ID!, $source: ObservationSource!, $lines: Int!) {
    observe(goalId: $goalId, agentId: $agentId, source: $source, lines: $lines) {
      __typename
      ... on Observation { provider source lines lineBound advisory limits capturedAt }
      ... on ObservationGap { source reason }
      ... on ScopeGap { gapReason: reason }
      ... on UnknownAgent { agentId }
    }
  }`;
  const REPORT = `mutation($input: ReportObservationInput!) {
    reportObservation(input: $input) { __typename ... on ObservationGap { reason } ... on PresenceRefused { refusal: reason } }
  }`;

  it('answers "no provider" with a typed gap, never an empty excerpt', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const result = await t.ok(OBSERVE, { goalId, agentId, source: 'RECENT', lines: 10 });
    expect(result.observe).toEqual({
      __typename: 'ObservationGap',
      source: 'RECENT',
      reason: 'NO_PROVIDER',
    });
    const unknown = await t.ok(OBSERVE, { goalId, agentId: 'ghost', source: 'RECENT', lines: 10 });
    expect(unknown.observe).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
  });

  it('stores the latest bounded excerpt per declared source and serves it advisory, bounded three ways', async () => {
    const { goalId, alpha, provider } = await world();
    expect(
      (await t.ok(OBSERVE, { goalId, agentId: alpha, source: 'RECENT', lines: 10 })).observe,
    ).toEqual({
      __typename: 'ObservationGap',
      source: 'RECENT',
      reason: 'NOTHING_CAPTURED',
    });
    expect(
      (await t.ok(OBSERVE, { goalId, agentId: alpha, source: 'VIEWPORT', lines: 10 })).observe,
    ).toMatchObject({
      reason: 'SOURCE_NOT_DECLARED',
    });
    const undeclared = await t.ok(
      REPORT,
      {
        input: {
          goalId,
          agentId: alpha,
          source: 'VIEWPORT',
          lines: ['x'],
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    expect(undeclared.reportObservation).toEqual({
      __typename: 'ObservationGap',
      reason: 'SOURCE_NOT_DECLARED',
    });

    const lines = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`);
    const stored = await t.ok(
      REPORT,
      {
        input: {
          goalId,
          agentId: alpha,
          source: 'RECENT',
          lines,
          limits: ['DISCONNECTED'],
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    expect(stored.reportObservation.__typename).toBe('PresenceAccepted');
    const [row] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select array_length(lines, 1) as n from observations where goal_id = ${goalId}`,
      ),
    );
    expect(row?.n).toBe(50); // stored bounded by the declaration, not as sent

    const few = await t.ok(OBSERVE, { goalId, agentId: alpha, source: 'RECENT', lines: 3 });
    expect(few.observe).toMatchObject({
      __typename: 'Observation',
      provider: provider.providerId,
      lines: ['line 118', 'line 119', 'line 120'],
      lineBound: 3,
      advisory: true,
    });
    expect([...few.observe.limits].sort()).toEqual([
      'ALTERNATE_SCREEN_NOT_IN_SCROLLBACK',
      'DISCONNECTED',
    ]);
    const many = await t.ok(OBSERVE, { goalId, agentId: alpha, source: 'RECENT', lines: 10_000 });
    expect(many.observe.lineBound).toBe(50);
    expect(many.observe.lines).toHaveLength(50);
  });

  it("gives out-of-scope callers a scope gap and refuses reports for agents that are not the provider's", async () => {
    const { goalId, alpha, provider } = await world();
    const outsider = await peerInNewGoal(t);
    const gap = await t.ok(
      OBSERVE,
      { goalId, agentId: alpha, source: 'RECENT', lines: 5 },
      outsider.token,
    );
    expect(gap.observe).toEqual({ __typename: 'ScopeGap', gapReason: 'AUDIENCE_NOT_AUTHORIZED' });
    const refused = await t.ok(
      REPORT,
      {
        input: {
          goalId,
          agentId: 'ghost',
          source: 'RECENT',
          lines: ['x'],
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    expect(refused.reportObservation).toEqual({
      __typename: 'PresenceRefused',
      refusal: 'AGENT_NOT_REGISTERED',
    });
  });
});
