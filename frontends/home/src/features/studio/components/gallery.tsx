import { useId, useState } from 'react';
import { Button, ErrorBanner, Image, isHttpError, openUpgradePlan, ProgressBar, serverMessage, type GetStudioPlanResponseJson, type StudioJobJson, type StudioResultJson } from '@uplift/platform';
import { dataUrl, useDeleteStudioJob, useDownloadStudioResult, useStudioImagePreview, useStudioJobs, useStudioResultPreview } from '@uplift/platform/studio';
import { jobTitle, RESULT_NAMES, saveFile, STATUS_NAMES } from '../lib/files';
import { downloadAllowance } from '../lib/plan-usage';
import { TouchUp } from './touch-up';

const FORMAT_NAMES: Record<string, string> = { jpeg: 'JPEG', webp: 'WebP', png: 'PNG' };

/** A checkerboard shows where a cut-out is transparent. */
const CHECKERBOARD = 'repeating-conic-gradient(#d9d9d9 0% 25%, #ffffff 0% 50%) 50% / 20px 20px';

/** The store's results, newest first, until deleted. */
export function Gallery({ categoryId, plan }: { categoryId: string; plan: GetStudioPlanResponseJson | undefined }) {
  const jobs = useStudioJobs(categoryId);
  const paid = Boolean(plan?.paid);
  const allowance = downloadAllowance(plan);
  const outOfDownloads = !paid && plan?.downloadsLeft === 0;
  const list = jobs.data?.jobs ?? [];
  return (
    <section aria-labelledby="studio-gallery">
      <h2 id="studio-gallery">Your images</h2>
      {jobs.isPending && <p>Loading your images…</p>}
      {!jobs.isPending && list.length === 0 && <p className="u-muted">Nothing yet: upload a photo and choose a tool.</p>}
      {list.map((job) => (
        <JobCard key={job.id} categoryId={categoryId} job={job} paid={paid} allowance={allowance} outOfDownloads={outOfDownloads} />
      ))}
    </section>
  );
}

function JobCard({
  categoryId,
  job,
  paid,
  allowance,
  outOfDownloads,
}: {
  categoryId: string;
  job: StudioJobJson;
  paid: boolean;
  allowance: string | null;
  outOfDownloads: boolean;
}) {
  const del = useDeleteStudioJob();
  const [touching, setTouching] = useState(false);
  const allowanceId = useId();
  const status = job.status ?? 'queued';
  const title = jobTitle(job.kind, status, job.image?.filename);
  return (
    <article className="u-card" aria-label={title}>
      <h3>{title}</h3>
      <p>
        <strong>{STATUS_NAMES[status] ?? status}</strong>
        {status === 'working' && ` · ${job.progress ?? 0}%`}
      </p>
      {(status === 'queued' || status === 'working') && <ProgressBar label={`${title} progress`} percent={job.progress ?? 0} />}
      {status === 'failed' && <ErrorBanner message={job.error || 'This image could not be made.'} />}
      {status === 'done' && job.kind === 'cutout' && job.results?.[0] && (
        <BeforeAfter categoryId={categoryId} imageId={job.imageId} result={job.results[0]} />
      )}
      {status === 'done' && job.kind === 'cutout' && job.results?.[0] && job.imageId && (
        touching ? (
          <TouchUp categoryId={categoryId} imageId={job.imageId} result={job.results[0]} paid={paid} onDone={() => setTouching(false)} />
        ) : (
          <Button variant="secondary" onClick={() => setTouching(true)}>
            Touch up
          </Button>
        )
      )}
      {status === 'done' && allowance && (
        // Said once for the card's buttons, before one is pressed.
        <p id={allowanceId} className="u-muted" style={{ fontSize: '.9rem' }}>
          {allowance}
        </p>
      )}
      {status === 'done' && (
        <ul style={{ listStyle: 'none', padding: 0, display: 'flex', flexWrap: 'wrap', gap: '1rem' }}>
          {job.results?.map((r, i) =>
            // JPEG and WebP of one preset share a picture; show it once.
            job.kind !== 'cutout' && r.format === 'webp' ? null : (
              <ResultTile
                key={r.id}
                categoryId={categoryId}
                result={r}
                webp={job.results?.[i + 1]}
                showPicture={job.kind !== 'cutout'}
                paid={paid}
                allowanceId={allowance ? allowanceId : undefined}
                outOfDownloads={outOfDownloads}
              />
            ),
          )}
        </ul>
      )}
      <Button variant="ghost" loading={del.isPending} onClick={() => job.id && del.mutate({ categoryId, jobId: job.id })}>
        Delete
      </Button>
    </article>
  );
}

function BeforeAfter({ categoryId, imageId, result }: { categoryId: string; imageId?: string; result: StudioResultJson }) {
  const before = useStudioImagePreview(categoryId, imageId);
  const after = useStudioResultPreview(categoryId, result.id);
  const [split, setSplit] = useState(50);
  const beforeUrl = dataUrl(before.data?.contentType, before.data?.content);
  const afterUrl = dataUrl(after.data?.contentType, after.data?.content);
  if (!beforeUrl || !afterUrl) return <p>Loading the preview…</p>;
  return (
    <figure style={{ margin: 0, maxWidth: 640 }}>
      <div style={{ position: 'relative', background: CHECKERBOARD, lineHeight: 0 }}>
        <img src={afterUrl} alt="After: the background removed" style={{ width: '100%', display: 'block' }} />
        <img
          src={beforeUrl}
          alt="Before: the original photo"
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain', clipPath: `inset(0 ${100 - split}% 0 0)` }}
        />
      </div>
      <label className="u-field">
        <span>Before / after</span>
        <input type="range" min={0} max={100} value={split} onChange={(e) => setSplit(Number(e.target.value))} />
      </label>
      {after.data?.watermarked && <figcaption className="u-muted">Preview with a watermark: download for the clean image.</figcaption>}
    </figure>
  );
}

function ResultTile({
  categoryId,
  result,
  webp,
  showPicture,
  paid,
  allowanceId,
  outOfDownloads,
}: {
  categoryId: string;
  result: StudioResultJson;
  webp?: StudioResultJson;
  showPicture: boolean;
  paid: boolean;
  /** The card's note of what a download costs on a free plan, which the buttons are described by. */
  allowanceId: string | undefined;
  outOfDownloads: boolean;
}) {
  const preview = useStudioResultPreview(categoryId, showPicture ? result.id : undefined);
  const download = useDownloadStudioResult();
  const name = RESULT_NAMES[result.name ?? ''] ?? result.name;
  const files = [result, ...(webp && webp.format === 'webp' ? [webp] : [])];
  const save = async (r: StudioResultJson) => {
    if (!r.id) return;
    const d = await download.mutateAsync({ categoryId, resultId: r.id }).catch(() => undefined);
    if (d?.content) saveFile(d.filename || 'image', d.contentType || 'application/octet-stream', d.content);
  };
  const limited = download.isError && isHttpError(download.error) && download.error.status === 429;
  return (
    <li style={{ width: 220 }}>
      {showPicture && (
        <Image
          src={dataUrl(preview.data?.contentType, preview.data?.content) ?? ''}
          alt={`${name} preview`}
          width={result.width ?? 1}
          height={result.height ?? 1}
          sizes="220px"
          style={{ width: '100%', aspectRatio: `${result.width} / ${result.height}`, objectFit: 'contain', background: '#f5f5f5' }}
        />
      )}
      <p>
        <strong>{name}</strong> · {result.width}×{result.height}
      </p>
      <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
        {files.map((f) => (
          <Button
            key={f.id}
            variant="secondary"
            loading={download.isPending && download.variables?.resultId === f.id}
            aria-describedby={allowanceId}
            onClick={() => save(f)}
          >
            Download {FORMAT_NAMES[f.format ?? ''] ?? f.format}
          </Button>
        ))}
      </div>

      {download.isError && <ErrorBanner message={serverMessage(download.error, 'The download failed. Please try again.')} />}
      {(limited || outOfDownloads) && !paid && (
        <Button variant="secondary" onClick={openUpgradePlan}>
          Upgrade plan
        </Button>
      )}
    </li>
  );
}
