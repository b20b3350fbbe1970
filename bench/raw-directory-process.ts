/**
 * The ceiling the directory is compared against: node:http + postgres.js running the same
 * service (the same SQL statements) and JSON.stringify of the same shape the GraphQL query
 * selects, with no GraphQL at all, for `?goal=…&limit=…` (1,000 rows unless told). Started by
 * bench/directory.ts; prints its URL over IPC.
 */
import { createServer } from 'node:http';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { type Caller, OPERATOR } from '../src/core/caller.ts';
import type { Db } from '../src/db/database.ts';
import { readDirectory } from '../src/directory/directory.ts';

const client = postgres(process.env.DATABASE_URL as string, { max: 10, onnotice: () => {} });
let statements = 0;
const db = drizzle(client, { logger: { logQuery: () => void statements++ } }) as unknown as Db;
const admin: Caller = OPERATOR;

/** The JSON the gateway returns for the query in bench/directory.ts, built by hand. */
async function directoryJson(goalId: string, limit: number): Promise<string> {
  const packet = await readDirectory(db, admin, goalId, limit);
  return JSON.stringify({
    data: {
      directory: {
        registeredAgentCount: packet.registeredAgentCount,
        rows: packet.rows.map((row) => ({
          agentId: row.agentId,
          agentModel: row.agentModel,
          hostSurface: row.hostSurface,
          work: { todoId: row.work.todoId, claimed: row.work.claimed, lease: row.work.lease },
          presence: row.presence && {
            provider: row.presence.provider,
            providerSessionRef: row.presence.providerSessionRef,
            liveness: row.presence.liveness,
            basis: row.presence.basis,
            stateChangeSeq: String(row.presence.stateChangeSeq),
          },
        })),
      },
    },
  });
}

const server = createServer((req, res) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  statements = 0;
  directoryJson(query.get('goal') as string, Number(query.get('limit') ?? 1000)).then(
    (body) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-statements': String(statements),
      });
      res.end(body);
    },
    (error) => {
      res.writeHead(500);
      res.end(String(error));
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({
    type: 'ready',
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`,
  });
});
// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string }) => {
  if (message.type === 'stop') server.close(() => void client.end().then(() => process.exit(0)));
});
