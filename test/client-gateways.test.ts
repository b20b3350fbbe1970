/**
 * The typed client with several gateways (src/client/client.ts, gateways.ts): a gateway that
 * stops answering is left for the next one — by every request in flight, however many fail
 * over at once. The stalled gateway is a real gateway process stopped with SIGSTOP (its socket
 * still accepts, nothing answers, its /readyz times out).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, WhoamiDocument } from '../src/client/index.ts';
import type { Database } from '../src/db/database.ts';
import {
  openTestDatabase,
  startGatewayProcess,
  startTestGateway,
  type TestGateway,
} from './support/harness.ts';

let database: Database;
let healthy: TestGateway;
let stalled: Awaited<ReturnType<typeof startGatewayProcess>>;

beforeAll(async () => {
  database = await openTestDatabase();
  stalled = await startGatewayProcess(null);
  // One operator token for both, as one deployment's gateways share it.
  healthy = await startTestGateway(database, { adminToken: stalled.adminToken });
}, 60_000);

afterAll(async () => {
  stalled?.child.kill('SIGCONT');
  await stalled?.kill9();
  await healthy?.stop();
  await database?.close();
});

describe('a client of two gateways', () => {
  it('moves every request in flight to the gateway that answers when the first stalls', async () => {
    const client = createClient({
      url: `${stalled.url},${healthy.url}`,
      token: healthy.adminToken,
    });
    // Both answer while both run.
    expect((await client.request(WhoamiDocument)).me.kind).toBe('ADMIN');
    expect(client.url).toBe(stalled.url);

    stalled.child.kill('SIGSTOP');
    const started = Date.now();
    // Several requests wait on the stalled gateway at once and leave it together: none is
    // sent back to it by another's move.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => client.request(WhoamiDocument)),
    );
    const elapsed = Date.now() - started;
    for (const answer of answers) expect(answer.me.kind).toBe('ADMIN');
    // A readiness check every 2 s, each given 5 s: well inside the 30 s a request may wait
    // on the last gateway it tries.
    expect(elapsed).toBeLessThan(15_000);
    expect(client.url).toBe(healthy.url);

    // The next request starts at the gateway that answered last.
    const next = Date.now();
    await client.request(WhoamiDocument);
    expect(Date.now() - next).toBeLessThan(2_000);
  }, 60_000);
});
