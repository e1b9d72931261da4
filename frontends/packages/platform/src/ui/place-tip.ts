/** A rectangle in viewport pixels (what getBoundingClientRect gives). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TipPlacement {
  left: number;
  top: number;
}

/** Space kept between the tooltip and the viewport's edges, and between it and what it must not cover. */
export const EDGE_PX = 8;
export const GAP_PX = 6;

const right = (b: Box) => b.left + b.width;
const bottom = (b: Box) => b.top + b.height;

function overlap(a: Box, b: Box): number {
  const w = Math.min(right(a), right(b)) - Math.max(a.left, b.left);
  const h = Math.min(bottom(a), bottom(b)) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(v, hi));
}

/**
 * Where a tooltip of `size` goes so that it covers neither its trigger nor
 * the number it explains (`keepClear`, the trigger included) and stays in
 * the viewport: above the trigger (a metric's number sits below its label),
 * else below everything kept clear, else beside it, right then left. When
 * no side fits whole, the one covering the least of what is kept clear.
 */
export function placeTip(trigger: Box, keepClear: Box[], size: { width: number; height: number }, viewport: { width: number; height: number }): TipPlacement {
  const clear = [trigger, ...keepClear];
  const maxLeft = Math.max(EDGE_PX, viewport.width - size.width - EDGE_PX);
  const maxTop = Math.max(EDGE_PX, viewport.height - size.height - EDGE_PX);
  const centred = clamp(trigger.left + trigger.width / 2 - size.width / 2, EDGE_PX, maxLeft);
  const lowest = Math.max(...clear.map(bottom));
  const candidates: TipPlacement[] = [
    { left: centred, top: trigger.top - GAP_PX - size.height },
    { left: centred, top: lowest + GAP_PX },
    { left: right(trigger) + GAP_PX, top: clamp(trigger.top, EDGE_PX, maxTop) },
    { left: trigger.left - GAP_PX - size.width, top: clamp(trigger.top, EDGE_PX, maxTop) },
  ];
  const fits = (p: TipPlacement) =>
    p.left >= EDGE_PX && p.top >= EDGE_PX && p.left + size.width <= viewport.width - EDGE_PX && p.top + size.height <= viewport.height - EDGE_PX;
  const covered = (p: TipPlacement) => clear.reduce((sum, b) => sum + overlap({ ...p, ...size }, b), 0);
  const whole = candidates.find((p) => fits(p) && covered(p) === 0);
  if (whole) return whole;
  // Nothing fits whole (a tiny viewport): inside the viewport, covering the least.
  const inside = candidates.map((p) => ({ left: clamp(p.left, EDGE_PX, maxLeft), top: clamp(p.top, EDGE_PX, maxTop) }));
  return inside.reduce((best, p) => (covered(p) < covered(best) ? p : best));
}
