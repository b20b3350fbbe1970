/**
 * Fixtures of the MCP tests: `switchboard mcp --http` run as the real binary, the SDK's own
 * client over Streamable HTTP, the Claude Code channel notification as a client receives it,
 * and a proxy that loses an answer the gateway gave.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { BIN, eventually, tempHome } from './cli.ts';

/** `notifications/claude/channel` as Claude Code reads it. */
export const ChannelNotificationSchema = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()) }),
});
export type ChannelEvent = z.infer<typeof ChannelNotificationSchema>['params'];

/** What a Claude Code client declares: the channel capability (experimental). */
export const CHANNEL_CLIENT = { capabilities: { experimental: { 'claude/channel': {} } } };

export interface McpHttpServer {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Runs `switchboard mcp --http <listen>` with `env` (SWITCHBOARD_URL, maybe a token and goal)
 * until stopped; resolves with the URL it prints once listening.
 */
export async function startMcpHttp(
  env: Record<string, string>,
  flags: string[] = [],
  listen = '127.0.0.1:0',
): Promise<McpHttpServer> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'mcp', '--http', listen, ...flags], {
    env: { PATH: process.env.PATH ?? '', HOME: tempHome(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await eventually(
    () => {
      if (child.exitCode !== null) throw new Error(`switchboard mcp --http exited: ${stderr}`);
      return / over HTTP at (\S+)/.exec(stderr)?.[1];
    },
    'switchboard mcp --http to listen',
    15_000,
  );
  return {
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The SDK's client over Streamable HTTP, with a bearer token when given. */
export async function httpClient(
  url: string,
  token?: string,
  options: { capabilities?: Record<string, unknown> } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  const client = new Client({ name: 'switchboard-test', version: '0' }, options);
  await client.connect(transport);
  return { client, transport };
}

/** Channel events a client receives, and a wait for the next one that matches. */
export function channelEvents(client: Client) {
  const events: ChannelEvent[] = [];
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ChannelNotificationSchema, (n) => {
    events.push(n.params);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    events,
    /** The first event (from index `from`) whose meta matches, within `ms`. */
    next(meta: Record<string, string>, ms = 10_000, from = 0): Promise<ChannelEvent> {
      const find = () =>
        events.slice(from).find((e) => Object.entries(meta).every(([k, v]) => e.meta[k] === v));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no channel event ${JSON.stringify(meta)} within ${ms} ms`)),
          ms,
        );
        const check = () => {
          const hit = find();
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

/**
 * A proxy to the gateway's GraphQL endpoint that loses the answer to the first request whose
 * body `lose` picks: it forwards the request, waits for the gateway's answer, then destroys the
 * connection instead of answering. Everything else passes (HTTP only: no sockets).
 */
export async function lossyProxy(target: string, lose: (body: string) => boolean) {
  let lost = false;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'accept', 'authorization'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
    const answer = await fetch(target, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? body : undefined,
    });
    const text = await answer.text();
    if (!lost && lose(body.toString('utf8'))) {
      lost = true;
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
