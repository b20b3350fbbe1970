import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type LimitRefusals, limitError } from '../limits.ts';

/** A leaf's bytes in an answer (its name, a value, punctuation) unless its field declares more. */
const LEAF_BYTES = 48;
/**
 * Items counted of a list that no size argument bounds: what the caller cannot ask more of is
 * counted once (the estimate is of what the caller multiplies, not of the goal's size).
 */
const LIST_ITEMS = 1;
/** Arguments that bound the items of the first list at or below their field. */
const SIZE_ARGUMENTS = ['limit', 'tail', 'lines'] as const;

/**
 * The bytes an operation's answer is expected to take, from its document alone, before it runs:
 * every selected leaf counts LEAF_BYTES, or the `extensions.maxBytes` its field declares (a
 * message body); a list counts as many items as the nearest size argument at or above it asks
 * for (`limit`, `tail`, `lines`: the first list below an argument takes it, at most the
 * `extensions.maxItems` its field declares), else LIST_ITEMS; every alias and every fragment's
 * type condition counts again. Like graphql-armor's cost, but multiplied by what the caller asks
 * for: 20 aliases × `inbox(tail: 200) { body }` is 20 × 200 × 16 KiB, refused before a row is
 * read. It is not a bound on what a goal holds (a frontier of every open todo is counted once).
 */
export function estimateResponseBytes(args: ExecutionArgs): number {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return 0;
  const root = args.schema.getRootType(operation.operation);
  if (!root) return 0;
  const walk = new Estimate(args.schema, args.document, args.variableValues ?? {});
  return walk.selections(root, operation.selectionSet, null);
}

class Estimate {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Record<string, unknown>,
  ) {
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION)
        this.fragments.set(definition.name.value, definition);
  }

  /** The bytes of `selectionSet` on `type`; `bound` is a size argument not yet taken by a list. */
  selections(type: GraphQLNamedType, selectionSet: SelectionSetNode, bound: number | null): number {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (this.skipped(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const field =
          isObjectType(type) || isInterfaceType(type)
            ? type.getFields()[selection.name.value]
            : undefined;
        total += field ? this.field(field, selection, bound) : LEAF_BYTES;
        continue;
      }
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection
          : this.fragments.get(selection.name.value);
      if (!fragment) continue;
      const condition = fragment.typeCondition
        ? this.schema.getType(fragment.typeCondition.name.value)
        : type;
      // Each type condition counts whole: an upper bound of what one of them answers.
      if (condition) total += this.selections(condition, fragment.selectionSet, bound);
    }
    return total;
  }

  private field(
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    bound: number | null,
  ): number {
    const size = this.sizeArgument(field, node) ?? bound;
    const list = isListType(getNullableType(field.type));
    const items = list ? (size ?? LIST_ITEMS) : 1;
    const named = getNamedType(field.type);
    if (isLeafType(named) || !node.selectionSet) {
      const declared = field.extensions?.maxBytes;
      return items * (typeof declared === 'number' ? declared : LEAF_BYTES);
    }
    return items * (LEAF_BYTES + this.selections(named, node.selectionSet, list ? null : size));
  }

  /** The field's size argument as asked for (variables included), if it has one. */
  private sizeArgument(field: GraphQLField<unknown, unknown>, node: FieldNode): number | null {
    if (!field.args.some((arg) => (SIZE_ARGUMENTS as readonly string[]).includes(arg.name)))
      return null;
    let values: Record<string, unknown>;
    try {
      values = getArgumentValues(field, node, this.variables);
    } catch {
      return null; // values that do not coerce: execution says so
    }
    const most = field.extensions?.maxItems;
    for (const name of SIZE_ARGUMENTS) {
      const value = values[name];
      if (typeof value === 'number')
        return Math.max(0, typeof most === 'number' ? Math.min(value, most) : value);
    }
    return null;
  }

  private skipped(node: { directives?: FieldNode['directives'] }): boolean {
    if (!node.directives?.length) return false;
    try {
      const skip = getDirectiveValues(GraphQLSkipDirective, node, this.variables);
      const include = getDirectiveValues(GraphQLIncludeDirective, node, this.variables);
      return skip?.if === true || include?.if === false;
    } catch {
      return false;
    }
  }
}

/** Variable sets whose judgement is kept per document. */
const MAX_JUDGED_PER_DOCUMENT = 100;

/**
 * Refuses, before it runs, an operation whose estimated answer (estimateResponseBytes) is over
 * `maxBytes`: RESPONSE_TOO_LARGE, nothing executed; a subscription is judged by one event. Its
 * place is before the plugins that answer or execute (the response cache, the fan-out groups).
 */
export function responseSizeLimit(maxBytes: number, refusals: LimitRefusals): Plugin {
  // Answers by document (Yoga's parser cache hands out one per operation text), then by
  // operation name and variables: a repeated operation is neither walked nor refused anew.
  const judged = new WeakMap<DocumentNode, Map<string, ExecutionResult | null>>();
  const refusal = (args: ExecutionArgs): ExecutionResult | null => {
    if (maxBytes === 0) return null;
    let known = judged.get(args.document);
    if (!known) {
      known = new Map();
      judged.set(args.document, known);
    }
    const key = JSON.stringify([args.operationName ?? null, args.variableValues ?? null]);
    let answer = known.get(key);
    if (answer === undefined) {
      const bytes = estimateResponseBytes(args);
      answer =
        bytes <= maxBytes
          ? null
          : {
              errors: [
                limitError(
                  'RESPONSE_TOO_LARGE',
                  `the answer to this operation could reach ${bytes} bytes, more than the ${maxBytes} this server answers: ask for fewer items (limit, tail, lines) or use fewer aliases`,
                ),
              ],
            };
      if (known.size >= MAX_JUDGED_PER_DOCUMENT) known.clear();
      known.set(key, answer);
    }
    if (answer) refusals.refused('responseBytes');
    return answer;
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      const refused = refusal(args);
      if (refused) setResultAndStopExecution(refused);
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const refused = refusal(args);
      if (refused) setResultAndStopExecution(refused as never);
    },
  };
}
