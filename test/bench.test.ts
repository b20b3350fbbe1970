import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  type BenchReport,
  compareReports,
  compareTable,
  figureTable,
  formatTarget,
  formatValue,
  markdownTable,
  type ReportFigure,
} from '../bench/report.ts';
import { figure, percentile, summary } from '../bench/support.ts';
import { requires } from './support/requires.ts';

describe('bench helpers', () => {
  it('percentile is the nearest rank: p50 of 1..100 is 50, p99 is 99, p100 the maximum', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(summary([3, 1, 2])).toEqual({ n: 3, p50: 2, p99: 3, max: 3 });
  });

  it('a figure passes or fails against its target and is null without a target or a value', () => {
    expect(figure('p99', 49.996, 'ms', { atMost: 50, source: 'x' })).toMatchObject({
      value: 50,
      pass: true,
    });
    expect(figure('p99', 50.01, 'ms', { atMost: 50, source: 'x' }).pass).toBe(false);
    expect(figure('rate', 499, 'req/s', { atLeast: 500, source: 'x' }).pass).toBe(false);
    expect(figure('rate', 500, 'req/s', { atLeast: 500, source: 'x' }).pass).toBe(true);
    expect(figure('rate', 500, 'req/s').pass).toBeNull();
    expect(figure('lag', null, 'ms', { atMost: 1, source: 'x' })).toMatchObject({
      value: null,
      pass: null,
    });
    expect(figure('lag', Number.NaN, 'ms').value).toBeNull();
  });

  it('values and targets read in their units, bytes in KB', () => {
    expect(formatValue(8192, 'bytes')).toBe('8.0 KB');
    expect(formatValue(0.584, 'ratio')).toBe('0.58');
    expect(formatValue(4788.4, 'reports/s')).toBe('4,788 reports/s');
    expect(formatValue(14.7, 'ms')).toBe('14.7 ms');
    expect(formatValue(null, 'ms')).toBe('not measured');
    expect(formatTarget({ atMost: 8192, source: 'issue 17' }, 'bytes')).toBe('≤ 8.0 KB (issue 17)');
    expect(formatTarget({ atLeast: 1, source: 'issue 7' }, 'boolean')).toBe('yes (issue 7)');
    expect(markdownTable(['a', 'bb'], [['ccc', 'd']])).toBe(
      '| a   | bb |\n| --- | -- |\n| ccc | d  |',
    );
  });

  const at = (figures: ReportFigure[], benchmarks: BenchReport['benchmarks'] = []) =>
    ({
      kind: 'switchboard-bench-report',
      date: '2026-12-01T00:00:00.000Z',
      git: { revision: 'abc', branch: 'b', dirty: false },
      machine: {
        cpuModel: 'x',
        cpus: 2,
        memoryGiB: 1,
        node: 'v20',
        loadAverage: { start: [0, 0, 0], end: [0, 0, 0] },
      },
      driver: 'postgres',
      quick: false,
      benchmarks,
      figures,
    }) satisfies BenchReport;
  const f = (name: string, value: number | null, unit: string, target?: any) => ({
    benchmark: 'b',
    ...figure(name, value, unit, target),
  });

  it('compare matches figures by benchmark and name and says which way each moved', () => {
    const before = at([
      f('p99', 200, 'ms', { atMost: 50, source: 's' }),
      f('rate', 100, 'req/s'),
      f('ratio', 0.5, 'ratio'),
      f('gone', 1, 'ms'),
      { ...f('not run this time', 1, 'ms'), benchmark: 'other' },
    ]);
    const after = at([
      f('p99', 40, 'ms', { atMost: 50, source: 's' }),
      f('rate', 90, 'req/s'),
      f('ratio', 0.6, 'ratio'),
      f('new', 3, 'ms'),
    ]);
    const changes = compareReports(before, after);
    const by = (name: string) => changes.find((c) => c.name === name);
    expect(by('p99')).toMatchObject({
      before: 200,
      after: 40,
      change: -0.8,
      better: true,
      pass: { before: false, after: true },
    });
    expect(by('rate')).toMatchObject({ better: false });
    expect(by('rate')?.change).toBeCloseTo(-0.1);
    // A ratio with no target has no known direction.
    expect(by('ratio')?.better).toBeNull();
    expect(by('new')).toMatchObject({ before: null, after: 3, change: null, better: null });
    expect(by('gone')).toMatchObject({ before: 1, after: null, change: null });
    expect(changes.map((c) => c.name)).toEqual(['p99', 'rate', 'ratio', 'new', 'gone']);
    const table = compareTable(changes);
    expect(table).toContain('| -80.0 % | better | FAIL → pass |');
    expect(table).toContain('| not measured |');
  });

  it('the table lists every figure and says which benchmarks did not run', () => {
    const table = figureTable(
      at(
        [f('p99', 207, 'ms', { atMost: 50, source: 'issue 17' })],
        [{ name: 'directory', status: 'skipped', seconds: 0, reason: 'needs Postgres' }],
      ),
    );
    expect(table).toContain('| b         | p99');
    expect(table).toContain('| 207 ms | ≤ 50 ms (issue 17) | FAIL |');
    expect(table).toContain('| directory | skipped: needs Postgres');
  });
});

requires('postgres cluster')('npm run faults (one scenario, quick)', () => {
  const faults = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bench/faults/main.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, BENCH_QUICK: '1', DATABASE_URL: '' },
      timeout: 55_000,
    });

  it('prints one JSON object with every count, the resume time and revoked sockets, then stops its cluster', () => {
    const run = faults('--only', 'kill-9');
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      benchmark: 'faults',
      quick: true,
      machine: { driver: 'postgres' },
    });
    expect(report.scenarios).toHaveLength(1);
    const [kill9] = report.scenarios;
    expect(kill9).toMatchObject({
      name: 'kill-9',
      lost: 0,
      duplicated: 0,
      wrong: 0,
      revokedStillOpen: 0,
    });
    expect(kill9.resumeMs.n).toBeGreaterThan(0);
    expect(kill9.resumeMs.max).toBeGreaterThan(0);
    expect(kill9.details.resubscriptions).toBeGreaterThan(0);
    expect(report.figures.map((f: { name: string }) => f.name)).toEqual([
      'kill-9: lost + duplicated + wrong outcomes',
      'kill-9: revoked sockets still open',
      'kill-9: time to resume, max',
      'gateway processes that crashed',
    ]);
    expect(report.gatewaysCrashed).toBe(0);
    expect(run.stderr).toContain('kill-9: killing one instance');
    const clusters = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
    expect(clusters).toMatch(/^15\s+sbfaults\s+5499\s+down/m);
  }, 60_000);

  it('an unknown scenario is refused with the known ones, exit code 2, nothing started', () => {
    const run = faults('--only', 'nope');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'no fault scenario named nope; known: listen-kill, restart, outage, writers, subscriptions, large-answers, wrong-tokens, nats-restart, nats-outage, nats-cut, kill-9',
    );
    expect(run.stdout).toBe('');
  });
});
