/**
 * The tmux provider's control-mode client against a real tmux server: commands written at once
 * are answered in order after the attach (tmux may otherwise run them ahead of it, with no
 * current client), so its format subscription is in place and reports a pane that dies.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Connection } from '../src/providers/tmux/connection.ts';
import { eventually } from './support/harness.ts';
import { requires } from './support/requires.ts';
import { type Sandbox, sandbox } from './support/tmux.ts';

requires('tmux')('a control client', () => {
  let box: Sandbox;
  beforeAll(async () => {
    box = sandbox();
    await box.tmux('new-session', '-d', '-s', 's', '-x', '80', '-y', '20', 'sleep 1000');
  });
  afterAll(() => box.cleanup());

  it('answers each command it was given before the attach with its own output, and its subscription reports a pane that dies', async () => {
    // Each fresh client races its first commands against its attach.
    for (let i = 0; i < 5; i++) {
      const [pane = '', pid = ''] = (
        await box.tmux(
          'new-window',
          '-d',
          '-P',
          '-F',
          '#{pane_id} #{pane_pid}',
          '-t',
          's:',
          'sleep 1000',
        )
      )
        .trim()
        .split(' ');
      await box.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
      const changes: number[] = [];
      const connection = new Connection(
        { socketPath: box.sock },
        { output: () => {}, changed: () => changes.push(Date.now()), lost: () => {} },
      );
      try {
        connection.attach('s');
        const control = connection.primary();
        const answers = await Promise.all(
          ['first', 'second', 'third'].map((word) =>
            control?.command(`display-message -p ${word}`),
          ),
        );
        expect(answers).toEqual([['first'], ['second'], ['third']]);
        const killedAt = Date.now();
        process.kill(Number(pid), 'SIGKILL');
        await eventually(
          () => (changes.some((at) => at >= killedAt) ? true : undefined),
          `the subscription's report of ${pane} dead (client ${i + 1})`,
          5000,
        );
      } finally {
        connection.close();
      }
    }
  });
});
