/**
 * The documentation as files: every relative link of the README, docs/ and bench/README.md
 * points at a file that exists and every #anchor at a heading that exists; the README stays a
 * front door; bench/README.md's results section is what the renderer makes of a report.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BenchReport,
  RESULTS_END,
  RESULTS_START,
  resultsMarkdown,
  withResults,
} from '../bench/report.ts';
import { figure } from '../bench/support.ts';

const DOCUMENTS = [
  'README.md',
  'bench/README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks, where a `#` or a link is only text. */
const withoutFences = (markdown: string) =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1$/gm, '');

/** Every link and image target outside code: `[text](target)`, `![alt](target)`. */
const linksOf = (markdown: string) =>
  [
    ...withoutFences(markdown)
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
  ].map((match) => match[1] as string);

/**
 * The anchors of a document's headings as GitHub makes them: lower case, punctuation dropped,
 * each space a hyphen, and a repeated heading suffixed -1, -2, ….
 */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('links', () => {
  it('anchors follow GitHub: lower case, punctuation dropped, spaces as hyphens, repeats numbered', () => {
    const anchors = anchorsOf(
      '# The `switchboard` CLI\n## Delivery, inbox and roster\n```sh\n# not a heading\n```\n## Notes\n## Notes\n',
    );
    expect([...anchors]).toEqual([
      'the-switchboard-cli',
      'delivery-inbox-and-roster',
      'notes',
      'notes-1',
    ]);
    expect(linksOf('[a](x.md#y) `[b](not-a-link.md)` ![c](d.png "title") [e](https://x)')).toEqual([
      'x.md#y',
      'd.png',
      'https://x',
    ]);
  });

  it.each(DOCUMENTS)(
    'every relative link of %s points at a file and heading that exist',
    (file) => {
      const markdown = readFileSync(file, 'utf8');
      const broken: string[] = [];
      for (const link of linksOf(markdown)) {
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto:: not a file of this repository
        const [target = '', anchor] = link.split('#');
        const resolved = target === '' ? file : path.join(path.dirname(file), target);
        if (!existsSync(resolved)) {
          broken.push(`${link}: no file ${resolved}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!resolved.endsWith('.md'))
          broken.push(`${link}: an anchor into a file that is not markdown`);
        else if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${link}: no heading #${anchor} in ${resolved}`);
      }
      expect(broken).toEqual([]);
    },
  );

  it('the README is a front door: at most 300 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe('bench/README.md results', () => {
  const report: BenchReport = {
    kind: 'switchboard-bench-report',
    date: '2026-12-01T09:30:12.000Z',
    git: { revision: '0123456789abcdef', branch: 'main', dirty: false },
    machine: {
      cpuModel: 'Example CPU',
      cpus: 2,
      memoryGiB: 8,
      node: 'v20.20.2',
      loadAverage: { start: [0.5, 0.4, 0.3], end: [1.5, 1, 0.5] },
    },
    driver: 'postgres',
    quick: false,
    benchmarks: [
      { name: 'waits', status: 'ok', seconds: 30 },
      { name: 'tmux', status: 'failed', seconds: 2, reason: 'exit 1' },
    ],
    figures: [
      {
        benchmark: 'waits',
        ...figure('one at a time, p50', 8.25, 'ms', { atMost: 10, source: 'issue 17' }),
      },
      {
        benchmark: 'waits',
        ...figure('heap per wait', 9000, 'bytes', { atMost: 8192, source: 'issue 17' }),
      },
      { benchmark: 'waits', ...figure('one at a time, p99', 20, 'ms') },
    ],
  };

  it('says where the report ran, then every figure with its target and verdict', () => {
    const section = resultsMarkdown(report, ['waits', 'tmux', 'delivery']);
    expect(section.split('\n')[0]).toBe(
      'Run of 2026-12-01 09:30 UTC at `012345678` on postgres: 2 × Example CPU, 8 GiB, ' +
        'Node v20.20.2; load average 0.5 0.4 0.3 at the start, 1.5 1 0.5 at the end. ' +
        '1 of 2 targets met.',
    );
    // Every target of the report is in the table, beside its figure.
    for (const f of report.figures.filter((f) => f.target)) {
      const row = section.split('\n').find((line) => line.includes(f.name));
      expect(row, f.name).toContain(`(${f.target?.source})`);
    }
    expect(section).toContain(
      '| one at a time, p50       | 8.25 ms | ≤ 10 ms (issue 17)  | pass |',
    );
    expect(section).toContain(
      '| heap per wait            | 8.8 KB  | ≤ 8.0 KB (issue 17) | FAIL |',
    );
    // A benchmark that failed, and one the report does not hold, are said in words.
    expect(section).toContain('| tmux      | failed: exit 1');
    expect(section).toContain('| delivery  | skipped: not in this run');
    expect(section).not.toContain('quick run');
    expect(resultsMarkdown({ ...report, quick: true }, ['waits'])).toContain(
      '**A quick run (reduced sizes): its figures are not comparable with the targets.**',
    );
  });

  it('replaces exactly the text between the markers, and refuses a README without them', () => {
    const readme = `# Benchmarks\n\n${RESULTS_START}\nold table\n${RESULTS_END}\nafter\n`;
    expect(withResults(readme, 'new table')).toBe(
      `# Benchmarks\n\n${RESULTS_START}\n\nnew table\n\n${RESULTS_END}\nafter\n`,
    );
    expect(() => withResults('# Benchmarks\n', 'x')).toThrow(RESULTS_START);
    const real = readFileSync('bench/README.md', 'utf8');
    expect(real.indexOf(RESULTS_START)).toBeLessThan(real.indexOf(RESULTS_END));
  });
});
