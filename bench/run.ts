/**
 * `npm run bench`: every benchmark, one after another, each exactly as `npm run bench:<name>`
 * runs it alone; their figures collected into one report in bench/results/ (git-ignored) and
 * a table on stdout. Progress goes to stderr.
 *
 *   npm run bench                            # all (directory and instances need DATABASE_URL)
 *   npm run bench -- --only presence,waits   # some
 *   npm run bench -- --quick                 # a smoke run at small sizes (BENCH_QUICK=1)
 *   npm run bench -- --compare FILE          # run, then each figure's change against FILE
 *   npm run bench -- --compare OLD NEW       # compare two reports, run nothing
 *   npm run bench -- --markdown [FILE]       # render a report (default: the newest) into
 *                                            # bench/README.md's results, run nothing
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  type BenchmarkRun,
  type BenchReport,
  compareReports,
  compareTable,
  figureTable,
  type ReportFigure,
  resultsMarkdown,
  withResults,
} from './report.ts';
import type { Figure } from './support.ts';

/** Every benchmark of `npm run bench`, in the order run; the fault suite is not one. */
const BENCHMARKS: { name: string; postgresOnly?: true }[] = [
  { name: 'directory', postgresOnly: true },
  { name: 'presence' },
  { name: 'subscribers' },
  { name: 'instances', postgresOnly: true },
  { name: 'waits' },
  { name: 'waits-scale' },
  { name: 'delivery' },
  { name: 'ledger' },
  { name: 'frontier' },
  { name: 'cli' },
  { name: 'dashboard' },
  { name: 'tmux' },
  { name: 'presence-accuracy' },
  { name: 'startup' },
];

const { values, positionals } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    compare: { type: 'string' },
    markdown: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
const folder = new URL('./results/', import.meta.url);

if (values.markdown) {
  // The newest report by name: names start with the run's date and time.
  const names = existsSync(folder)
    ? readdirSync(folder).filter((name) => name.endsWith('.json'))
    : [];
  const file =
    positionals[0] ??
    (names.length > 0 ? new URL(names.sort().at(-1) as string, folder).pathname : null);
  if (file === null) {
    console.error('no report in bench/results/: run `npm run bench` first, or name a report');
    process.exit(2);
  }
  const readme = new URL('./README.md', import.meta.url);
  const section = resultsMarkdown(
    readReport(file),
    BENCHMARKS.map((b) => b.name),
  );
  writeFileSync(readme, withResults(readFileSync(readme, 'utf8'), section));
  console.log(`bench/README.md: results of ${file}`);
  process.exit(0);
}

if (values.compare && positionals[0]) {
  console.log(compareTable(compareReports(readReport(values.compare), readReport(positionals[0]))));
  process.exit(0);
}
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !BENCHMARKS.some((b) => b.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `no benchmark named ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}
const selected = BENCHMARKS.filter((b) => !only || only.includes(b.name));
const quick = values.quick || process.env.BENCH_QUICK === '1';
const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const earlier = values.compare ? readReport(values.compare) : null;

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const started = new Date();
const loadAtStart = loadAverage();

/** The process group of the benchmark running now, ended with the runner. */
let current: number | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (current !== null) process.kill(-current, 'SIGTERM');
    process.exit(130);
  });
}

/** Runs one benchmark as its npm script; its stdout is its JSON, its stderr passes through. */
function run(name: string): Promise<{ code: number | null; stdout: string; stderrTail: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', `bench:${name}`], {
      env: { ...process.env, BENCH_QUICK: quick ? '1' : '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that it and every process it started can be ended at once.
      detached: true,
    });
    const group = child.pid as number;
    current = group;
    let stdout = '';
    let stderrTail = '';
    let code: number | null = null;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-2000);
    });
    child.on('exit', (exitCode) => {
      code = exitCode;
      // Whatever a crashed benchmark left running (and holding its pipes) ends with it.
      try {
        process.kill(-group, 'SIGTERM');
      } catch {}
    });
    child.on('close', () => {
      current = null;
      resolve({ code, stdout, stderrTail });
    });
  });
}
const runs: BenchmarkRun[] = [];
const figures: ReportFigure[] = [];
for (const [index, benchmark] of selected.entries()) {
  const step = `[${index + 1}/${selected.length}] ${benchmark.name}`;
  if (benchmark.postgresOnly && driver !== 'postgres') {
    process.stderr.write(`${step}: skipped (needs DATABASE_URL)\n`);
    runs.push({
      name: benchmark.name,
      status: 'skipped',
      seconds: 0,
      reason: 'needs Postgres (DATABASE_URL)',
    });
    continue;
  }
  process.stderr.write(`${step}${quick ? ' (quick)' : ''}\n`);
  const t0 = performance.now();
  const { code, stdout, stderrTail } = await run(benchmark.name);
  const seconds = Math.round((performance.now() - t0) / 1000);
  let output: { figures?: Figure[] } | null = null;
  try {
    output = JSON.parse(stdout);
  } catch {}
  if (code !== 0 || !Array.isArray(output?.figures)) {
    const why = code !== 0 ? `exit ${code}` : 'its output is not a report';
    process.stderr.write(`${step}: FAILED (${why}) after ${seconds} s\n`);
    runs.push({ name: benchmark.name, status: 'failed', seconds, reason: why, stderrTail });
    continue;
  }
  process.stderr.write(`${step}: ${output.figures.length} figures in ${seconds} s\n`);
  runs.push({ name: benchmark.name, status: 'ok', seconds, output });
  for (const f of output.figures) figures.push({ benchmark: benchmark.name, ...f });
}

const cpus = os.cpus();
const revision = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain').length > 0;
const report: BenchReport = {
  kind: 'switchboard-bench-report',
  date: started.toISOString(),
  git: { revision, branch: git('rev-parse', '--abbrev-ref', 'HEAD'), dirty },
  machine: {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: { start: loadAtStart, end: loadAverage() },
  },
  driver,
  quick,
  benchmarks: runs,
  figures,
};
mkdirSync(folder, { recursive: true });
const stamp = started.toISOString().slice(0, 19).replace(/:/g, '-');
const file = new URL(`${stamp}-${revision.slice(0, 9)}${dirty ? '-dirty' : ''}.json`, folder);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

const load = (l: number[]) => l.join(' ');
console.log(
  `${revision.slice(0, 9)}${dirty ? ' (dirty)' : ''} on ${driver}, ${cpus.length} × ${report.machine.cpuModel}, ` +
    `load average ${load(loadAtStart)} → ${load(report.machine.loadAverage.end)}${quick ? ', QUICK (reduced sizes: not comparable with the targets)' : ''}\n`,
);
console.log(figureTable(report));
const judged = figures.filter((f) => f.pass !== null);
console.log(
  `\n${judged.filter((f) => f.pass).length} of ${judged.length} targets met; report: ${file.pathname}`,
);
if (earlier) {
  console.log(
    `\nagainst ${values.compare} (${earlier.git.revision.slice(0, 9)}, ${earlier.date}):\n`,
  );
  console.log(compareTable(compareReports(earlier, report)));
}
process.exit(runs.some((r) => r.status === 'failed') ? 1 : 0);
