/**
 * Bad input is BAD_USER_INPUT, always: text no column can hold, out-of-range scalars, variable
 * coercion and limits each answer with a code and write nothing.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  startTestGateway,
  uid,
} from './support/harness.ts';

const CREATE_GOAL = `mutation($input: CreateGoalInput!) { createGoal(input: $input) { __typename } }`;

async function goalCount(goalId: string): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from goals where id = ${goalId}`),
  );
  return Number(rows[0]?.n);
}

describe(`bad input is BAD_USER_INPUT (${driver})`, () => {
  for (const [what, title] of [
    ['a NUL character', 'before\u0000after'],
    ['a lone high surrogate', 'before\uD800after'],
    ['a lone low surrogate', 'before\uDC00after'],
  ] as const) {
    it(`refuses ${what} in a variable and in a literal, writing nothing`, async () => {
      const goalId = uid('goal');
      const viaVariable = await t.gql(CREATE_GOAL, { input: { goalId, title } });
      expect(viaVariable.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const literal = `mutation { createGoal(input: { goalId: "${goalId}", title: ${JSON.stringify(title)} }) { __typename } }`;
      const viaLiteral = await t.gql(literal);
      // A literal with an unpaired surrogate escape does not even parse.
      expect(['BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED']).toContain(
        viaLiteral.errors?.[0]?.extensions?.code,
      );
      // The same document again (its literals are checked once per parsed document).
      const again = await t.gql(literal);
      expect(again.errors?.[0]?.extensions?.code).toBe(viaLiteral.errors?.[0]?.extensions?.code);
      expect(await goalCount(goalId)).toBe(0);
    });
  }

  it('keeps a valid surrogate pair (an emoji)', async () => {
    const goalId = uid('goal');
    expect(
      (await t.ok(CREATE_GOAL, { input: { goalId, title: 'ship it 🚀' } })).createGoal,
    ).toEqual({ __typename: 'Goal' });
  });

  it('refuses a DateTime outside years 0001-9999 and a Seq above 2^63-1', async () => {
    const peer = await peerInNewGoal(t);
    const ledger = `query($g: ID!, $a: ID!, $since: DateTime, $before: Seq) {
      evidenceLedger(goalId: $g, agentId: $a, since: $since, before: $before) { goalId }
    }`;
    for (const variables of [
      { since: '0000-06-01T00:00:00Z' },
      { since: '+275760-09-13T00:00:00Z' },
      { since: '-000001-01-01T00:00:00Z' },
      { before: '9223372036854775808' },
      { before: '99999999999999999999' },
    ]) {
      const result = await t.gql(ledger, { g: peer.goalId, a: peer.agentId, ...variables });
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe(
        'BAD_USER_INPUT',
      );
    }
    const ok = await t.gql(ledger, {
      g: peer.goalId,
      a: peer.agentId,
      since: '2000-01-01T00:00:00Z',
      before: '9223372036854775807',
    });
    expect(ok.errors).toBeUndefined();
  });

  it('gives variable-coercion errors a code', async () => {
    const result = await t.gql(CREATE_GOAL, { input: { goalId: 7, title: ['not', 'text'] } });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('says a limit was exceeded in words, without the limit', async () => {
    const deep = `{ ${'me { '.repeat(14)}kind${' }'.repeat(15)}`;
    const result = await t.gql(deep);
    expect(result.errors?.[0]?.message).toMatch(/exceeds this server's limits/);
    expect(result.errors?.[0]?.message).not.toMatch(/\d/);
  });

  it('with exploration off, suggests no enum values or input fields', async () => {
    const gateway = await startTestGateway(database, { exploration: false });
    const enumTypo = await gateway.gql(
      `mutation { issueCredential(input: { kind: PEERS }) { token } }`,
    );
    const fieldTypo = await gateway.gql(
      `mutation { createGoal(input: { goalId: "x", titel: "y" }) { __typename } }`,
    );
    for (const result of [enumTypo, fieldTypo]) {
      expect(result.errors?.[0]?.message).toBeTruthy();
      expect(JSON.stringify(result.errors)).not.toContain('Did you mean');
    }
    await gateway.stop();
  });

  it('masks an unexpected error with an error id, and logs no query parameter', async () => {
    const lines: string[] = [];
    const { openTestDatabase } = await import('./support/harness.ts');
    const { startGateway } = await import('../src/gateway.ts');
    const { createLogger } = await import('../src/log.ts');
    const { testConfig } = await import('./support/harness.ts');
    const broken = await openTestDatabase();
    const gateway = await startGateway(
      testConfig(),
      createLogger('error', (line) => lines.push(line)),
      { database: broken },
    );
    const admin = testConfig().adminToken;
    await broken.close();
    const secret = `title-${uid('secret')}`;
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({
        query: CREATE_GOAL,
        variables: { input: { goalId: uid('g'), title: secret } },
      }),
    });
    const body = (await response.json()) as { errors: { extensions: { errorId?: string } }[] };
    const errorId = body.errors[0]?.extensions.errorId;
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.join('')).toContain(errorId);
    expect(lines.join('')).not.toContain(secret);
    await gateway.stop();
  });
});

describe(`no secret leaves through a side door (${driver})`, () => {
  const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
  const SECRET_TEXT = `uses ${TOKEN} from /home/alice/.config/gh`;

  it('redacts credentials and home paths at write in todo titles, visions, gate reasons and delivery subjects; refuses them in idempotency keys', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    const alpha = await issueCredential(t, { kind: 'PEER', goalId, agentId: 'alpha' });
    const beta = await issueCredential(t, { kind: 'PEER', goalId, agentId: 'beta' });
    const created = await t.ok(
      `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ... on Todo { id title } } }`,
      { input: { goalId, title: `fix login ${SECRET_TEXT}`, taskClass: 'ADVANCEMENT_TASK' } },
      alpha.token,
    );
    await t.ok(
      `mutation($input: TodoActionInput!) { claimTodo(input: $input) { __typename } }`,
      { input: { goalId, todoId: created.createTodo.id } },
      alpha.token,
    );
    await t.ok(
      `mutation($input: SetVisionInput!) { setVision(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          roleScope: 'src/auth',
          visionSummary: `ship auth; ${SECRET_TEXT}`,
          acceptanceSummary: 'tests pass',
          replanTriggerSummary: 'login breaks',
        },
      },
      alpha.token,
    );
    await t.ok(
      `mutation($input: OpenGateInput!) { openGate(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          kind: 'DIRECTION',
          granularity: 'ACTION',
          scopeKey: 'auth',
          reason: `may I? ${SECRET_TEXT}`,
        },
      },
      alpha.token,
    );
    const sent = await t.ok(
      `mutation($input: DeliverInput!) { deliver(input: $input) { ... on Delivery { subject } } }`,
      {
        input: {
          goalId,
          to: 'beta',
          kind: 'CONTEXT',
          subject: `token ${SECRET_TEXT}`,
          body: `the body goes as sent: ${TOKEN}`,
          idempotencyKey: uid('key'),
        },
      },
      alpha.token,
    );
    const reads = await t.ok(
      `query($g: ID!) {
        todos(goalId: $g) { rows { title } }
        visions(goalId: $g) { rows { visionSummary } }
        gates(goalId: $g) { rows { reason } }
        evidenceLedger(goalId: $g, agentId: "beta") { otherAgentFrontier { visionSummary topTodo } }
        inbox(goalId: $g) { ... on Inbox { messages { subject body } } }
      }`,
      { g: goalId },
      beta.token,
    );
    const shown = JSON.stringify({ ...reads, inbox: undefined, sent });
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain('/home/alice');
    expect(shown).toContain('[redacted:credential]');
    expect(shown).toContain('[redacted:path]');
    // The recipient still gets the body as sent.
    expect(JSON.stringify(reads.inbox)).toContain(`the body goes as sent: ${TOKEN}`);

    const keyed = await t.gql(
      `mutation($input: DeliverInput!) { deliver(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          to: 'beta',
          kind: 'CONTEXT',
          subject: 's',
          body: 'b',
          idempotencyKey: `retry:${TOKEN}`,
        },
      },
      alpha.token,
    );
    expect(keyed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses terminal escapes, bidi controls and line breaks in one-line fields', async () => {
    for (const title of ['red \u001b[31mtitle', 'swap \u202Eeman', 'two\nlines']) {
      const result = await t.gql(CREATE_GOAL, { input: { goalId: uid('goal'), title } });
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(title)).toBe('BAD_USER_INPUT');
    }
  });
});

describe(`ids of another goal are refused (${driver})`, () => {
  it("refuses deliver.todoId and startWait.todoId naming another goal's todo or none, writing nothing", async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    const alpha = await issueCredential(t, { kind: 'PEER', goalId, agentId: 'alpha' });
    const other = await peerInNewGoal(t);
    const foreign = await t.ok(
      `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ... on Todo { id } } }`,
      { input: { goalId: other.goalId, title: 'theirs', taskClass: 'ADVANCEMENT_TASK' } },
      other.token,
    );
    const deliveries = async () =>
      Number(
        rowsOf<{ n: number }>(
          await database.db.execute(
            sql`select count(*)::int as n from deliveries where goal_id = ${goalId}`,
          ),
        )[0]?.n,
      );
    for (const todoId of [foreign.createTodo.id, 'todo_does-not-exist']) {
      const delivered = await t.gql(
        `mutation($input: DeliverInput!) { deliver(input: $input) { __typename } }`,
        {
          input: {
            goalId,
            to: 'beta',
            kind: 'REQUEST',
            subject: 's',
            body: 'b',
            todoId,
            idempotencyKey: uid('k'),
          },
        },
        alpha.token,
      );
      expect(delivered.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const waited = await t.gql(
        `mutation($input: WaitInput!) { startWait(input: $input) { __typename } }`,
        { input: { goalId, agentId: 'beta', todoId, accept: ['DONE'], timeoutMs: 1000 } },
        alpha.token,
      );
      expect(waited.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(await deliveries()).toBe(0);
  });
});
