import { type DocumentNode, GraphQLError, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Text no column can hold: a NUL character (Postgres text refuses it) or a lone UTF-16
 * surrogate (not Unicode; JSON columns refuse it). Refused before any resolver runs, in
 * variables and in literals alike, as BAD_USER_INPUT, so nothing is written.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorableIn(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(unstorableIn);
  if (value !== null && typeof value === 'object') return Object.values(value).some(unstorableIn);
  return false;
}

/**
 * Whether a document has such a literal, by document: Yoga's parser cache hands out one
 * document per operation text, so each is walked once, not on every request that sends it.
 */
const literalsChecked = new WeakMap<DocumentNode, boolean>();

function unstorableLiteralIn(document: DocumentNode): boolean {
  let found = literalsChecked.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      StringValue(node) {
        if (UNSTORABLE.test(node.value)) found = true;
      },
    });
    literalsChecked.set(document, found);
  }
  return found;
}

function refusal(args: { document: DocumentNode; variableValues?: unknown }): GraphQLError | null {
  return unstorableIn(args.variableValues) || unstorableLiteralIn(args.document)
    ? new GraphQLError('text must not contain NUL characters or unpaired UTF-16 surrogates', {
        extensions: { code: 'BAD_USER_INPUT' },
      })
    : null;
}

export const screenInput: Plugin = {
  onExecute: ({ args, setResultAndStopExecution }) => {
    const error = refusal(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
  onSubscribe: ({ args, setResultAndStopExecution }) => {
    const error = refusal(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};
