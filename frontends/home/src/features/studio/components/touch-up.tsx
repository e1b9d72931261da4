import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Button, ErrorBanner, isHttpError, openUpgradePlan, serverMessage, type StudioResultJson } from '@uplift/platform';
import { dataUrl, useEditStudioMask, useStudioImagePreview, useStudioResultPreview } from '@uplift/platform/studio';

/** The server's bounds on one touch-up (domain.MaxStrokes, MaxStrokePoints). */
const MAX_STROKES = 200;
const MAX_POINTS = 20_000;

/** The canvas's own resolution; it is drawn scaled to the picture's box. */
const CANVAS_WIDTH = 640;

export interface Stroke {
  mode: 'keep' | 'remove';
  /** A fraction of the photo's width. */
  radius: number;
  /** x, y pairs, each a fraction of the photo's width and height. */
  points: [number, number][];
}

const CHECKERBOARD = 'repeating-conic-gradient(#d9d9d9 0% 25%, #ffffff 0% 50%) 50% / 20px 20px';

/** Four decimals are a tenth of a pixel on a 1000 px photo, and keep 20,000 points well inside the 1 MB body limit. */
const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** The strokes as the API takes them. */
export function toRequest(strokes: Stroke[]) {
  return strokes.map((s) => ({ mode: s.mode, radius: round(s.radius), points: s.points.flat().map(round) }));
}

/**
 * The keep/remove brush: the owner paints over the cut-out (the photo shows
 * faintly beneath it) where the product was cut away (keep) or where
 * background was left (remove); the server applies the strokes to the mask
 * and makes the cut-out again.
 */
export function TouchUp({
  categoryId,
  imageId,
  result,
  paid,
  onDone,
}: {
  categoryId: string;
  imageId: string;
  result: StudioResultJson;
  paid: boolean;
  onDone: () => void;
}) {
  const before = useStudioImagePreview(categoryId, imageId);
  const after = useStudioResultPreview(categoryId, result.id);
  const edit = useEditStudioMask();
  const [mode, setMode] = useState<Stroke['mode']>('remove');
  const [size, setSize] = useState(3);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const current = useRef<Stroke | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const aspect = (result.height ?? 1) / (result.width ?? 1);
  const height = Math.round(CANVAS_WIDTH * aspect);
  const points = strokes.reduce((n, s) => n + s.points.length, 0);
  const full = strokes.length >= MAX_STROKES || points >= MAX_POINTS;

  const draw = () => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, CANVAS_WIDTH, height);
    for (const s of current.current ? [...strokes, current.current] : strokes) {
      ctx.strokeStyle = ctx.fillStyle = s.mode === 'keep' ? 'rgba(22, 163, 74, 0.55)' : 'rgba(220, 38, 38, 0.55)';
      ctx.lineWidth = 2 * s.radius * CANVAS_WIDTH;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.beginPath();
      s.points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x * CANVAS_WIDTH, y * height) : ctx.lineTo(x * CANVAS_WIDTH, y * height)));
      const [first] = s.points;
      if (s.points.length === 1 && first) ctx.lineTo(first[0] * CANVAS_WIDTH + 0.01, first[1] * height);
      ctx.stroke();
    }
  };
  useEffect(draw);

  const at = (e: PointerEvent<HTMLCanvasElement>): [number, number] => {
    const box = e.currentTarget.getBoundingClientRect();
    return [(e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height];
  };
  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    if (full) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    current.current = { mode, radius: size / 100, points: [at(e)] };
    draw();
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    const s = current.current;
    if (!s || points + s.points.length >= MAX_POINTS) return;
    const [x, y] = at(e);
    const last = s.points[s.points.length - 1];
    if (!last) return;
    const [px, py] = last;
    // Points closer than a quarter of the brush add nothing the line between them does not.
    if (Math.hypot(x - px, (y - py) * aspect) < s.radius / 4) return;
    s.points.push([x, y]);
    draw();
  };
  const up = () => {
    const s = current.current;
    current.current = null;
    if (s) setStrokes((all) => [...all, s]);
  };

  const apply = async () => {
    try {
      await edit.mutateAsync({ categoryId, imageId, strokes: toRequest(strokes) });
      onDone();
    } catch {
      // shown below
    }
  };

  const beforeUrl = dataUrl(before.data?.contentType, before.data?.content);
  const afterUrl = dataUrl(after.data?.contentType, after.data?.content);
  const limited = edit.isError && isHttpError(edit.error) && edit.error.status === 429;
  return (
    <section className="u-card" aria-label="Touch up the cut-out">
      <h4>Touch up the cut-out</h4>
      <p className="u-muted">
        Paint with <strong>Keep</strong> where part of the product was cut away, and with <strong>Remove</strong> where
        background was left. Your photo shows faintly beneath the cut-out.
      </p>
      <fieldset className="u-field">
        <legend>Brush</legend>
        <label style={{ marginRight: '1rem' }}>
          <input type="radio" name={`brush-${result.id}`} checked={mode === 'keep'} onChange={() => setMode('keep')} /> Keep
        </label>
        <label style={{ marginRight: '1rem' }}>
          <input type="radio" name={`brush-${result.id}`} checked={mode === 'remove'} onChange={() => setMode('remove')} /> Remove
        </label>
        <label>
          Brush size{' '}
          <input type="range" min={1} max={15} value={size} onChange={(e) => setSize(Number(e.target.value))} />
        </label>
      </fieldset>
      <div style={{ position: 'relative', maxWidth: CANVAS_WIDTH, background: CHECKERBOARD, lineHeight: 0 }}>
        {beforeUrl && <img src={beforeUrl} alt="" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', opacity: 0.3 }} />}
        {afterUrl ? (
          <img src={afterUrl} alt="The cut-out to touch up" style={{ position: 'relative', width: '100%', display: 'block' }} />
        ) : (
          <div style={{ aspectRatio: `${result.width} / ${result.height}` }} />
        )}
        <canvas
          ref={canvas}
          width={CANVAS_WIDTH}
          height={height}
          aria-label="Touch-up canvas: paint over the cut-out with the pointer"
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', touchAction: 'none', cursor: 'crosshair' }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        />
      </div>
      {full && <p className="u-muted">That is as much as one touch-up takes: apply it, then paint more.</p>}
      <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', marginTop: '0.5rem' }}>
        <Button onClick={apply} loading={edit.isPending} disabled={strokes.length === 0}>
          Apply touch-up
        </Button>
        <Button variant="secondary" disabled={strokes.length === 0} onClick={() => setStrokes((all) => all.slice(0, -1))}>
          Undo stroke
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {edit.isError && <ErrorBanner message={serverMessage(edit.error, 'The touch-up could not be applied. Please try again.')} />}
      {limited && !paid && (
        <Button variant="secondary" onClick={openUpgradePlan}>
          Upgrade plan
        </Button>
      )}
    </section>
  );
}
