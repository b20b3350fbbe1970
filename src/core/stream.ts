/** A stream of exactly one item: a subscription's typed refusal (a scope gap, an unknown id). */
export async function* single<T>(item: T): AsyncIterable<T> {
  yield item;
}
