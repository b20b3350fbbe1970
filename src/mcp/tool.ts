/**
 * How a tool is declared and answered. Every tool has an output schema and answers with
 * `structuredContent` plus a short text. `type` in the structured content is the typed outcome
 * (the GraphQL type name: `Delivery`, `DeliveryRefused`, `ScopeGap`, …): expected outcomes are
 * ordinary results. Bad arguments and transport failures are `isError` results, so the agent
 * can read them and correct itself; nothing a tool throws reaches the transport. Only a tool
 * that does not exist is a protocol error (server.ts).
 *
 * An enum argument takes its value in either case (`done` or `DONE`), as the CLI does; its
 * schema lists the upper-case values the gateway accepts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  Tool,
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

/** A tool as the server lists and calls it. */
export interface RegisteredTool {
  listing: Tool;
  call(args: unknown, extra: Extra): Promise<CallToolResult>;
}

/**
 * Each server's tools, which server.ts answers tools/list and tools/call from: its list is
 * compact (the SDK's repeats `$schema` in every schema and adds an `execution` member to every
 * tool, which every agent pays for in prompt tokens on every turn), and an unknown tool is a
 * protocol error (-32602), as the specification says, not a tool result.
 */
const registries = new WeakMap<McpServer, Map<string, RegisteredTool>>();

export function toolsOf(server: McpServer): Map<string, RegisteredTool> {
  let tools = registries.get(server);
  if (!tools) {
    tools = new Map();
    registries.set(server, tools);
  }
  return tools;
}

/** A JSON Schema without its `$schema` member. */
function jsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' });
  return rest as Tool['inputSchema'];
}

const upperCase = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.toUpperCase()
    : Array.isArray(value)
      ? value.map(upperCase)
      : value;

/** Whether an argument's values are an enum (possibly optional, defaulted or in a list). */
function isEnum(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodEnum) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault)
    return isEnum(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return isEnum(schema.element as z.ZodType);
  return false;
}

/** The input shape with each enum argument taking either case. */
function caseless(shape: z.ZodRawShape): z.ZodRawShape {
  return Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [
      key,
      isEnum(schema as z.ZodType) ? z.preprocess(upperCase, schema as z.ZodType) : schema,
    ]),
  );
}

export function registerTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  ctx: McpContext,
  name: string,
  spec: ToolSpec<Shape>,
): void {
  const input = z.object(caseless(spec.input));
  const output = z.looseObject({ type: z.enum(spec.types) });
  const annotations = spec.readOnly ? { readOnlyHint: true } : undefined;
  toolsOf(server).set(name, {
    listing: {
      name,
      description: spec.description,
      inputSchema: jsonSchema(input),
      outputSchema: { type: 'object', properties: { type: { enum: [...spec.types] } } },
      ...(annotations ? { annotations } : {}),
    },
    async call(args, extra) {
      const parsed = input.safeParse(args ?? {});
      if (!parsed.success)
        return failure(
          `Input validation error: invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`,
        );
      try {
        const { type, text, data } = await spec.run(
          parsed.data as z.infer<z.ZodObject<Shape>>,
          extra,
        );
        const structuredContent = { ...data, type };
        // A type the tool does not declare is a bug here, never a result to pass on.
        if (!output.safeParse(structuredContent).success)
          throw new Error(`${name} answered the undeclared type ${type}`);
        return { content: [{ type: 'text', text }], structuredContent };
      } catch (error) {
        const message = ctx.explain(error);
        ctx.log(`${name}: ${message}`);
        return failure(message);
      }
    },
  });
}

/** `type` of a packet that reports a scope gap in a field rather than as its union member. */
export const typeOf = (packet: { scopeGap?: unknown }, ok: string) =>
  packet.scopeGap ? 'ScopeGap' : ok;

/** seconds → milliseconds, for the optional duration arguments. */
export const ms = (seconds: number | undefined) =>
  seconds === undefined ? undefined : Math.round(seconds * 1000);
