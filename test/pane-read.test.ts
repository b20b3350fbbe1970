/**
 * Text another agent wrote, read in a real terminal: a message body that carries OSC, CSI and
 * DSR sequences, taken with `switchboard next` inside a tmux pane (a private tmux server),
 * leaves the pane's title, its screen and its input line as they were; `next --json` gives the
 * body back as it was sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { asCaller, eventually, runCli, startGateway, team } from './support/cli.ts';
import { requires } from './support/requires.ts';
import { type Gw, sandbox } from './support/tmux.ts';

const READER = path.resolve('test/fixtures/pane-reader.mjs');

// Retitles the pane (OSC 2), clears the screen and draws a fake prompt (CSI 2J, CSI H), asks
// for the cursor position (DSR: the terminal types its answer into the pane's input), and adds
// a C1 CSI and a right-to-left override.
const BODY = [
  'review done, see below',
  '\x1b]2;pwned\x07\x1b[2J\x1b[H$ rm -rf ~ # fake prompt\x1b[6n',
  'C1 \x9b31m red, bidi \u202Eevil\u202C, CR\roverwritten',
].join('\n');

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

requires('tmux')('a message read in a terminal', { timeout: 60_000 }, () => {
  it('`switchboard next` in a tmux pane leaves its title, screen and input line alone; --json gives the body back', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t);
    const [sender, recipient] = [peers[0]!, peers[1]!];
    const sent = await runCli(
      ['send', '--to', recipient.agentId, '--subject', 'review', '--json', '-'],
      { env: asCaller(gw.url, sender.token, goalId), input: BODY },
    );
    expect(sent.code, sent.stderr).toBe(0);

    const out = path.join(box.dir, 'reader.json');
    const env = {
      ...asCaller(gw.url, recipient.token, goalId),
      HOME: box.dir,
      XDG_CONFIG_HOME: path.join(box.dir, '.config'),
    };
    const pane = (
      await box.tmux(
        ...['new-session', '-d', '-P', '-F', '#{pane_id}', '-x', '120', '-y', '30'],
        ...Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
        ...[process.execPath, READER, out, 'next'],
      )
    ).trim();
    const screen = () => box.tmux('capture-pane', '-p', '-t', pane);
    await eventually(
      async () => ((await screen()).includes('before the message') ? true : undefined),
      'the reader to start',
      10_000,
    );
    await box.tmux('select-pane', '-t', pane, '-T', 'agent pane');
    await box.tmux('send-keys', '-t', pane, 'Enter');
    await eventually(() => (existsSync(out) ? true : undefined), 'next to run', 15_000);

    const reader = JSON.parse(readFileSync(out, 'utf8'));
    expect(reader).toEqual({ code: 0, typed: '' });
    expect((await box.tmux('display-message', '-p', '-t', pane, '#{pane_title}')).trim()).toBe(
      'agent pane',
    );
    const shown = await eventually(async () => {
      const text = await screen();
      return text.includes('reader done') ? text : undefined;
    }, 'the reader to finish');
    expect(shown).toContain('before the message');
    expect(shown).toContain('review done, see below');
    expect(shown).toContain('\\x1b]2;pwned\\x07\\x1b[2J\\x1b[H$ rm -rf ~ # fake prompt\\x1b[6n');
    expect(shown).toContain('C1 \\x9b31m red, bidi \\u202eevil\\u202c, CR\\x0doverwritten');
    expect(shown).not.toContain('^[');

    const again = await runCli(['next', '--json'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/[^\P{Cc}\n]|[\u202a-\u202e]/u);
    expect(again.json()).toMatchObject({ repeated: true, message: { body: BODY } });
  });
});
