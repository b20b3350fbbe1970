/**
 * The typed Switchboard client, shared by the CLI, the MCP server and the dashboard. This
 * entry is browser-safe (fetch + graphql-ws with an injectable WebSocket); Node-only parts
 * (config profiles) are in ./profiles.ts.
 */
export {
  type ClientOptions,
  createClient,
  DEFAULT_URL,
  fetchTransport,
  type SwitchboardClient,
  type Transport,
} from './client.ts';
export { ClientError, ClientErrorKind } from './errors.ts';
export * from './generated/graphql.ts';
export { recordableEventKinds, settledLiveness } from './input-values.ts';
export * from './streams.ts';
