/**
 * `mcp`: the MCP server (src/mcp), a separate program in the same bundle folder. The CLI only
 * lists the verb and hands the process over to dist/cli/mcp.js, which parses its own flags;
 * clients share code only through src/client, so this file imports nothing from src/mcp.
 */
import type { Command } from 'commander';
import { examples } from '../context.ts';
import { Exit, ExitCode } from '../exit-codes.ts';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve Switchboard as MCP tools over stdio (or Streamable HTTP), acting as your credential (docs/agents.md, "The MCP server")',
    )
    .option(
      '--tools <sets>',
      'toolsets, comma-separated: core, work, ledger, admin, or all',
      'core',
    )
    .option(
      '--http <[host:]port>',
      'serve Streamable HTTP at http://host:port/mcp instead of stdio',
    )
    .option('--allow-host <names>', 'with --http: more host names Host and Origin may name')
    .option(
      '--no-channel',
      'push nothing into the session (for clients without Claude Code channels)',
    )
    .addHelpText(
      'after',
      examples(
        'SWITCHBOARD_TOKEN=… switchboard mcp',
        'switchboard mcp --tools core,work,ledger',
        'switchboard mcp --http 4100',
        'claude mcp add switchboard --env SWITCHBOARD_TOKEN=… -- npx switchboard mcp',
      ),
    )
    .action(async () => {
      const entry = new URL('./mcp.js', import.meta.url);
      try {
        await import(entry.href);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
          throw new Exit(ExitCode.ERROR, 'the MCP server is not built: run `npm run build:cli`');
        throw error;
      }
    });
}
