/**
 * The official MCP conformance suite's verdict on `switchboard mcp --http`, as
 * `npm run mcp:conformance` (scripts/mcp-conformance.ts, run by .ci/run before the tests) wrote
 * it: every scenario passes but those of scripts/mcp-conformance-baseline.yml, which call the
 * reference server's own fixtures, and each of those fails.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { MCP_CONFORMANCE_SUMMARY, requires } from './support/requires.ts';

interface Summary {
  suite: string;
  node: string;
  exitCode: number;
  scenarios: Record<string, { id: string; status: string; error?: string }[]>;
}

/** The scenarios the suite runs and a real server passes: none calls a fixture. */
const GENERIC = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

requires('mcp conformance result')('the official MCP conformance suite', () => {
  it('passes every scenario that calls no fixture of the reference server; the baseline lists the rest, each failing', () => {
    const summary = JSON.parse(readFileSync(MCP_CONFORMANCE_SUMMARY, 'utf8')) as Summary;
    expect(summary.suite).toMatch(/^@modelcontextprotocol\/conformance@\d+\.\d+\.\d+$/);
    expect(summary.node).toMatch(/^node@22\.\d+\.\d+$/);
    const baseline = readFileSync('scripts/mcp-conformance-baseline.yml', 'utf8')
      .split('\n')
      .map((line) => /^ {2}- (\S+)$/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    const failed = Object.entries(summary.scenarios)
      .filter(([, checks]) => checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING'))
      .map(([name]) => name);
    expect(failed.sort()).toEqual([...baseline].sort());
    for (const name of GENERIC) {
      expect(summary.scenarios[name], name).toBeDefined();
      expect(
        summary.scenarios[name]?.every((c) => c.status === 'SUCCESS'),
        name,
      ).toBe(true);
    }
    // the suite's own verdict on the baseline: no unexpected failure, no stale entry
    expect(summary.exitCode).toBe(0);
  });
});
