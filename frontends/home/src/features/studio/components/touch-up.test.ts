import { describe, expect, it } from 'vitest';
import { toRequest } from './touch-up';

describe('toRequest', () => {
  it('flattens points to x, y pairs rounded to four decimals, keeping mode and order', () => {
    expect(
      toRequest([
        { mode: 'keep', radius: 0.0312345, points: [[0.123456789, 0.987654321]] },
        { mode: 'remove', radius: 0.05, points: [[0, 1], [0.5, 0.25]] },
      ]),
    ).toEqual([
      { mode: 'keep', radius: 0.0312, points: [0.1235, 0.9877] },
      { mode: 'remove', radius: 0.05, points: [0, 1, 0.5, 0.25] },
    ]);
  });

  it('keeps 20,000 points of JSON within the gateway’s 1 MB body limit', () => {
    const points: [number, number][] = Array.from({ length: 20_000 }, (_, i) => [Math.random() * (i % 7) / 7, Math.random()]);
    const body = JSON.stringify({ strokes: toRequest([{ mode: 'keep', radius: 0.03, points }]) });
    expect(body.length).toBeLessThan(1_000_000);
  });
});
