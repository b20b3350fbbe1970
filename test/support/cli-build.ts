import { execFileSync } from 'node:child_process';

/** Builds the CLI bundle once per run, so tests run the real `switchboard` binary. */
export default function setup() {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
}
