/**
 * Compiled execution (graphql-jit) for queries, mutations and subscription events, and why a
 * subscription's source stream stays on the standard executor: graphql-jit 0.8.7 hands a
 * subscription field's `subscribe` the operation's variables as its arguments. Documents whose
 * variables are named after the arguments (as this suite's are) do not notice; `goalId: $g` or
 * `after: "0"` lose the argument, the resolver runs without a goal, and the stream's one item
 * is a masked internal error without data: a null payload to a client reading
 * `data.presenceChanged`. These tests subscribe with such documents, over a real socket in
 * process and against the gateway run as its own process (node --import tsx, as `npm start`
 * runs it), and fail on null payloads.
 */
import {
  GraphQLID,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeEvent } from '../src/graphql/execution/jit.ts';
import { t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  issueCredential,
  registerAgent,
  registerProvider,
  startGatewayProcess,
  subscribe,
  type TestGateway,
  wsClient,
} from './support/harness.ts';

/** Another variable name than the argument's, and an inline argument. */
const RENAMED = `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") {
  goalId agentId seq presence { liveness } scopeGap { reason } } }`;

/** A goal with one agent WORKING (seq 1) and a steward credential bound to it. */
async function seeded(gateway: Pick<TestGateway, 'ok'>) {
  const g = gateway as TestGateway;
  const goalId = await createGoal(g);
  const agentId = await registerAgent(g, goalId);
  const provider = await registerProvider(g, [goalId]);
  await provider.report([{ goalId, agentId, liveness: 'WORKING' }]);
  const steward = await issueCredential(g, { kind: 'STEWARD', goalIds: [goalId] });
  return { goalId, agentId, steward };
}

async function firstChange(wsUrl: string, token: string, goalId: string) {
  const client = wsClient(wsUrl, token);
  const stream = subscribe(client, RENAMED, { g: goalId }, 'presenceChanged');
  const [change] = await stream.take(1, 15_000);
  stream.dispose();
  await client.dispose();
  return change;
}

/** A subscription field that keeps the arguments its `subscribe` got, and resolves with its own. */
let subscribedWith: unknown = null;
const changedSchema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { x: { type: GraphQLString } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      changed: {
        type: GraphQLString,
        args: { goalId: { type: new GraphQLNonNull(GraphQLID) }, after: { type: GraphQLID } },
        subscribe: async function* (_root, args) {
          subscribedWith = args;
          yield 'event';
        },
        resolve: (event, args) => `${event} of ${args.goalId} after ${args.after}`,
      },
    },
  }),
});

describe(`compiled execution (${driver})`, () => {
  it('graphql-jit 0.8.7 gives a subscription field the variables, not its arguments (why source streams are not compiled)', async () => {
    const compiled = compileQuery(
      changedSchema,
      parse('subscription($g: ID!) { changed(goalId: $g) }'),
    );
    if (!isCompiledQuery(compiled) || !compiled.subscribe) throw new Error('did not compile');
    const stream = (await compiled.subscribe({}, {}, { g: 'goal-1' })) as AsyncIterator<unknown>;
    await stream.next();
    // If this starts failing, graphql-jit passes arguments now: source streams may be compiled.
    expect(subscribedWith).toEqual({ g: 'goal-1' });
  });

  it('executes each subscription event compiled, with the arguments a query would get', async () => {
    const document = parse('subscription($g: ID!) { changed(goalId: $g, after: "0") }');
    const event = (variableValues: Record<string, unknown>) =>
      executeEvent({ schema: changedSchema, document, rootValue: 'event', variableValues });
    // Compiled: the result carries the compiled operation's serializer.
    expect(await event({ g: 'goal-1' })).toEqual({
      data: { changed: 'event of goal-1 after 0' },
      stringify: expect.any(Function),
    });
    // Variables that do not coerce: the standard executor's answer, nothing resolved.
    const bad = await event({});
    expect(bad.data).toBeUndefined();
    expect(bad).not.toHaveProperty('stringify');
    expect(bad.errors?.map((e) => e.message)).toEqual([
      'Variable "$g" of required type "ID!" was not provided.',
    ]);
  });

  it('a subscription whose variables are not named after its arguments gets real payloads (real socket)', async () => {
    const { goalId, agentId, steward } = await seeded(t);
    const change = await firstChange(t.wsUrl, steward.token, goalId);
    expect(change).toEqual({
      goalId,
      agentId,
      seq: '1',
      presence: { liveness: 'WORKING' },
      scopeGap: null,
    });
  });

  it('queries and mutations answer the same typed results compiled', async () => {
    const { goalId, agentId, steward } = await seeded(t);
    const directory = await t.ok(
      `query($g: ID!) { directory(goalId: $g) { registeredAgentCount rows { agentId presence { liveness } } } }`,
      { g: goalId },
      steward.token,
    );
    expect(directory).toEqual({
      directory: {
        registeredAgentCount: 1,
        rows: [{ agentId, presence: { liveness: 'WORKING' } }],
      },
    });
    // A typed refusal from a union-typed mutation, and a masked client error, as before.
    const refused = await t.gql(
      `mutation($input: CreateGoalInput!) { createGoal(input: $input) { __typename } }`,
      { input: { goalId, title: 'again' } },
    );
    expect(refused).toEqual({
      status: 200,
      data: { createGoal: { __typename: 'GoalAlreadyExists' } },
    });
    const bad = await t.gql(`query { directory(goalId: "${goalId}", limit: -1) { goalId } }`);
    expect(bad.data).toBeNull(); // directory is non-null: the error nulls the whole answer
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // Out of scope: the scope gap, typed, as the standard executor gives it.
    const outsider = await createGoal(t);
    const gap = await t.ok(
      `query($g: ID!) { directory(goalId: $g) { rows { agentId } scopeGap { reason } } }`,
      { g: outsider },
      steward.token,
    );
    expect(gap).toEqual({ directory: { rows: [], scopeGap: { reason: expect.any(String) } } });
  });
});

describe(`the gateway as its own process (${driver})`, () => {
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>>;

  beforeAll(async () => {
    gateway = await startGatewayProcess(process.env.TEST_DATABASE_URL ?? null, {
      NODE_ENV: 'production',
    });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it('sends real subscription payloads, not nulls', async () => {
    const { goalId, agentId, steward } = await seeded(gateway);
    const change = await firstChange(gateway.wsUrl, steward.token, goalId);
    expect(change).toEqual({
      goalId,
      agentId,
      seq: '1',
      presence: { liveness: 'WORKING' },
      scopeGap: null,
    });
  }, 60_000);
});
