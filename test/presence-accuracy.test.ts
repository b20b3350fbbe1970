/**
 * The presence-accuracy benchmark's scoring (bench/accuracy.ts): the rule on a timeline given
 * by hand, then end to end on a corpus sample replayed into real tmux under the real provider
 * against a real gateway, beside the same stream deliberately mislabelled.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS,
  GRACE_MS,
  LABELS,
  type Label,
  loadSample,
  replayAndScore,
  type Sample,
  scoreSample,
  summarize,
} from '../bench/accuracy.ts';
import { startGateway } from './support/cli.ts';
import { requires } from './support/requires.ts';
import type { Gw } from './support/tmux.ts';

const sample = (labels: [number, Label][], durationMs: number): Sample => ({
  name: 'hand',
  file: '',
  kind: 'generic',
  labels: labels.map(([at, label]) => ({ at, label })),
  durationMs,
});

describe('scoring a labelled sample against the stream', () => {
  it('compares each moment from the grace on with the liveness in effect, and times each transition', () => {
    // IDLE for 3 s, WORKING for 3 s, then DONE to the end (9 s).
    const labelled = sample(
      [
        [0, 'IDLE'],
        [3000, 'WORKING'],
        [6000, 'DONE'],
      ],
      9000,
    );
    const stream = [
      { at: -200, state: 'UNKNOWN' },
      { at: 300, state: 'IDLE' },
      { at: 3400, state: 'WORKING' },
      // DONE arrives late: 1.5 s after its label, so 5 of its moments read WORKING.
      { at: 7500, state: 'DONE' },
    ];
    const scored = scoreSample(labelled, stream);
    // Each stretch is sampled every 100 ms from its start + GRACE_MS to its end.
    expect(scored.moments).toHaveLength(3 * ((3000 - GRACE_MS) / 100));
    const s = summarize([scored]);
    expect(s.liveness.IDLE).toMatchObject({ precision: 1, recall: 1, labelled: 20 });
    expect(s.liveness.WORKING).toMatchObject({ labelled: 20, observed: 25, matched: 20 });
    expect(s.liveness.WORKING.precision).toBeCloseTo(20 / 25);
    expect(s.liveness.DONE).toMatchObject({ precision: 1, recall: 15 / 20 });
    expect(s.liveness.BLOCKED).toMatchObject({ precision: null, recall: null });
    expect(scored.transitions.map((t) => t.latencyMs)).toEqual([300, 400, 1500]);
    expect(s.missedTransitions).toEqual([]);
    expect(s.samples[0]).toMatchObject({ accuracy: 55 / 60, misses: { 'DONE → WORKING': 5 } });
  });

  it('scores a stretch shorter than the grace as one moment: seen on the stream in time, or missed', () => {
    // A sub-second command: WORKING for 300 ms between IDLE and DONE.
    const labelled = sample(
      [
        [0, 'IDLE'],
        [2000, 'WORKING'],
        [2300, 'DONE'],
      ],
      5000,
    );
    const seen = scoreSample(labelled, [
      { at: 100, state: 'IDLE' },
      { at: 2900, state: 'WORKING' },
      { at: 3000, state: 'DONE' },
    ]);
    expect(seen.moments.filter((m) => m.expected === 'WORKING')).toEqual([
      { at: 2000, expected: 'WORKING', observed: 'WORKING' },
    ]);
    const missed = scoreSample(labelled, [
      { at: 100, state: 'IDLE' },
      { at: 2600, state: 'DONE' },
    ]);
    expect(missed.moments.filter((m) => m.expected === 'WORKING')).toEqual([
      { at: 2000, expected: 'WORKING', observed: 'DONE' },
    ]);
    expect(summarize([missed]).missedTransitions).toEqual([
      { sample: 'hand', at: 2000, to: 'WORKING' },
    ]);
  });
});

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

/** The same stream with every label replaced by another liveness. */
const mislabelled = (s: Sample): Sample => {
  const other: Record<Label, Label> = {
    IDLE: 'WORKING',
    WORKING: 'DONE',
    DONE: 'BLOCKED',
    BLOCKED: 'IDLE',
    UNKNOWN: 'IDLE',
    ENDED: 'WORKING',
  };
  return {
    ...s,
    name: `${s.name}-mislabelled`,
    labels: s.labels.map((l) => ({ ...l, label: other[l.label] })),
  };
};

requires('tmux')('the benchmark end to end', { timeout: 120_000 }, () => {
  it('replays a sample into real tmux under the real provider and scores it; the same stream mislabelled scores below 1', async () => {
    const standin = loadSample(path.join(CORPUS, 'recorded-standin.jsonl'));
    expect(standin.kind).toBe('standin');
    const { scores, summary, streamErrors } = await replayAndScore(gw, [
      standin,
      mislabelled(standin),
    ]);
    expect(streamErrors).toBe(0);
    expect(Object.keys(summary.liveness)).toEqual([...LABELS]);
    for (const label of LABELS) {
      const l = summary.liveness[label];
      for (const value of [l.precision, l.recall])
        if (value !== null) expect(value).toBeGreaterThanOrEqual(0);
      expect(l.matched).toBeLessThanOrEqual(Math.min(l.labelled, l.observed));
    }
    expect(summary.transitionMs).toMatchObject({
      n: expect.any(Number),
      p50: expect.any(Number),
      p99: expect.any(Number),
    });
    expect(scores.map((s) => s.moments.length)).toEqual([
      scores[0]?.moments.length,
      scores[0]?.moments.length,
    ]);
    const [right, wrong] = summary.samples;
    console.log(`accuracy: labelled right ${right?.accuracy}, mislabelled ${wrong?.accuracy}`);
    // The scorer can fail: the stream that matched its labels does not match others.
    expect(wrong?.accuracy).toBeLessThan(1);
    expect(wrong?.accuracy).toBeLessThan(right?.accuracy as number);
    expect(wrong?.accuracy).toBeLessThan(0.5);
  });
});
