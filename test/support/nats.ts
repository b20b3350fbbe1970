/**
 * A NATS server of a test's own (never the machine's on 4222), which it can stop and start
 * again on the same port, and a TCP relay in front of it that can cut a gateway's connection.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { eventually } from './harness.ts';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export class NatsServer {
  private process: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<NatsServer> {
    const server = new NatsServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(this.port)], {
      stdio: 'ignore',
    });
    this.process = child;
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
        return (await accepts(this.port)) ? true : undefined;
      },
      `nats-server on port ${this.port}`,
      10_000,
    );
  }

  /** Ends it at once (SIGKILL), as a crash would, and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Relays TCP connections from a port of its own to `target`. `cut()` ends every connection
 * through it; while `refusing`, new ones are ended as they arrive.
 */
export class Relay {
  refusing = false;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: number): Promise<Relay> {
    let relay: Relay | null = null;
    const server = net.createServer((inbound) => (relay as Relay).accept(inbound, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relay = new Relay(server, (server.address() as net.AddressInfo).port);
    return relay;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  cut(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(inbound: net.Socket, target: number): void {
    if (this.refusing) {
      inbound.destroy();
      return;
    }
    const outbound = net.connect(target, '127.0.0.1');
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}
