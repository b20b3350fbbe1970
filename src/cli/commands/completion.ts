/**
 * `completion [bash|zsh]`: a completion script generated from the command tree itself (verbs,
 * sub-verbs and flags), so it never drifts from the parser. zsh loads it through bashcompinit.
 */
import type { Command } from 'commander';
import { examples } from '../context.ts';
import { usage } from '../exit-codes.ts';

/** "verb sub" → the words that may follow it (sub-verbs and flags). */
function wordsByPath(program: Command): Map<string, string[]> {
  const globals = program.options.map((o) => o.long).filter((l): l is string => Boolean(l));
  const map = new Map<string, string[]>();
  const walk = (command: Command, path: string[]) => {
    const words = [
      ...command.commands.map((c) => c.name()),
      ...command.options.map((o) => o.long).filter((l): l is string => Boolean(l)),
      ...globals,
      '--help',
    ];
    map.set(path.join(' '), [...new Set(words)]);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return map;
}

function bashScript(program: Command): string {
  const cases = [...wordsByPath(program)]
    .filter(([path]) => path !== '')
    .map(([path, words]) => `    "${path}") words="${words.join(' ')}" ;;`)
    .join('\n');
  const top = wordsByPath(program).get('')?.join(' ') ?? '';
  return `# switchboard completion for bash (and zsh through bashcompinit)
_switchboard_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" candidate="" words="" i
  # the longest known verb path among the words typed so far
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) continue ;; esac
    candidate="\${path:+$path }\${COMP_WORDS[i]}"
    case "$candidate" in
${[...wordsByPath(program).keys()]
  .filter(Boolean)
  .map((p) => `      "${p}") path="$candidate" ;;`)
  .join('\n')}
    esac
  done
  case "$path" in
    "") words="${top}" ;;
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _switchboard_complete switchboard
`;
}

export function completionCommand(program: Command): void {
  program
    .command('completion [shell]')
    .description('print a shell completion script: bash (default) or zsh')
    .addHelpText(
      'after',
      examples(
        'switchboard completion bash >> ~/.bashrc',
        'switchboard completion zsh >> ~/.zshrc',
        'source <(switchboard completion)',
      ),
    )
    .action((shell: string | undefined) => {
      const script = bashScript(program);
      if (!shell || shell === 'bash') process.stdout.write(script);
      else if (shell === 'zsh')
        process.stdout.write(
          `# switchboard completion for zsh\nautoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n${script}`,
        );
      else throw usage(`no completion for ${shell}: bash or zsh`);
    });
}
