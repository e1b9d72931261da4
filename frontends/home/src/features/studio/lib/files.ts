import { STUDIO_MAX_UPLOAD_BYTES, STUDIO_UPLOAD_TYPES } from '@uplift/platform/studio';

/** A message for a file the studio will refuse anyway, before sending 25 MB; null when it may go. */
export function precheck(file: File): string | null {
  if (file.type && !STUDIO_UPLOAD_TYPES.includes(file.type)) return 'Upload a JPEG, PNG or WebP photo.';
  if (file.size > STUDIO_MAX_UPLOAD_BYTES) return 'The photo is larger than 25 MB. Upload a smaller one.';
  return null;
}

/** The file's bytes as base64 (the JSON body's bytes field), read by the browser's own encoder. */
export function toBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** Saves base64 content as a file through a temporary object URL. */
export function saveFile(filename: string, contentType: string, base64: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: contentType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What a job is called while it runs, once it is done, and when it failed: a running cut-out is not 'removed' yet. */
const KIND_NAMES: Record<string, { running: string; done: string; failed: string }> = {
  cutout: { running: 'Removing the background', done: 'Background removed', failed: 'Background not removed' },
  studio: { running: 'Making a studio image', done: 'Studio image', failed: 'Studio image not made' },
  presets: { running: 'Making channel presets', done: 'Channel presets', failed: 'Channel presets not made' },
};

/** A gallery card's title: what the job is doing or did, to which photo. */
export function jobTitle(kind: string | undefined, status: string | undefined, filename: string | undefined): string {
  const names = KIND_NAMES[kind ?? ''];
  const state = status === 'done' ? 'done' : status === 'failed' ? 'failed' : 'running';
  return `${names ? names[state] : (kind ?? 'Image')}: ${filename ?? 'photo'}`;
}

export const RESULT_NAMES: Record<string, string> = {
  cutout: 'Cut-out',
  studio: 'Studio image',
  shopify: 'Shopify product',
  'instagram-square': 'Instagram square',
  'instagram-portrait': 'Instagram portrait',
  story: 'Story',
  feed: 'Facebook/Google feed',
  amazon: 'Amazon main image',
};

export const STATUS_NAMES: Record<string, string> = {
  queued: 'Queued',
  working: 'Working',
  done: 'Done',
  failed: 'Failed',
};
