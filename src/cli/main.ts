/**
 * `switchboard`: the command line agents and people use to coordinate through a gateway.
 * Bundled by esbuild into dist/cli (scripts/build-cli.mjs); bin/switchboard.js runs it.
 * Parsing is commander (small and fast to load: agents call this hundreds of times a session).
 */
import { Command, CommanderError, Option } from 'commander';
import { ClientError } from '../client/errors.ts';
import { adminCommand } from './commands/admin.ts';
import { capabilitiesCommand } from './commands/capabilities.ts';
import { completionCommand } from './commands/completion.ts';
import { deliveryCommands } from './commands/delivery.ts';
import { directoryCommands } from './commands/directory.ts';
import { doctorCommand } from './commands/doctor.ts';
import { frontierCommand } from './commands/frontier.ts';
import { gateCommand } from './commands/gate.ts';
import { goalCommand } from './commands/goal.ts';
import { helpCommand } from './commands/help.ts';
import { leaseCommand } from './commands/lease.ts';
import { ledgerCommands } from './commands/ledger.ts';
import { mcpCommand } from './commands/mcp.ts';
import { prCommand } from './commands/pr.ts';
import { sessionCommands } from './commands/session.ts';
import { tmuxCommands } from './commands/tmux.ts';
import { todoCommand } from './commands/todo.ts';
import { visionCommand } from './commands/vision.ts';
import { waitCommand } from './commands/wait.ts';
import { workspaceCommand } from './commands/workspace.ts';
import { current, explain, resolveConnection } from './context.ts';
import { Exit, ExitCode, failureJson } from './exit-codes.ts';
import { inert, json } from './output.ts';

declare const SWITCHBOARD_VERSION: string;

export function buildCli(): Command {
  const program = new Command('switchboard')
    .description('Coordinate with peer agents through a Switchboard gateway.')
    .version(typeof SWITCHBOARD_VERSION === 'string' ? SWITCHBOARD_VERSION : 'dev')
    .option(
      '--url <url>',
      'GraphQL endpoint [env SWITCHBOARD_URL; default http://127.0.0.1:4000/graphql]',
    )
    .addOption(
      new Option(
        '--token <token>',
        'bearer token [env SWITCHBOARD_TOKEN]; prefer `login` or the env: argv is visible to others',
      ),
    )
    .option('--goal <id>', "goal id [env SWITCHBOARD_GOAL; default: the profile's, or your own]")
    .option('--profile <name>', 'login profile [env SWITCHBOARD_PROFILE; default: the current one]')
    .option('--json', "print the API's packet as JSON")
    .option('-q, --quiet', 'print nothing on success')
    .option('--debug', 'details on errors')
    .helpCommand(false)
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .exitOverride()
    .addHelpText(
      'after',
      `
Exit codes: \`switchboard help exit-codes\`. A verb's help: \`switchboard <verb> --help\`.

Example:
  $ switchboard login builder --goal demo --token-file builder.token
  $ switchboard directory
  $ switchboard send --to reviewer --subject "review src/x.ts" --body "see todo t-1" --wait`,
    );
  for (const register of [
    sessionCommands,
    directoryCommands,
    deliveryCommands,
    waitCommand,
    ledgerCommands,
    todoCommand,
    workspaceCommand,
    goalCommand,
    frontierCommand,
    gateCommand,
    leaseCommand,
    visionCommand,
    capabilitiesCommand,
    prCommand,
    tmuxCommands,
    doctorCommand,
    adminCommand,
    mcpCommand,
    helpCommand,
    completionCommand,
  ])
    register(program);
  // Every verb exits on usage errors through the same path (exit code 2).
  const override = (command: Command) => {
    command.exitOverride().showSuggestionAfterError();
    for (const sub of command.commands) override(sub);
  };
  override(program);
  return program;
}

function report(error: unknown, debug: boolean, asJson: boolean): number {
  const context = current.context;
  // Messages quote what the gateway answered (reasons, refused input): shown inert.
  const safe = (text: string) => inert(context ? context.redact(text) : text);
  if (error instanceof CommanderError) {
    // commander already printed its one line (or the help / version).
    if (error.exitCode === 0) return ExitCode.OK;
    if (asJson) {
      const exit = new Exit(ExitCode.USAGE, '', error.code);
      const message = context ? context.redact(error.message) : error.message;
      process.stdout.write(`${json(failureJson(exit, message.replace(/^error: /, '')))}\n`);
    }
    return ExitCode.USAGE;
  }
  let exit: Exit;
  if (error instanceof Exit) exit = error;
  else if (error instanceof ClientError) {
    const connection = context?.connection ?? safeConnection();
    exit = connection ? explain(error, connection) : new Exit(ExitCode.ERROR, error.message);
  } else
    exit = new Exit(
      ExitCode.ERROR,
      `unexpected error: ${error instanceof Error ? error.message : String(error)} (rerun with --debug)`,
    );
  if (exit.message) process.stderr.write(`switchboard: ${safe(exit.message)}\n`);
  if (asJson) {
    const message = context ? context.redact(exit.message) : exit.message;
    process.stdout.write(`${json(failureJson(exit, message))}\n`);
  }
  if (debug && !(error instanceof Exit)) {
    const detail =
      error instanceof ClientError
        ? JSON.stringify(
            { kind: error.kind, ...error.details, cause: String(error.details.cause ?? '') },
            null,
            2,
          )
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`${safe(detail)}\n`);
  }
  return exit.code;
}

function safeConnection() {
  try {
    return resolveConnection({});
  } catch {
    return undefined;
  }
}

export async function main(argv = process.argv): Promise<void> {
  // Flags of the switchboard command itself: not those of a command run after `--`.
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const debug = own.includes('--debug');
  // A reader that stops early (`switchboard todo list | head`) closes the pipe: the rest of
  // the output has nowhere to go, which is no error of ours.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
  try {
    const program = buildCli();
    if (argv.length <= 2) {
      program.outputHelp();
      process.exitCode = ExitCode.USAGE;
      return;
    }
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = report(error, debug, current.context?.json ?? own.includes('--json'));
  }
}

await main();
