/**
 * Prints the schema to schema/schema.graphql, or with --check fails when the checked-in
 * file differs from a fresh print.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from '../src/schema.ts';

const file = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const printed = `${printSchema(schema)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== printed) {
    console.error(
      'schema/schema.graphql is out of date: run `npm run schema` and commit the result',
    );
    process.exit(1);
  }
  console.log('schema/schema.graphql is up to date');
} else {
  writeFileSync(file, printed);
  console.log(`wrote ${file}`);
}
