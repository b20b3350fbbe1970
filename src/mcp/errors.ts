/**
 * JSON-RPC errors as the MCP specification numbers them. The SDK's McpError puts
 * "MCP error <code>: " in front of its message, and a client's McpError puts it there again
 * ("MCP error -32602: MCP error -32602: …"): `plainErrors` takes it off every error response a
 * transport sends, so each message reads once.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The specification's "Resource not found" (resources/read, resources/subscribe). */
export const RESOURCE_NOT_FOUND = -32002;

export const resourceNotFound = (uri: string) =>
  new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });

export const invalidParams = (message: string) => new McpError(ErrorCode.InvalidParams, message);

const PREFIX = /^MCP error -?\d+: /;

/** The transport, answering error responses without McpError's prefix. */
export function plainErrors<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if ('error' in message && PREFIX.test(message.error.message))
      message = {
        ...message,
        error: { ...message.error, message: message.error.message.replace(PREFIX, '') },
      };
    return send(message, options);
  };
  return transport;
}
