import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CredentialsDocument,
  GoalsDocument,
  IssueCredentialDocument,
  RecordEventDocument,
  RegisterAgentDocument,
  RetireAgentDocument,
  RevokeCredentialDocument,
  WhoamiDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  subscribe,
  uid,
  wsClient,
  wsQuery,
} from './support/harness.ts';

const AGENTS = `query($goalId: ID!) {
  agents(goalId: $goalId) { goalId rows { agentId } scopeGap { goalId reason } }
}`;

describe(`registry (${driver})`, () => {
  it('creates a goal once; a second create is a typed conflict', async () => {
    const goalId = uid('goal');
    const create = `mutation($input: CreateGoalInput!) {
      createGoal(input: $input) {
        __typename ... on Goal { id title } ... on GoalAlreadyExists { goal { id title } }
      }
    }`;
    const first = await t.ok(create, { input: { goalId, title: 'First' } });
    expect(first.createGoal).toEqual({ __typename: 'Goal', id: goalId, title: 'First' });
    const second = await t.ok(create, { input: { goalId, title: 'Second' } });
    expect(second.createGoal).toEqual({
      __typename: 'GoalAlreadyExists',
      goal: { id: goalId, title: 'First' },
    });
  });

  it('registers an agent; registering it twice is a typed conflict, not a crash', async () => {
    const goalId = await createGoal(t);
    const register = `mutation($input: RegisterAgentInput!) {
      registerAgent(input: $input) {
        __typename
        ... on Agent { agentId agentModel retiredAt }
        ... on AgentAlreadyRegistered { agent { agentId agentModel } }
      }
    }`;
    const input = { goalId, agentId: 'builder-1', agentModel: 'model-a', hostSurface: 'cli' };
    const first = await t.ok(register, { input });
    expect(first.registerAgent).toEqual({
      __typename: 'Agent',
      agentId: 'builder-1',
      agentModel: 'model-a',
      retiredAt: null,
    });
    const again = await t.ok(register, { input: { ...input, agentModel: 'model-b' } });
    expect(again.registerAgent).toEqual({
      __typename: 'AgentAlreadyRegistered',
      agent: { agentId: 'builder-1', agentModel: 'model-a' },
    });
  });

  it.each([
    ['empty', '', 'agentId must not be empty'],
    ['over-long', 'a'.repeat(65), 'agentId must be at most 64 characters'],
    ['malformed', 'has space', 'agentId may contain only'],
    ['path-like', '../etc', 'agentId may contain only'],
  ])(
    'rejects an %s agent id with a clear error and writes nothing',
    async (_name, agentId, message) => {
      const goalId = await createGoal(t);
      const result = await t.gql(RegisterAgentDocument, {
        input: { goalId, agentId, agentModel: 'm', hostSurface: 'cli' },
      });
      expect(result.errors?.[0]?.message).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const listing = await t.ok(AGENTS, { goalId });
      expect(listing.agents.rows).toEqual([]);
    },
  );

  it('refuses registry writes from non-admins (FORBIDDEN) and from anonymous callers (UNAUTHENTICATED)', async () => {
    const peer = await peerInNewGoal(t);
    const goalId = uid('goal');
    const mutation = `mutation { createGoal(input: { goalId: "${goalId}", title: "x" }) { __typename } }`;
    const asPeer = await t.gql(mutation, {}, peer.token);
    expect(asPeer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonymous = await t.gql(mutation, {}, null);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const goals = await t.ok(GoalsDocument);
    expect(goals.goals).not.toContainEqual({ id: goalId });
  });

  it('issues a token shown once, stores only its hash, and resolves it to the caller', async () => {
    const peer = await peerInNewGoal(t);
    const me = await t.ok(`{ me { kind goalId agentId credentialId goalIds } }`, {}, peer.token);
    expect(me.me).toEqual({
      kind: 'PEER',
      goalId: peer.goalId,
      agentId: peer.agentId,
      credentialId: peer.credentialId,
      goalIds: [peer.goalId],
    });
    const rows = rowsOf(
      await database.db.execute(
        sql`select token_hash from credentials where id = ${peer.credentialId}`,
      ),
    );
    expect(JSON.stringify(rows)).not.toContain(peer.token);
    expect(JSON.stringify(rows)).toMatch(/[0-9a-f]{64}/);
  });

  it('validates credential inputs per kind and writes nothing on bad input', async () => {
    const goalId = await createGoal(t);
    const issue = IssueCredentialDocument;
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'PEER', goalId }, 'a PEER credential needs goalId and agentId'],
      [{ kind: 'PEER', goalId, agentId: 'nobody' }, 'agent nobody is not registered'],
      [{ kind: 'STEWARD', goalIds: [] }, 'goalIds must name at least one goal'],
      [{ kind: 'STEWARD', goalIds: [uid('missing')] }, 'unknown goal'],
      [{ kind: 'PROVIDER', goalIds: [goalId] }, 'a PROVIDER credential needs providerId'],
      [{ kind: 'ADMIN', goalIds: [goalId] }, 'goalIds does not apply to a ADMIN credential'],
    ];
    for (const [input, message] of cases) {
      const result = await t.gql(issue, { input });
      expect(result.errors?.[0]?.message, JSON.stringify(input)).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('a peer asking about another goal and about a non-existent goal gets the same typed answer', async () => {
    const a = await peerInNewGoal(t);
    const b = await peerInNewGoal(t);
    const missing = uid('goal');
    const answers = [
      await t.ok(AGENTS, { goalId: b.goalId }, a.token),
      await t.ok(AGENTS, { goalId: missing }, a.token),
    ];
    const normalized = answers.map((answer, i) => {
      const asked = [b.goalId, missing][i];
      return JSON.stringify(answer).replaceAll(asked as string, '<goal>');
    });
    expect(new Set(normalized).size).toBe(1);
    expect(answers[0]?.agents).toEqual({
      goalId: b.goalId,
      rows: [],
      scopeGap: { goalId: b.goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
    });
    // The in-scope answer, for contrast.
    const own = await t.ok(AGENTS, { goalId: a.goalId }, a.token);
    expect(own.agents).toEqual({
      goalId: a.goalId,
      rows: [{ agentId: a.agentId }],
      scopeGap: null,
    });
  });

  it('scopes stewards to their goals and widens a peer only by delegation', async () => {
    const one = await createGoal(t);
    const two = await createGoal(t);
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [one] });
    const stewardGoals = await t.ok(`{ goals { id } }`, {}, steward.token);
    expect(stewardGoals.goals).toEqual([{ id: one }]);
    const outside = await t.ok(AGENTS, { goalId: two }, steward.token);
    expect(outside.agents.scopeGap).toEqual({ goalId: two, reason: 'AUDIENCE_NOT_AUTHORIZED' });

    const peer = await peerInNewGoal(t);
    expect((await t.ok(AGENTS, { goalId: two }, peer.token)).agents.scopeGap).not.toBeNull();
    const delegated = await t.ok(
      `mutation($input: DelegateGoalInput!) {
        delegateGoal(input: $input) { __typename ... on Delegation { goalId agentId } }
      }`,
      { input: { goalId: two, agentGoalId: peer.goalId, agentId: peer.agentId } },
    );
    expect(delegated.delegateGoal).toEqual({
      __typename: 'Delegation',
      goalId: two,
      agentId: peer.agentId,
    });
    expect((await t.ok(AGENTS, { goalId: two }, peer.token)).agents.scopeGap).toBeNull();
    const me = await t.ok(WhoamiDocument, {}, peer.token);
    expect(me.me.goalIds).toEqual([peer.goalId, two].sort());
  });

  it('keeps providers out of reads', async () => {
    const goalId = await createGoal(t);
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: 'tmux-1',
      goalIds: [goalId],
    });
    const result = await t.gql(AGENTS, { goalId }, provider.token);
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const me = await t.ok(`{ me { kind providerId goalIds } }`, {}, provider.token);
    expect(me.me).toEqual({ kind: 'PROVIDER', providerId: 'tmux-1', goalIds: [goalId] });
  });

  it('retiring an unknown agent is typed; retired agents stay listed on request', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const retire = `mutation($g: ID!, $a: ID!) {
      retireAgent(goalId: $g, agentId: $a) { __typename ... on Agent { retiredAt } ... on UnknownAgent { agentId } }
    }`;
    expect((await t.ok(retire, { g: goalId, a: 'ghost' })).retireAgent).toEqual({
      __typename: 'UnknownAgent',
      agentId: 'ghost',
    });
    const retired = await t.ok(retire, { g: goalId, a: agentId });
    expect(retired.retireAgent.retiredAt).toEqual(expect.any(String));
    expect((await t.ok(AGENTS, { goalId })).agents.rows).toEqual([]);
    const all = await t.ok(
      `query($g: ID!) { agents(goalId: $g, includeRetired: true) { rows { agentId retiredAt } } }`,
      { g: goalId },
    );
    expect(all.agents.rows).toEqual([{ agentId, retiredAt: retired.retireAgent.retiredAt }]);
  });
});

describe(`credentials on every transport (${driver})`, () => {
  it('refuses a request without a credential with HTTP 401 and UNAUTHENTICATED, never a scope gap', async () => {
    const peer = await peerInNewGoal(t);
    const result = await t.gql(AGENTS, { goalId: peer.goalId }, null);
    expect(result.status).toBe(401);
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(result.data ?? null).toBeNull();
  });

  it('accepts a valid token and refuses a bad one over HTTP', async () => {
    const peer = await peerInNewGoal(t);
    expect((await t.ok(`{ me { kind } }`, {}, peer.token)).me.kind).toBe('PEER');
    const bad = await t.gql(`{ me { kind } }`, {}, 'sb_not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('accepts a valid token and refuses a bad one over SSE', async () => {
    const peer = await peerInNewGoal(t);
    const sse = (token: string) =>
      fetch(t.url, {
        method: 'POST',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ query: '{ me { kind agentId } }' }),
      });
    const good = await sse(peer.token);
    expect(good.headers.get('content-type')).toContain('text/event-stream');
    const body = await good.text();
    const event = body.split('\n').find((line) => line.startsWith('data: {'));
    expect(JSON.parse(event?.slice(6) ?? 'null')).toEqual({
      data: { me: { kind: 'PEER', agentId: peer.agentId } },
    });
    const bad = await sse('sb_wrong');
    expect(bad.status).toBe(401);
    await bad.body?.cancel();
  });

  it('accepts a valid token over graphql-ws and refuses a bad one at connection_init with 4403', async () => {
    const peer = await peerInNewGoal(t);
    const good = wsClient(t.wsUrl, peer.token);
    const result = await wsQuery(good, '{ me { kind agentId } }');
    expect(result.data).toEqual({ me: { kind: 'PEER', agentId: peer.agentId } });
    await good.dispose();

    for (const token of ['sb_wrong', null]) {
      let closed: { code: number } | undefined;
      const bad = wsClient(t.wsUrl, token, (event) => {
        closed = event;
      });
      await expect(wsQuery(bad, '{ me { kind } }')).rejects.toBeTruthy();
      expect((await eventually(() => closed, 'the refused socket to close')).code).toBe(4403);
      await bad.dispose();
    }
  });

  it("revokeCredential refuses the next request and closes the caller's open sockets", async () => {
    const peer = await peerInNewGoal(t);
    const other = await issueCredential(t, {
      kind: 'PEER',
      goalId: peer.goalId,
      agentId: peer.agentId,
    });
    let closed: { code: number; reason: string } | undefined;
    let otherClosed = false;
    const client = wsClient(t.wsUrl, peer.token, (event) => {
      closed = event;
    });
    const otherClient = wsClient(t.wsUrl, other.token, () => {
      otherClosed = true;
    });
    expect((await wsQuery(client, '{ me { kind } }')).data).toEqual({ me: { kind: 'PEER' } });
    expect((await wsQuery(otherClient, '{ me { kind } }')).data).toEqual({ me: { kind: 'PEER' } });

    const revoked = await t.ok(RevokeCredentialDocument, {
      id: peer.credentialId,
    });
    expect(revoked.revokeCredential.revokedAt).toEqual(expect.any(String));
    const event = await eventually(() => closed, 'the revoked socket to close');
    expect({ code: event.code, reason: event.reason }).toEqual({
      code: 4403,
      reason: 'credential revoked',
    });
    expect((await t.gql(`{ me { kind } }`, {}, peer.token)).status).toBe(401);
    // A different credential of the same agent is untouched.
    expect(otherClosed).toBe(false);
    expect((await wsQuery(otherClient, '{ me { kind } }')).data).toEqual({ me: { kind: 'PEER' } });
    await client.dispose();
    await otherClient.dispose();
  });

  it('retiring an agent closes its sockets; its token is then refused as a revoked one is, and listed AGENT_RETIRED', async () => {
    const peer = await peerInNewGoal(t);
    let closed: { code: number } | undefined;
    const client = wsClient(t.wsUrl, peer.token, (event) => {
      closed = event;
    });
    await wsQuery(client, '{ me { kind } }');
    await t.ok(RetireAgentDocument, { goalId: peer.goalId, agentId: peer.agentId });
    expect((await eventually(() => closed, 'the retired agent socket to close')).code).toBe(4403);
    for (const refused of [
      await t.gql(WhoamiDocument, {}, peer.token),
      await t.gql(AGENTS, { goalId: peer.goalId }, peer.token),
    ]) {
      expect(refused.status).toBe(401);
      expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    const { credentials } = await t.ok(CredentialsDocument, { goalId: peer.goalId });
    expect(credentials).toEqual([
      expect.objectContaining({ id: peer.credentialId, revokedAt: null, status: 'AGENT_RETIRED' }),
    ]);
    await client.dispose();
  });
});

describe(`revocation reaches every open stream (${driver})`, () => {
  const STREAM = `subscription($g: ID!, $a: ID!, $after: Seq) {
    ledgerEvents(goalId: $g, agentId: $a, after: $after) { __typename ... on LedgerEvent { seq } }
  }`;
  const RECORD = RecordEventDocument;

  /** An SSE subscription: `first` resolves at its first event, `ended` with all it got. */
  async function sseStream(token: string, variables: Record<string, unknown>) {
    const response = await fetch(t.url, {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ query: STREAM, variables }),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let sawFirst = () => {};
    const first = new Promise<void>((resolve) => {
      sawFirst = resolve;
    });
    const ended = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
        if (text.includes('"LedgerEvent"')) sawFirst();
      }
    })();
    return { first, ended };
  }

  for (const how of ['revoked', 'retired', 'expired'] as const) {
    it(`ends SSE and WebSocket subscriptions of a ${how} credential with UNAUTHENTICATED, also when no ring arrives`, async () => {
      const peer = await peerInNewGoal(t);
      let closed: { code: number } | undefined;
      const client = wsClient(t.wsUrl, peer.token, (event) => {
        closed = event;
      });
      const variables = { g: peer.goalId, a: peer.agentId, after: '0' };
      const ws = subscribe(client, STREAM, variables, 'ledgerEvents');
      const sse = await sseStream(peer.token, variables);
      await t.ok(
        RECORD,
        { input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: 'both streams live' } },
        peer.token,
      );
      await ws.take(1); // both subscriptions are live
      await sse.first;
      // Written behind the gateway's back: no doorbell rings, only the re-check can see it.
      if (how === 'revoked') {
        await database.db.execute(
          sql`update credentials set revoked_at = now() where id = ${peer.credentialId}`,
        );
      } else if (how === 'expired') {
        await database.db.execute(
          sql`update credentials set expires_at = now() where id = ${peer.credentialId}`,
        );
      } else {
        await database.db.execute(
          sql`update agents set retired_at = now()
              where goal_id = ${peer.goalId} and agent_id = ${peer.agentId}`,
        );
      }
      const body = await sse.ended; // the server ends the SSE stream
      expect(body).toContain('"code":"UNAUTHENTICATED"');
      expect(body).toContain('event: complete');
      await eventually(() => (ws.errors.length > 0 ? true : undefined), 'the ws error', 5_000);
      expect(JSON.stringify(ws.errors[0])).toContain('UNAUTHENTICATED');
      expect((await eventually(() => closed, 'the socket to close', 5_000)).code).toBe(4403);
      await client.dispose();
    });
  }
});
