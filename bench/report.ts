/**
 * The report of `npm run bench` (bench/run.ts) and how it is shown: the table of figures, the
 * change of each figure against an earlier report, and the results section of bench/README.md.
 * Pure functions, unit-tested in test/bench.test.ts and test/docs.test.ts.
 */
import type { Figure, Target } from './support.ts';

/** One benchmark's run within a report. */
export interface BenchmarkRun {
  readonly name: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly seconds: number;
  /** Why it was skipped, or how it failed. */
  readonly reason?: string;
  /** The end of a failed benchmark's stderr. */
  readonly stderrTail?: string;
  /** The benchmark's own JSON, as it prints it when run alone. */
  readonly output?: unknown;
}

export interface ReportFigure extends Figure {
  readonly benchmark: string;
}

/** What `npm run bench` writes to bench/results/. */
export interface BenchReport {
  readonly kind: 'switchboard-bench-report';
  readonly date: string;
  readonly git: { readonly revision: string; readonly branch: string; readonly dirty: boolean };
  readonly machine: {
    readonly cpuModel: string;
    readonly cpus: number;
    readonly memoryGiB: number;
    readonly node: string;
    /** 1, 5 and 15 minute load averages when the run started and when it ended. */
    readonly loadAverage: { readonly start: number[]; readonly end: number[] };
  };
  readonly driver: 'postgres' | 'pglite';
  readonly quick: boolean;
  readonly benchmarks: BenchmarkRun[];
  readonly figures: ReportFigure[];
}

export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A value in its unit; bytes are shown in KB (1,024 bytes), as the targets state them. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null) return 'not measured';
  if (unit === 'boolean') return value ? 'yes' : 'no';
  if (unit === 'bytes') return `${(value / 1024).toFixed(1)} KB`;
  if (unit === 'ratio') return value.toFixed(2);
  const shown = Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : String(value);
  return `${shown} ${unit}`;
}

export function formatTarget(target: Target | null, unit: string): string {
  if (target === null) return '';
  const [sign, value] = 'atMost' in target ? ['≤', target.atMost] : ['≥', target.atLeast];
  const bound =
    unit === 'boolean' ? formatValue(value, unit) : `${sign} ${formatValue(value, unit)}`;
  return `${bound} (${target.source})`;
}

const verdict = (pass: boolean | null) => (pass === null ? '' : pass ? 'pass' : 'FAIL');

/** Every figure of a report, a row each, with the benchmarks that did not run said in words. */
export function figureTable(report: BenchReport): string {
  const rows = report.figures.map((f) => [
    f.benchmark,
    f.name,
    formatValue(f.value, f.unit),
    formatTarget(f.target, f.unit),
    verdict(f.pass),
  ]);
  for (const run of report.benchmarks) {
    if (run.status !== 'ok')
      rows.push([run.name, `${run.status}: ${run.reason ?? ''}`, '', '', '']);
  }
  return markdownTable(['benchmark', 'figure', 'value', 'target', ''], rows);
}

/** Whether a lower value is better: the target says, else the unit; null when neither does. */
export function lowerIsBetter(figure: Pick<Figure, 'target' | 'unit'>): boolean | null {
  if (figure.target) return 'atMost' in figure.target;
  if (['ms', 'bytes', '%'].includes(figure.unit)) return true;
  if (figure.unit.endsWith('/s')) return false;
  return null;
}

export interface Change {
  readonly benchmark: string;
  readonly name: string;
  readonly unit: string;
  readonly before: number | null;
  readonly after: number | null;
  /** after ÷ before − 1; null unless both are measured and before is not 0. */
  readonly change: number | null;
  /** Null when the direction is unknown or either value is missing. */
  readonly better: boolean | null;
  readonly pass: { readonly before: boolean | null; readonly after: boolean | null };
}

/**
 * Each figure of either report, matched by benchmark and name, with its change; figures of a
 * benchmark the later report did not run (`--only`, or it failed) are left out.
 */
export function compareReports(before: BenchReport, after: BenchReport): Change[] {
  const key = (f: ReportFigure) => `${f.benchmark}\u0000${f.name}`;
  const ran = new Set(after.figures.map((f) => f.benchmark));
  const earlier = new Map(
    before.figures.filter((f) => ran.has(f.benchmark)).map((f) => [key(f), f]),
  );
  const later = new Map(after.figures.map((f) => [key(f), f]));
  const keys = [...later.keys(), ...[...earlier.keys()].filter((k) => !later.has(k))];
  return keys.map((k) => {
    const b = earlier.get(k);
    const a = later.get(k);
    const figure = (a ?? b) as ReportFigure;
    const from = b?.value ?? null;
    const to = a?.value ?? null;
    const change = from === null || to === null || from === 0 ? null : to / from - 1;
    const lower = lowerIsBetter(figure);
    return {
      benchmark: figure.benchmark,
      name: figure.name,
      unit: figure.unit,
      before: from,
      after: to,
      change,
      better: change === null || lower === null || change === 0 ? null : lower === change < 0,
      pass: { before: b?.pass ?? null, after: a?.pass ?? null },
    };
  });
}

export function compareTable(changes: Change[]): string {
  return markdownTable(
    ['benchmark', 'figure', 'before', 'after', 'change', '', 'target'],
    changes.map((c) => [
      c.benchmark,
      c.name,
      formatValue(c.before, c.unit),
      formatValue(c.after, c.unit),
      c.change === null ? '' : `${c.change > 0 ? '+' : ''}${(c.change * 100).toFixed(1)} %`,
      c.better === null ? '' : c.better ? 'better' : 'worse',
      c.pass.before === null && c.pass.after === null
        ? ''
        : `${verdict(c.pass.before) || '–'} → ${verdict(c.pass.after) || '–'}`,
    ]),
  );
}

/** The lines of bench/README.md between which `npm run bench -- --markdown` writes the results. */
export const RESULTS_START = '<!-- results: start (written by `npm run bench -- --markdown`) -->';
export const RESULTS_END = '<!-- results: end -->';

/**
 * A report as the results section of bench/README.md: the machine, revision and driver it ran
 * on, how many targets it met, then every figure. Each benchmark of `names` the report does not
 * hold (a run with `--only`) gets a row saying so, so a partial report never reads as complete.
 */
export function resultsMarkdown(report: BenchReport, names: readonly string[]): string {
  const ran = new Set(report.benchmarks.map((b) => b.name));
  const missing: BenchmarkRun[] = names
    .filter((name) => !ran.has(name))
    .map((name) => ({ name, status: 'skipped', seconds: 0, reason: 'not in this run' }));
  const { machine, git } = report;
  const judged = report.figures.filter((f) => f.pass !== null);
  const lines = [
    `Run of ${report.date.slice(0, 16).replace('T', ' ')} UTC at \`${git.revision.slice(0, 9)}\`` +
      `${git.dirty ? ' (with uncommitted changes)' : ''} on ${report.driver}: ` +
      `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; ` +
      `load average ${machine.loadAverage.start.join(' ')} at the start, ` +
      `${machine.loadAverage.end.join(' ')} at the end. ` +
      `${judged.filter((f) => f.pass).length} of ${judged.length} targets met.`,
  ];
  if (report.quick)
    lines.push(
      '',
      '**A quick run (reduced sizes): its figures are not comparable with the targets.**',
    );
  lines.push('', figureTable({ ...report, benchmarks: [...report.benchmarks, ...missing] }));
  return lines.join('\n');
}

/** `readme` with the lines between the two markers replaced by `section`. */
export function withResults(readme: string, section: string): string {
  const start = readme.indexOf(RESULTS_START);
  const end = readme.indexOf(RESULTS_END);
  if (start === -1 || end < start)
    throw new Error(
      `bench/README.md needs the lines ${RESULTS_START} and ${RESULTS_END}, in that order`,
    );
  return `${readme.slice(0, start + RESULTS_START.length)}\n\n${section}\n\n${readme.slice(end)}`;
}
