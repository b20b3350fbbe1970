/**
 * Property: whatever any mutation is given, the answer is a typed result or a client error
 * (BAD_USER_INPUT and the other client codes) — never an internal error — and an answer with
 * errors wrote nothing. Inputs are generated from the printed schema, so every mutation and
 * every input field is covered, with ids mixed from a real goal and garbage.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import {
  buildSchema,
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { rowsOf } from '../src/db/sql.ts';
import {
  createGoal,
  driver,
  issueCredential,
  openPrivateTestDatabase,
  registerAgent,
  registerProvider,
  startTestGateway,
  type TestGateway,
} from './support/harness.ts';

let database: Database;
let t: TestGateway;
// A database of its own: "an error writes nothing" counts every row of it, which other files'
// tests would move on a shared one. The fuzz sends as fast as the gateway answers, with one
// credential: the per-credential rate (test/limits.test.ts) would answer RATE_LIMITED in its
// place, so it is off here.
beforeAll(async () => {
  database = await openPrivateTestDatabase();
  t = await startTestGateway(database, { limits: { requestsPerSecond: 0 } });
});
afterAll(async () => {
  await t?.stop();
  await database?.close();
});

const schema = buildSchema(
  readFileSync(path.resolve(import.meta.dirname, '../schema/schema.graphql'), 'utf8'),
);
const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});

const TABLES = [
  'goals',
  'agents',
  'credentials',
  'delegations',
  'todos',
  'todo_transitions',
  'gates',
  'agent_visions',
  'agent_capabilities',
  'providers',
  'presence',
  'presence_changes',
  'observations',
  'waits',
  'wait_targets',
  'deliveries',
  'delivery_outcomes',
  'rosters',
  'roster_peers',
  'ledger_events',
];

async function rowCount(): Promise<number> {
  const counts = TABLES.map((table) => sql`(select count(*) from ${sql.identifier(table)})`);
  const [row] = rowsOf<{ n: string }>(
    await database.db.execute(sql`select (${sql.join(counts, sql` + `)})::text as n`),
  );
  return Number(row?.n);
}

/** Client mistakes and refusals; anything else (INTERNAL_SERVER_ERROR above all) fails. */
const CLIENT_CODES = new Set([
  'BAD_USER_INPUT',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
]);

function inputValue(
  type: GraphQLInputType,
  ids: readonly string[],
  depth: number,
): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return inputValue(type.ofType, ids, depth);
  const orNull = (a: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 6, arbitrary: a }, fc.constant(null));
  if (type instanceof GraphQLList) {
    return orNull(
      fc.array(inputValue(type.ofType, ids, depth + 1), { maxLength: depth > 1 ? 1 : 3 }),
    );
  }
  if (type instanceof GraphQLEnumType) {
    return fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
      fc.constant('NOT_A_VALUE'),
    );
  }
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields());
    return fc.record(
      Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, ids, depth + 1)])),
      { requiredKeys: fields.filter((f) => f.type instanceof GraphQLNonNull).map((f) => f.name) },
    );
  }
  const scalar = (type as GraphQLScalarType).name;
  const nasty = fc.constantFrom(
    '',
    ' ',
    'a\u0000b',
    '\uD800',
    'x\u001b[31mred',
    'rtl\u202Eeman',
    'two\nlines',
    '../../home/alice',
    '/home/alice/.ssh/id_rsa',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'y'.repeat(5000),
  );
  switch (scalar) {
    case 'ID':
      return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ids) }, nasty, fc.string());
    case 'String':
      return fc.oneof(
        { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9 ]{0,20}$/) },
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        { weight: 4, arbitrary: nasty },
      );
    case 'Int':
      return fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 60_000 }) },
        fc.integer(),
        fc.constantFrom(0, -1, 2_147_483_647, -2_147_483_648),
      );
    case 'Float':
      return fc.double({ noNaN: true });
    case 'Boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom('0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', 'yesterday'),
      );
    case 'Seq':
      return fc.oneof(
        fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
        fc.constantFrom('-1', '1.5', 'abc'),
      );
    default:
      return fc.string({ maxLength: 20 });
  }
}

describe(`every mutation, any input (${driver})`, () => {
  it('answers a typed result or a client error, never an internal error, and an error writes nothing', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    const peer = await issueCredential(t, { kind: 'PEER', goalId, agentId: 'alpha' });
    // An hour's TTL: the run may outlast the default one, and a lapse writes a presence change.
    const provider = await registerProvider(t, [goalId], { presenceTtlMs: 3_600_000 });
    const todo = await t.ok(
      `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ... on Todo { id } } }`,
      { input: { goalId, title: 'seed', taskClass: 'ADVANCEMENT_TASK' } },
      peer.token,
    );
    const ids = [goalId, 'alpha', 'beta', todo.createTodo.id, 'no-such-id', provider.providerId];
    const tokens = [t.adminToken, peer.token, provider.token];

    expect(mutations.length).toBeGreaterThan(30);
    const seen = { typed: 0, refused: 0 };
    for (const field of mutations) {
      const args = field.args;
      const variables = fc.record(
        Object.fromEntries(args.map((a) => [a.name, inputValue(a.type, ids, 0)])),
        { requiredKeys: args.filter((a) => a.type instanceof GraphQLNonNull).map((a) => a.name) },
      );
      const signature = args.map((a) => `$${a.name}: ${a.type}`).join(', ');
      const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const query = `mutation${signature ? `(${signature})` : ''} { ${field.name}${call ? `(${call})` : ''} { __typename } }`;
      await fc.assert(
        fc.asyncProperty(variables, fc.constantFrom(...tokens), async (vars, token) => {
          const before = await rowCount();
          const result = await t.gql(query, vars as Record<string, unknown>, token);
          const codes = (result.errors ?? []).map((e) => e.extensions?.code ?? 'NO_CODE');
          for (const code of codes) {
            expect(CLIENT_CODES.has(code), `${field.name} answered ${code}`).toBe(true);
          }
          expect(result.status, field.name).toBeLessThan(500);
          if (codes.length > 0) {
            seen.refused++;
            expect(await rowCount(), `${field.name} wrote on error`).toBe(before);
          } else {
            seen.typed++;
          }
        }),
        { numRuns: 30, seed: 20261202 },
      );
    }
    // Both kinds of answer were exercised, not only refusals.
    expect(seen.typed).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  }, 300_000);
});
