/** `help [topic]`: exit codes, or a verb's help. */
import type { Command } from 'commander';
import { EXIT_CODE_MEANINGS } from '../exit-codes.ts';
import { table } from '../output.ts';

export function helpCommand(program: Command): void {
  program
    .command('help [topic...]')
    .description('help on a verb, or a topic: exit-codes')
    .addHelpText('after', '\nExample:\n  $ switchboard help exit-codes\n  $ switchboard help send')
    .action(async (topic: string[] | undefined, _options: unknown, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const [first, ...rest] = topic ?? [];
      if (first === 'exit-codes') {
        const rows = EXIT_CODE_MEANINGS.map(([code, name, meaning]) => ({ code, name, meaning }));
        process.stdout.write(
          json
            ? `${JSON.stringify(rows, null, 2)}\n`
            : `${await table(
                ['code', 'name', 'meaning'],
                rows.map((r) => [r.code, r.name, r.meaning]),
              )}\n`,
        );
        return;
      }
      let target: Command = program;
      for (const name of [first, ...rest].filter(Boolean)) {
        const next = target.commands.find(
          (c) => c.name() === name || c.aliases().includes(name as string),
        );
        if (!next) {
          program.error(`no verb or topic "${name}": try \`switchboard --help\``, { exitCode: 2 });
          return;
        }
        target = next;
      }
      target.outputHelp();
    });
}
