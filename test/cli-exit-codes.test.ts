/**
 * Every answer of `switchboard --json` parses: each exit code the docs list, produced for real
 * (the binary as a subprocess against a real gateway), prints one JSON object on stdout; a
 * failure's object has `error: {code, exitCode, message, reason?}` beside the packet's own
 * fields, and its one line still goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  asCaller,
  type RunResult,
  registerProvider,
  runCli,
  startGateway,
  team,
} from './support/cli.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
let masked: Server;
let maskedUrl: string;
beforeAll(async () => {
  gw = await startGateway();
  // A gateway whose resolver failed: the masked error a real one answers, nothing more.
  masked = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/graphql-response+json' });
    response.end(JSON.stringify({ errors: [{ message: 'Unexpected error.' }], data: null }));
  });
  await new Promise<void>((resolve) => masked.listen(0, '127.0.0.1', resolve));
  maskedUrl = `http://127.0.0.1:${(masked.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await gw?.close();
  await new Promise((resolve) => masked?.close(resolve));
});

/** The exit codes docs/agents.md documents, with their names. */
function documented(): Map<number, string> {
  const rows = readFileSync('docs/agents.md', 'utf8').matchAll(/^\| (\d+)\s+\| `([A-Z_]+)`/gm);
  return new Map([...rows].map((row) => [Number(row[1]), row[2] as string]));
}

it('each documented exit code, with --json, prints one JSON object on stdout', async () => {
  const { goalId, a, b } = await team(gw.t, ['a', 'b']);
  const asA = asCaller(gw.url, a.token, goalId);
  const provider = await registerProvider(gw.t, [goalId]);
  await provider.report([{ goalId, agentId: b.agentId, liveness: 'IDLE' }]);
  const other = await team(gw.t, ['a']);
  const send = (...extra: string[]) =>
    runCli(['send', '--subject', 's', '--body', 'b', '--json', ...extra], { env: asA });

  const runs: [number, RunResult][] = [];
  const expectRun = async (code: number, run: Promise<RunResult>) => {
    const result = await run;
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(code);
    runs.push([code, result]);
    return result;
  };

  await expectRun(0, runCli(['whoami', '--json'], { env: asA }));
  await expectRun(1, runCli(['whoami', '--json'], { env: asCaller(maskedUrl, a.token) }));
  await expectRun(2, runCli(['directory', '--limit', 'many', '--json'], { env: asA }));
  await expectRun(2, runCli(['no-such-verb', '--json'], { env: asA }));
  await expectRun(3, runCli(['whoami', '--json'], { env: asCaller(gw.url, 'not-a-token') }));
  await expectRun(
    4,
    send('--to', other.peers[0]!.agentId, '--goal', other.goalId, '--key', 'k-gap'),
  );
  await expectRun(5, send('--key', 'k-not-ready'));
  await expectRun(
    6,
    runCli(['wait', b.agentId, '--until', 'done', '--timeout', '500ms', '--json'], { env: asA }),
  );
  await expectRun(
    7,
    send('--to', b.agentId, '--wait', '--window', '300ms', '--timeout', '60s', '--key', 'k-1'),
  );
  await expectRun(8, runCli(['wait', a.agentId, '--timeout', '5s', '--json'], { env: asA }));
  await expectRun(9, send('--to', b.agentId, '--key', 'k-1', '--subject', 'another subject'));
  await expectRun(
    10,
    runCli(['whoami', '--json'], { env: asCaller('http://127.0.0.1:9/graphql', a.token) }),
  );
  await expectRun(11, runCli(['todo', 'show', 'no-such-todo', '--json'], { env: asA }));
  await expectRun(12, runCli(['next', '--json'], { env: asA }));

  // every documented code was produced; the docs and `help exit-codes` list the same table
  expect(new Set(runs.map(([code]) => code))).toEqual(new Set(documented().keys()));
  const table = (await runCli(['help', 'exit-codes', '--json'])).json();
  expect(new Map(table.map((row: any) => [row.code, row.name]))).toEqual(documented());
  for (const [code, result] of runs) {
    const out = result.json();
    expect(typeof out).toBe('object');
    if (code === 0) {
      expect(out).not.toHaveProperty('error');
      continue;
    }
    expect(out.error, `exit ${code}: ${result.stdout}`).toMatchObject({
      code: documented().get(code),
      exitCode: code,
      message: expect.any(String),
    });
    expect(out.error.message.length).toBeGreaterThan(0);
    // the stderr line is still there, and says the same
    expect(result.stderr.trim().length).toBeGreaterThan(0);
    expect(result.stderr).not.toContain('not-a-token');
  }
  const byCode = new Map<number, any>(runs.map(([code, result]) => [code, result.json()]));
  // a failure the gateway answered with a packet keeps the packet's fields beside `error`
  expect(byCode.get(5)).toMatchObject({
    error: { reason: 'NOT_READY' },
    reason: 'NOT_READY',
    notReadyReason: 'NO_CONNECTED_PEER',
  });
  expect(byCode.get(7)).toMatchObject({
    error: { reason: 'STALLED' },
    __typename: 'Delivery',
    outcome: 'STALLED',
  });
  expect(byCode.get(9)).toMatchObject({
    error: { reason: 'IdempotencyConflict' },
    differingFields: ['SUBJECT'],
  });
  expect(byCode.get(11)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  expect(byCode.get(10)).toEqual({
    error: {
      code: 'SERVER_UNREACHABLE',
      exitCode: 10,
      message: expect.stringContaining('cannot reach http://127.0.0.1:9/graphql'),
      reason: 'UNREACHABLE',
    },
  });
  expect(byCode.get(3).error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'UNAUTHENTICATED' });
}, 60_000);

it('without --json a failure prints nothing on stdout, only its stderr line', async () => {
  const result = await runCli(['whoami'], {
    env: asCaller('http://127.0.0.1:9/graphql', 'some-token'),
  });
  expect(result.code).toBe(10);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
});
