import { describe, expect, it } from 'vitest';
import { EDGE_PX, placeTip, type Box } from './place-tip';

/** A small deterministic generator, so a failure names the case that broke. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const intersects = (a: Box, b: Box) =>
  Math.min(a.left + a.width, b.left + b.width) > Math.max(a.left, b.left) &&
  Math.min(a.top + a.height, b.top + b.height) > Math.max(a.top, b.top);

describe('placeTip', () => {
  it('goes above a label whose number is below it', () => {
    const trigger = { left: 100, top: 300, width: 24, height: 24 };
    const value = { left: 80, top: 330, width: 200, height: 40 };
    const p = placeTip(trigger, [value], { width: 200, height: 60 }, { width: 1280, height: 800 });
    expect(p.top + 60).toBeLessThanOrEqual(trigger.top);
  });

  it('goes below the number when there is no room above', () => {
    const trigger = { left: 100, top: 20, width: 24, height: 24 };
    const value = { left: 80, top: 50, width: 200, height: 40 };
    const p = placeTip(trigger, [value], { width: 200, height: 60 }, { width: 375, height: 700 });
    expect(p.top).toBeGreaterThanOrEqual(90);
  });

  it('never covers the trigger or the number, and stays in the viewport, whenever there is room above or below', () => {
    const next = random(21);
    let checked = 0;
    for (let i = 0; i < 5000; i++) {
      const viewport = { width: next() < 0.5 ? 375 : 1280, height: 500 + Math.round(next() * 400) };
      const size = { width: 120 + Math.round(next() * 170), height: 30 + Math.round(next() * 90) };
      const trigger = { left: Math.round(next() * (viewport.width - 24)), top: Math.round(next() * (viewport.height - 24)), width: 24, height: 24 };
      const value = {
        left: Math.max(0, trigger.left - Math.round(next() * 60)),
        top: trigger.top + 24 + Math.round(next() * 8),
        width: 40 + Math.round(next() * 260),
        height: 20 + Math.round(next() * 30),
      };
      const p = placeTip(trigger, [value], size, viewport);
      const tip = { ...p, ...size };
      // Inside the viewport always.
      expect(tip.left).toBeGreaterThanOrEqual(EDGE_PX);
      expect(tip.top).toBeGreaterThanOrEqual(EDGE_PX);
      expect(tip.left + tip.width).toBeLessThanOrEqual(Math.max(viewport.width - EDGE_PX, EDGE_PX + size.width));
      const roomAbove = trigger.top - 6 - size.height >= EDGE_PX;
      const roomBelow = Math.max(trigger.top + trigger.height, value.top + value.height) + 6 + size.height <= viewport.height - EDGE_PX;
      if (roomAbove || roomBelow) {
        checked++;
        expect(intersects(tip, trigger) || intersects(tip, value), JSON.stringify({ viewport, size, trigger, value, p })).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
