/**
 * Prints the token cost of each toolset's tools/list answer (o200k_base tokens of the JSON:
 * names, descriptions, input and output schemas), as JSON. No gateway needed: tools/list
 * calls nothing. `npm run mcp:budget`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ALL_TOOLSETS_BUDGET, DEFAULT_TOOLSET_BUDGET, toolListTokens } from '../src/mcp/budget.ts';
import { McpContext } from '../src/mcp/context.ts';
import { createMcpServer, DEFAULT_TOOLSETS, TOOLSETS, type Toolset } from '../src/mcp/server.ts';

async function listTools(toolsets: readonly Toolset[]) {
  const ctx = new McpContext(
    { url: 'http://127.0.0.1:9/graphql', token: undefined, goal: 'g' },
    () => {},
  );
  const { server } = createMcpServer(ctx, toolsets);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'budget', version: '0' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

const figures: Record<string, { tools: number; tokens: number }> = {};
for (const set of [...Object.keys(TOOLSETS), 'default', 'all']) {
  const toolsets =
    set === 'default'
      ? DEFAULT_TOOLSETS
      : set === 'all'
        ? (Object.keys(TOOLSETS) as Toolset[])
        : [set as Toolset];
  const tools = await listTools(toolsets);
  figures[set] = { tools: tools.length, tokens: toolListTokens(tools) };
}
console.log(
  JSON.stringify(
    {
      tokenizer: 'o200k_base',
      budget: { default: DEFAULT_TOOLSET_BUDGET, all: ALL_TOOLSETS_BUDGET },
      figures,
    },
    null,
    2,
  ),
);
