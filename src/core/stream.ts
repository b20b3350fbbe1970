/** A stream of exactly one item: a subscription's typed refusal (a scope gap, an unknown id). */
export async function* single<T>(item: T): AsyncIterable<T> {
  yield item;
}

/** The end of a stream, as an iterator's `next` and `return` give it. */
export const DONE: IteratorResult<never> = { done: true, value: undefined };

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
