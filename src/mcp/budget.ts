/**
 * The token cost of a tools/list answer (names, descriptions, input and output schemas), as
 * an agent's prompt pays it: o200k_base tokens of the JSON. For the budget script and test.
 */
import { countTokens } from 'gpt-tokenizer';

/** The default toolset, which every agent pays for on every turn. */
export const DEFAULT_TOOLSET_BUDGET = 2500;
/** Every toolset together (`--tools all`). */
export const ALL_TOOLSETS_BUDGET = 4000;

export function toolListTokens(tools: unknown[]): number {
  return countTokens(JSON.stringify({ tools }));
}
