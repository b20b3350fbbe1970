/**
 * How a tool is declared and answered. Every tool has an output schema and answers with
 * `structuredContent` plus a short text. `type` in the structured content is the typed outcome
 * (the GraphQL type name: `Delivery`, `DeliveryRefused`, `ScopeGap`, …): expected outcomes are
 * ordinary results. Bad arguments and transport failures are `isError` results (the SDK answers
 * schema violations that way itself); nothing a tool throws reaches the transport.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpContext } from './context.ts';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool answers: the structured packet (with its typed outcome) and one short text. */
export interface Answer {
  type: string;
  text: string;
  data?: Record<string, unknown>;
}

export interface ToolSpec<Shape extends z.ZodRawShape> {
  description: string;
  input: Shape;
  /** Fields of the structured content besides `type` (the schema stays open to the rest). */
  output?: z.ZodRawShape;
  /** The values `type` takes. */
  types: readonly [string, ...string[]];
  readOnly?: boolean;
  run(args: z.infer<z.ZodObject<Shape>>, extra: Extra): Promise<Answer>;
}

/** A tool answer for `packet`, whose `__typename` (if any) gives way to `type`. */
export function answer(type: string, text: string, packet: object = {}): Answer {
  const { __typename: _, ...data } = packet as Record<string, unknown>;
  return { type, text, data };
}

export function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function registerTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  ctx: McpContext,
  name: string,
  spec: ToolSpec<Shape>,
): void {
  const outputSchema = z.looseObject({
    type: z.enum(spec.types).describe('the typed outcome'),
    ...spec.output,
  });
  const callback = async (args: z.infer<z.ZodObject<Shape>>, extra: Extra) => {
    try {
      const { type, text, data } = await spec.run(args, extra);
      return {
        content: [{ type: 'text', text }],
        structuredContent: { ...data, type },
      } satisfies CallToolResult;
    } catch (error) {
      const message = ctx.explain(error);
      ctx.log(`${name}: ${message}`);
      return failure(message);
    }
  };
  server.registerTool(
    name,
    {
      description: spec.description,
      inputSchema: spec.input,
      outputSchema,
      annotations: spec.readOnly ? { readOnlyHint: true } : undefined,
    },
    callback as never,
  );
}

/** `type` of a packet that reports a scope gap in a field rather than as its union member. */
export const typeOf = (packet: { scopeGap?: unknown }, ok: string) =>
  packet.scopeGap ? 'ScopeGap' : ok;

/** seconds → milliseconds, for the optional duration arguments. */
export const ms = (seconds: number | undefined) =>
  seconds === undefined ? undefined : Math.round(seconds * 1000);
