import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button, ErrorBanner, formatMoney, isHttpError, openUpgradePlan, serverMessage, Spinner, useCatalogueProducts, useCategoryId, usePageTitle, useSession, type CatalogueProductJson, type GetStudioPlanResponseJson, type StudioImageJson } from '@uplift/platform';
import { useCreateStudioJob, useImportStudioProductImage, useStudioJobs, useStudioPlan, useUploadStudioImage } from '@uplift/platform/studio';
import { TextField } from '@uplift/platform/text-field';
import { precheck, toBase64 } from '../lib/files';
import { usageLevel } from '../lib/plan-usage';
import { findCatalogueProduct, notInCatalogueMessage } from '../lib/product-ref';
import { Gallery } from './gallery';

/** The product image studio (`/studio`, `/studio?product=<id>`). */
export function StudioPage() {
  usePageTitle('Product studio');
  const session = useSession();
  return (
    <main className="u-page">
      <h1>Product studio</h1>
      {session.status === 'signedIn' ? <Studio /> : <p>Sign in to use the product studio.</p>}
    </main>
  );
}

function Studio() {
  const { categoryId, isPending } = useCategoryId();
  const [params] = useSearchParams();
  const product = params.get('product');
  const plan = useStudioPlan(categoryId);
  if (isPending || !categoryId) {
    return (
      <p>
        <Spinner /> Loading…
      </p>
    );
  }
  return (
    <>
      <p>
        Remove the background from a product photo, put it on a clean studio backdrop, and size it for every
        channel. Your product&apos;s own pixels are never changed.
      </p>
      {plan.data && <PlanNote plan={plan.data} />}
      <Workbench categoryId={categoryId} product={product} plan={plan.data} />
      <Gallery categoryId={categoryId} plan={plan.data} />
    </>
  );
}

/** What each beta feature does, as the plan note names it (GetStudioPlan's betaFeatures). */
const BETA_FEATURES: Record<string, string> = {
  'hole-recovery': 'hole recovery, which clears the background showing through handles and rings',
};

function PlanNote({ plan }: { plan: GetStudioPlanResponseJson }) {
  if (plan.paid) {
    const beta = (plan.betaFeatures ?? []).map((f) => BETA_FEATURES[f]).filter(Boolean);
    return (
      <div className="u-note">
        <p>Your plan downloads without limit, at full resolution.</p>
        {beta.length > 0 && <p>Early access to new AI features (beta): {beta.join('; ')}.</p>}
      </div>
    );
  }
  const left = plan.downloadsLeft ?? 0;
  const runs = plan.jobsLeft ?? 0;
  // Amber near the month's limits, red at one, so the limit is no surprise.
  const level = usageLevel(plan);
  const tone = level === 'out' ? ' u-note--danger' : level === 'low' ? ' u-note--warn' : '';
  return (
    <div className={`u-note${tone}`} role="status" data-usage={level}>
      <p>
        Free plan: preview every tool on a watermarked image, run {plan.jobsPerMonth ?? 30} tools and download{' '}
        {plan.downloadsPerMonth ?? 3} results a month. {left === 1 ? '1 download' : `${left} downloads`} and{' '}
        {runs === 1 ? '1 tool run' : `${runs} tool runs`} left this month.
      </p>
      <p>Paid plans get early access to new AI features: now hole recovery (beta), which clears the background showing through handles and rings.</p>
      <Button variant="secondary" onClick={openUpgradePlan}>
        Upgrade for unlimited downloads
      </Button>
    </div>
  );
}

const BACKDROPS = [
  { value: 'white', label: 'White' },
  { value: 'grey', label: 'Light grey' },
  { value: 'color', label: 'Colour' },
];

const TOOLS = [
  { kind: 'cutout', label: 'Remove background' },
  { kind: 'studio', label: 'Studio image' },
  { kind: 'presets', label: 'Channel presets' },
] as const;

function Workbench({
  categoryId,
  product,
  plan,
}: {
  categoryId: string;
  product: string | null;
  plan: GetStudioPlanResponseJson | undefined;
}) {
  const upload = useUploadStudioImage();
  const importProduct = useImportStudioProductImage();
  const createJob = useCreateStudioJob();
  const jobs = useStudioJobs(categoryId);
  const catalogue = useCatalogueProducts(categoryId);
  const [chosen, setChosen] = useState('');
  const [image, setImage] = useState<StudioImageJson | undefined>();
  // One problem at a time, shown where it arose: under the file field, or under the catalogue picker.
  const [problem, setProblem] = useState<{ from: 'file' | 'catalogue'; message: string } | null>(null);
  const [backdrop, setBackdrop] = useState('white');
  const [color, setColor] = useState('#e8f0ff');

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const refused = precheck(file);
    setProblem(refused ? { from: 'file', message: refused } : null);
    if (refused) return;
    try {
      const res = await upload.mutateAsync({ categoryId, filename: file.name, contentBase64: await toBase64(file) });
      setImage(res.image);
    } catch (error) {
      setProblem({ from: 'file', message: serverMessage(error, 'The photo could not be uploaded. Please try again.') });
    }
  };

  const fromCatalogue = async (productId: string) => {
    setProblem(null);
    try {
      const res = await importProduct.mutateAsync({ categoryId, productId });
      setImage(res.image);
    } catch (error) {
      setProblem({ from: 'catalogue', message: serverMessage(error, "The product's photo could not be read. Please try again, or upload it.") });
    }
  };

  // `?product=` opens the studio on that product's photo, once per address:
  // found in the catalogue by id, page or name; without a catalogue list the
  // server says why (no website, site unreadable).
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!product || opened.current === product || catalogue.isPending) return;
    opened.current = product;
    if (catalogue.isError) {
      void fromCatalogue(product);
      return;
    }
    const found = findCatalogueProduct(catalogue.data.products ?? [], product);
    if (!found?.id) {
      setProblem({ from: 'catalogue', message: notInCatalogueMessage(product) });
      return;
    }
    setChosen(found.id);
    void fromCatalogue(found.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per product in the address
  }, [product, catalogue.isPending]);

  const run = (kind: string) => {
    if (!image?.id) return;
    createJob.mutate({ categoryId, body: { imageId: image.id, kind, backdrop, color: backdrop === 'color' ? color : '' } });
  };

  // The photos already in the gallery can be used again without uploading.
  const earlier = new Map<string, StudioImageJson>();
  for (const j of jobs.data?.jobs ?? []) if (j.image?.id) earlier.set(j.image.id, j.image);

  return (
    <section className="u-card" aria-labelledby="studio-photo">
      <h2 id="studio-photo">1. Pick a product photo</h2>
      <TextField
        label="Upload a product photo (JPEG, PNG or WebP, up to 25 MB)"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        style={{ maxWidth: '40rem' }}
        onChange={onFile}
        disabled={upload.isPending}
        error={problem?.from === 'file' && problem.message}
      />
      {upload.isPending && (
        <p>
          <Spinner /> Uploading…
        </p>
      )}
      <CataloguePicker
        catalogue={catalogue}
        chosen={chosen}
        onChoose={setChosen}
        busy={importProduct.isPending}
        onPick={fromCatalogue}
      />
      {importProduct.isPending && (
        <p>
          <Spinner /> Reading the product&apos;s photo from your website…
        </p>
      )}
      <ErrorBanner message={problem?.from === 'catalogue' && problem.message} />
      {earlier.size > 0 && (
        <label className="u-field">
          <span>Or use a photo from your gallery</span>
          <select
            className="u-input"
            value={image?.id ?? ''}
            onChange={(e) => setImage(earlier.get(e.target.value))}
          >
            <option value="">Choose a photo</option>
            {[...earlier.values()].map((img) => (
              <option key={img.id} value={img.id}>
                {img.filename} ({img.width}×{img.height})
              </option>
            ))}
          </select>
        </label>
      )}
      {image && (
        <p>
          Selected: <strong>{image.filename}</strong> ({image.width}×{image.height})
          {image.productId ? ', from your catalogue' : ''}
        </p>
      )}
      <h2>2. Choose a tool</h2>
      <fieldset className="u-field">
        <legend>Backdrop for studio images and presets</legend>
        {BACKDROPS.map(({ value, label }) => (
          <label key={value} style={{ marginRight: '1rem' }}>
            <input type="radio" name="backdrop" value={value} checked={backdrop === value} onChange={() => setBackdrop(value)} />{' '}
            {label}
          </label>
        ))}
        {backdrop === 'color' && (
          <label>
            <span className="u-sr-only">Backdrop colour</span>
            <input type="color" value={color} onChange={(e) => setColor(e.target.value || '#ffffff')} />
          </label>
        )}
      </fieldset>
      <p className="u-muted">The Amazon main image is always on pure white, as Amazon requires.</p>
      <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
        {TOOLS.map((t) => (
          <Button key={t.kind} onClick={() => run(t.kind)} disabled={!image || createJob.isPending}>
            {t.label}
          </Button>
        ))}
      </div>
      {createJob.isError && <ErrorBanner message={serverMessage(createJob.error, 'The tool could not start. Please try again.')} />}
      {/* Upgrading helps with the month's tool runs, not with jobs still waiting. */}
      {createJob.isError && isHttpError(createJob.error) && createJob.error.status === 429 && !plan?.paid && plan?.jobsLeft === 0 && (
        <Button variant="secondary" onClick={openUpgradePlan}>
          Upgrade plan
        </Button>
      )}
    </section>
  );
}

function productLabel(p: CatalogueProductJson): string {
  const price = p.price ? ` · ${formatMoney(p.price, p.currency)}` : '';
  return `${p.name}${price}${p.imageUrls?.length ? '' : ' (no photo)'}`;
}

/** The products on the store's website (read by the server through its guarded fetcher). */
function CataloguePicker({
  catalogue,
  chosen,
  onChoose,
  busy,
  onPick,
}: {
  catalogue: ReturnType<typeof useCatalogueProducts>;
  chosen: string;
  onChoose: (id: string) => void;
  busy: boolean;
  onPick: (id: string) => void;
}) {
  if (catalogue.isPending) {
    return (
      <p className="u-muted">
        <Spinner /> Reading your website&apos;s catalogue…
      </p>
    );
  }
  if (catalogue.isError) {
    return <p className="u-muted">{serverMessage(catalogue.error, 'Your catalogue could not be read just now.')}</p>;
  }
  const products = catalogue.data.products ?? [];
  if (products.length === 0) {
    return <p className="u-muted">No products were found on your website, so there is nothing to pick: upload a photo.</p>;
  }
  return (
    <div className="u-field">
      <label htmlFor="studio-catalogue">Or pick a product from your website</label>
      <div style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
        <select
          id="studio-catalogue"
          className="u-input"
          // Shares the row with its button and shrinks below its longest name on a phone.
          style={{ flex: '1 1 14rem', minWidth: 0 }}
          value={chosen} onChange={(e) => onChoose(e.target.value)}>
          <option value="">Choose a product</option>
          {products.map((p) => (
            <option key={p.id} value={p.id} disabled={!p.imageUrls?.length}>
              {productLabel(p)}
            </option>
          ))}
        </select>
        <Button variant="secondary" disabled={!chosen || busy} onClick={() => onPick(chosen)}>
          Use its photo
        </Button>
      </div>
    </div>
  );
}
