#!/usr/bin/env node
// The `switchboard` command: runs the bundle that `npm install` (the prepare script) builds.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli/switchboard.js', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    'switchboard: not built yet: run `npm run build:cli` (or `npm install`) in the repository\n',
  );
  process.exit(1);
}
await import(bundle.href);
