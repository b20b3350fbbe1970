/** The `mcp` verb of the switchboard CLI; the server itself loads only when the verb runs. */
import type { Command } from 'commander';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve Switchboard as MCP tools over stdio, acting as your credential (see README "MCP server")',
    )
    .option(
      '--tools <sets>',
      'toolsets, comma-separated: core, work, ledger, admin, or all',
      'core',
    )
    .action(async (options: { tools: string }, command: Command) => {
      const globals = command.optsWithGlobals<{
        url?: string;
        token?: string;
        goal?: string;
        profile?: string;
      }>();
      const { runMcp } = await import('./main.ts');
      try {
        await runMcp({ ...globals, tools: options.tools });
      } catch (error) {
        process.stderr.write(
          `switchboard mcp: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exitCode = 2;
        return;
      }
      // Streams and sockets may still be closing: the protocol is over, so is the process.
      process.exit(process.exitCode ?? 0);
    });
}
