import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { printSchema } from 'graphql';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';
import { schema } from '../src/schema.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  driver,
  eventually,
  openTestDatabase,
  peerInNewGoal,
  startTestGateway,
  subscribe,
  testConfig,
  wsClient,
  wsQuery,
} from './support/harness.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Runs `npm start`'s entry point as a real process and collects its output. */
function runGateway(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Log lines: JSON on stderr (stdout stays empty). */
    logs: () =>
      stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    /** What is not a log line: the one line a failed start prints. */
    messages: () =>
      stderr
        .trim()
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('{')),
  };
}

const processEnv = (): Record<string, string> =>
  process.env.TEST_DATABASE_URL
    ? {
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        SWITCHBOARD_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sb-')),
      }
    : { SWITCHBOARD_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sb-')) };

/** A file holding `text`, as a secret mounted into a container would. */
function tokenFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-secret-')), 'admin-token');
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe(`configuration (${driver})`, () => {
  it('reads defaults and rejects bad values with one actionable line each', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4000, exploration: true });
    expect(config.database).toEqual({ driver: 'pglite', dataDir: path.resolve('.switchboard') });
    expect(loadConfig({ SWITCHBOARD_DATA_DIR: 'memory:' }).database).toEqual({
      driver: 'pglite',
      dataDir: null,
    });
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /^PORT must be an integer/],
      [{ PORT: '70000' }, /^PORT must be an integer from 0 to 65535/],
      [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL is not a valid URL/],
      [{ DATABASE_URL: 'mysql://h/db' }, /^DATABASE_URL must start with postgres:\/\//],
      [{ DATABASE_URL: 'postgres://host' }, /^DATABASE_URL must name a host and a database/],
      [{ SWITCHBOARD_ADMIN_TOKEN: 'short' }, /^SWITCHBOARD_ADMIN_TOKEN must be at least 32/],
      [{ SWITCHBOARD_EXPLORATION: 'maybe' }, /^SWITCHBOARD_EXPLORATION must be true or false/],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
      [
        { SWITCHBOARD_ADMIN_TOKEN_FILE: '/nonexistent/admin-token' },
        /^SWITCHBOARD_ADMIN_TOKEN_FILE: cannot read "\/nonexistent\/admin-token" \(ENOENT\)/,
      ],
      [
        { SWITCHBOARD_ADMIN_TOKEN_FILE: tokenFile('short\n') },
        /^SWITCHBOARD_ADMIN_TOKEN_FILE \(".*"\) must be at least 32 characters long/,
      ],
      [
        { SWITCHBOARD_ADMIN_TOKEN_FILE: tokenFile('') },
        /^SWITCHBOARD_ADMIN_TOKEN_FILE \(".*"\) is empty/,
      ],
      [
        { SWITCHBOARD_ADMIN_TOKEN_FILE: tokenFile(`${'x'.repeat(30)} y`) },
        /may hold only letters, digits and -\._~\+\/=/,
      ],
      [
        {
          SWITCHBOARD_ADMIN_TOKEN: 'x'.repeat(30),
          SWITCHBOARD_ADMIN_TOKEN_FILE: tokenFile('y'.repeat(30)),
        },
        /^SWITCHBOARD_ADMIN_TOKEN and SWITCHBOARD_ADMIN_TOKEN_FILE are both set/,
      ],
      [
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
        /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
      ],
      [
        { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://c:4317' },
        /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http\(s\) URL/,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  it('reads the admin token from a secret file, and tracing from the standard OpenTelemetry variables', () => {
    const token = `sb_${'0123456789abcdef'.repeat(3)}`;
    expect(loadConfig({ SWITCHBOARD_ADMIN_TOKEN_FILE: tokenFile(`${token}\n`) }).adminToken).toBe(
      token,
    );
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: 'switchboard',
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/v1/traces',
        OTEL_SERVICE_NAME: 'switchboard-eu',
      }).tracing,
    ).toEqual({ url: 'https://traces.example/v1/traces', serviceName: 'switchboard-eu' });
    for (const off of [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }])
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...off }).tracing,
      ).toBeNull();
  });

  it('exits non-zero with one clear line for a bad DATABASE_URL, an unreachable database, a port in use and an unusable data folder', async () => {
    const notAFolder = path.join(mkdtempSync(path.join(tmpdir(), 'sb-')), 'file');
    writeFileSync(notAFolder, 'x');
    const token = { SWITCHBOARD_ADMIN_TOKEN: `sb_${'0123456789abcdef'.repeat(3)}` };
    const runs = [
      [
        { DATABASE_URL: 'mysql://localhost/db' },
        /^switchboard: DATABASE_URL must start with postgres/,
      ],
      [
        { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ...token },
        /^switchboard: DATABASE_URL: cannot use the database \(connection refused/,
      ],
      [
        { ...processEnv(), ...token, PORT: String(t.gateway.port) },
        /^switchboard: PORT: 127\.0\.0\.1:\d+ is already in use/,
      ],
      [
        { SWITCHBOARD_DATA_DIR: notAFolder },
        /^switchboard: SWITCHBOARD_DATA_DIR: cannot use ".*" as the data folder \(EEXIST|ENOTDIR/,
      ],
    ] as const;
    await Promise.all(
      runs.map(async ([env, message]) => {
        const run = runGateway(env);
        expect(await run.exited, run.stderr()).toBe(1);
        const lines = run.messages();
        expect(lines, run.stderr()).toHaveLength(1);
        expect(lines[0]).toMatch(message);
      }),
    );
  }, 180_000); // four processes starting TypeScript at once: minutes on a loaded 2-core machine
});

describe(`process lifecycle (${driver})`, () => {
  it('starts, serves, and on SIGTERM drains (/readyz 503), closes sockets and the database and exits 0', async () => {
    const env = processEnv();
    const run = runGateway({ ...env, PORT: '0', SWITCHBOARD_DRAIN_MS: '1500' });
    const ready = await eventually(
      () => run.logs().find((line) => line.msg === 'switchboard ready'),
      'the gateway to log that it is ready',
      90_000,
    );
    // No admin token was configured: one was generated into the data folder, path logged only.
    const tokenFile = path.join(env.SWITCHBOARD_DATA_DIR as string, 'admin-token');
    const adminToken = readFileSync(tokenFile, 'utf8').trim();
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(run.logs().find((line) => line.msg === 'generated an admin token')?.file).toBe(
      tokenFile,
    );
    expect(run.stderr()).not.toContain(adminToken);
    expect(run.stdout()).toBe('');
    expect(ready.driver).toBe(driver);

    const url = ready.url as string;
    const base = url.replace('/graphql', '');
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', driver });

    let closed: { code: number } | undefined;
    const client = wsClient(url.replace('http', 'ws'), adminToken, (event) => {
      closed = event;
    });
    expect((await wsQuery(client, '{ me { kind } }')).data).toEqual({ me: { kind: 'ADMIN' } });

    run.child.kill('SIGTERM');
    // Draining: not ready, still serving.
    await eventually(
      async () => ((await fetch(`${base}/readyz`)).status === 503 ? true : undefined),
      '/readyz to answer 503 while draining',
    );
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await run.exited).toBe(0);
    expect((await eventually(() => closed, 'the socket to be closed by the server')).code).toBe(
      1001,
    );
    expect(run.logs().map((line) => line.msg)).toContain('switchboard stopped');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    await client.dispose();
  }, 180_000);
});

describe(`http surface (${driver})`, () => {
  it('reports health and readiness', async () => {
    const base = t.url.replace('/graphql', '');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', driver });
  });

  it('serves GraphiQL at /graphql to a browser', async () => {
    const page = await fetch(t.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Switchboard');
  });

  it('refuses request bodies over the limit with 413', async () => {
    const result = await fetch(t.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      body: JSON.stringify({ query: `{ me { kind } }`, padding: 'x'.repeat(200_000) }),
    });
    expect(result.status).toBe(413);
    expect(await result.json()).toEqual({
      errors: [{ message: 'request body is larger than 100000 bytes' }],
    });
  });

  it('refuses a chunked request body (no Content-Length) with 411, as documented', async () => {
    const { request } = await import('node:http');
    const url = new URL(t.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.write(JSON.stringify({ query: '{ me { kind } }' }));
      req.end();
    });
    expect(status).toBe(411);
  });

  it('blocks cross-site simple requests (CSRF prevention): one needs Authorization or the CSRF header', async () => {
    const url = `${t.url}?query=${encodeURIComponent('{ me { kind } }')}`;
    const forged = await fetch(url);
    expect(forged.status).toBe(403);
    expect((await forged.json()).errors[0].extensions.code).toBe('CSRF_HEADER_REQUIRED');
    // a page can set neither header cross-site without a CORS preflight
    for (const headers of [
      { authorization: `Bearer ${t.adminToken}` } as Record<string, string>,
      { authorization: `Bearer ${t.adminToken}`, 'x-graphql-yoga-csrf': '1' },
    ]) {
      const allowed = await fetch(url, { headers });
      expect(await allowed.json()).toEqual({ data: { me: { kind: 'ADMIN' } } });
    }
  });

  // Depth is limited too, but no registry type nests deep enough to reach the limit yet.
  it('limits aliases and tokens without saying what the limits are', async () => {
    const aliases = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { kind }`).join(' ')} }`;
    const tokens = `{ me { ${Array.from({ length: 3000 }, () => 'kind').join(' ')} } }`;
    for (const query of [aliases, tokens]) {
      const result = await t.gql(query);
      expect(result.data ?? null).toBeNull();
      const message = result.errors?.[0]?.message ?? '';
      expect(message).not.toBe('');
      expect(message).not.toMatch(/\d/);
    }
  });

  it('masks unexpected errors', async () => {
    const broken = await openTestDatabase();
    const gateway = await startTestGateway(broken);
    await broken.close(); // every query now fails inside the driver
    const result = await gateway.gql(`{ goals { id } }`);
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: 'Unexpected error.',
        extensions: {
          code: 'INTERNAL_SERVER_ERROR',
          errorId: expect.any(String),
          requestId: expect.any(String),
        },
      }),
    ]);
    expect(JSON.stringify(result)).not.toMatch(/stack|at |closed|CONNECTION|PGlite/i);
    const ready = await fetch(gateway.url.replace('/graphql', '/readyz'));
    expect(ready.status).toBe(503);
    await gateway.stop();
  });

  it('switches GraphiQL, introspection and suggestions off with one setting', async () => {
    const gateway = await startTestGateway(database, { exploration: false });
    const page = await fetch(gateway.url, { headers: { accept: 'text/html' } });
    expect(await page.text()).not.toContain('GraphiQL');
    const introspection = await gateway.gql(`{ __schema { queryType { name } } }`);
    expect(introspection.errors?.[0]?.message).toContain('introspection');
    const typo = await gateway.gql(`{ goal { id } }`);
    expect(typo.errors?.[0]?.message).not.toContain('Did you mean');
    expect((await gateway.ok(`{ me { kind } }`)).me.kind).toBe('ADMIN');
    await gateway.stop();
  });

  it('writes the admin token file once, with mode 0600, and logs only its path', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sb-'));
    const lines: string[] = [];
    const config = testConfig({ adminToken: null, dataDir });
    const log = createLogger('info', (line) => lines.push(line));
    const first = await startGateway(config, log, { database });
    const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    await first.stop();
    const second = await startGateway(config, log, { database });
    const me = await fetch(second.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { kind } }' }),
    });
    expect(await me.json()).toEqual({ data: { me: { kind: 'ADMIN' } } });
    await second.stop();
    expect(lines.join('')).not.toContain(token);
    expect(lines.join('')).toContain(path.join(dataDir, 'admin-token'));
  });

  it('closes open sockets when the server stops', async () => {
    const gateway = await startTestGateway(database);
    const peer = await peerInNewGoal(gateway);
    let closed: { code: number } | undefined;
    const client = wsClient(gateway.wsUrl, peer.token, (event) => {
      closed = event;
    });
    await wsQuery(client, '{ me { kind } }');
    await gateway.stop();
    expect((await eventually(() => closed, 'the socket to close')).code).toBe(1001);
    await client.dispose();
  });
});

describe('schema', () => {
  it('the checked-in schema/schema.graphql is what the code prints', () => {
    const checkedIn = readFileSync(path.join(root, 'schema/schema.graphql'), 'utf8');
    expect(checkedIn).toBe(`${printSchema(schema)}\n`);
  });

  it('describes every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        ['String', 'Boolean', 'ID', 'Int', 'Float'].includes(type.name)
      )
        continue;
      if (!type.description) missing.push(type.name);
      if ('getFields' in type) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if ('getValues' in type) {
        for (const value of type.getValues())
          if (!value.description) missing.push(`${type.name}.${value.name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe(`one bad message never takes a socket down (${driver})`, () => {
  it('answers a syntax error, too many tokens and too much depth on their own operation ids; the socket and its live subscription carry on', async () => {
    const peer = await peerInNewGoal(t);
    let closed: { code: number } | undefined;
    const client = wsClient(t.wsUrl, peer.token, (event) => {
      closed = event;
    });
    const STREAM = `subscription($g: ID!, $a: ID!) {
      ledgerEvents(goalId: $g, agentId: $a, after: "0") { __typename }
    }`;
    const live = subscribe(client, STREAM, { g: peer.goalId, a: peer.agentId }, 'ledgerEvents');
    const bad = [
      'subscription { ledgerEvents(',
      `{ me { ${Array.from({ length: 4100 }, () => 'kind').join(' ')} } }`,
      `{ ${'me { '.repeat(14)}kind${' }'.repeat(15)}`,
    ];
    for (const query of bad) {
      const failed = await wsQuery(client, query).then(
        (result) => result.errors,
        (error: unknown) => error,
      );
      expect(JSON.stringify(failed)).toMatch(/message/);
    }
    await t.ok(
      `mutation($input: RecordEventInput!) { recordEvent(input: $input) { __typename } }`,
      { input: { goalId: peer.goalId, eventKind: 'VALIDATION', summary: 'still here' } },
      peer.token,
    );
    expect(await live.take(1)).toEqual([{ __typename: 'LedgerEvent' }]);
    expect(closed).toBeUndefined();
    expect((await wsQuery(client, '{ me { kind } }')).data).toEqual({ me: { kind: 'PEER' } });
    live.dispose();
    await client.dispose();
  });

  it('closes a socket whose frame is over the body limit (1009), before authenticating it, and nothing else', async () => {
    const socket = new WebSocket(t.wsUrl, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(200_000) } }));
    expect(await closed).toBe(1009);
    expect((await t.ok(`{ me { kind } }`)).me.kind).toBe('ADMIN');
  });
});

describe('the embedded database has one writer', () => {
  it.skipIf(driver === 'postgres')(
    'a second opener of the same data folder is refused with one line; a lock left by a dead process is taken over',
    async () => {
      const { openDatabase } = await import('../src/db/database.ts');
      const dataDir = mkdtempSync(path.join(tmpdir(), 'sb-lock-'));
      // Restored from the run's migrated template: creating a database on disk takes seconds.
      const template = new Blob([readFileSync(inject('pgliteDump') as string)]);
      const first = await openDatabase({ driver: 'pglite', dataDir }, { loadDataDir: template });
      await expect(openDatabase({ driver: 'pglite', dataDir })).rejects.toThrow(
        new RegExp(`in use by process ${process.pid}`),
      );
      await first.close();
      // A process that is gone left its lock behind.
      const gone = spawn(process.execPath, ['-e', '0']);
      await new Promise((resolve) => gone.on('exit', resolve));
      writeFileSync(path.join(dataDir, 'switchboard.lock'), `${gone.pid}\n`);
      const second = await openDatabase({ driver: 'pglite', dataDir });
      expect(readFileSync(path.join(dataDir, 'switchboard.lock'), 'utf8').trim()).toBe(
        String(process.pid),
      );
      await second.close();
    },
    60_000,
  );
});
