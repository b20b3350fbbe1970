/**
 * The MCP server's stdio transport: one JSON-RPC message per line, in and out. Unlike the SDK's
 * StdioServerTransport, which closes the session on a message over its buffer size and answers
 * a malformed line with nothing, it answers every line it cannot serve with a JSON-RPC error
 * and goes on reading: -32700 (parse error) for a line that is not JSON, -32600 (invalid
 * request) for JSON that is not a JSON-RPC message, and -32600 for a line over
 * `maxMessageBytes`, whose bytes are dropped as they arrive (never held).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own bound on one message (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The parts of the line read so far. */
  private parts: Buffer[] = [];
  private size = 0;
  /** The line in progress went over the bound: its bytes are dropped up to its newline. */
  private oversized = false;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.parts = [];
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const end = data.indexOf(NEWLINE, start);
      if (end === -1) {
        this.take(data.subarray(start));
        return;
      }
      this.take(data.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
  };

  private take(part: Buffer): void {
    if (this.oversized || part.length === 0) return;
    this.size += part.length;
    if (this.size > this.maxMessageBytes) {
      this.oversized = true;
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  private endLine(): void {
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    const oversized = this.oversized;
    this.parts = [];
    this.size = 0;
    this.oversized = false;
    if (oversized) {
      this.refuse(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: a message is at most ${this.maxMessageBytes} bytes; this one was dropped`,
      );
      return;
    }
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (message.success) this.onmessage?.(message.data);
    else
      this.refuse(
        idOf(value),
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 request, notification or response (one object per line)',
      );
  }

  /** Answers a line it cannot serve, and reports it (the server logs it on stderr). */
  private refuse(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

/** A request's id when it can be read from an invalid message (JSON-RPC: else null). */
function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
