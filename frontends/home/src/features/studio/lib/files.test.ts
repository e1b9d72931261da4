import { describe, expect, it } from 'vitest';
import { hasRunningStudioJob } from '@uplift/platform/studio';
import { jobTitle, precheck, toBase64 } from './files';

describe('precheck', () => {
  it('lets photos through and refuses what the studio would refuse', () => {
    expect(precheck(new File(['x'], 'a.jpg', { type: 'image/jpeg' }))).toBeNull();
    expect(precheck(new File(['x'], 'a.webp', { type: 'image/webp' }))).toBeNull();
    expect(precheck(new File(['x'], 'a.gif', { type: 'image/gif' }))).toBe('Upload a JPEG, PNG or WebP photo.');
    const big = new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    expect(precheck(big)).toBe('The photo is larger than 25 MB. Upload a smaller one.');
  });
});

describe('toBase64', () => {
  it('encodes the bytes, also past one chunk', async () => {
    expect(await toBase64(new Blob(['hello']))).toBe('aGVsbG8=');
    const long = new Uint8Array(0x8000 * 2 + 3).fill(65);
    expect(atob(await toBase64(new Blob([long])))).toHaveLength(long.length);
  });
});

describe('hasRunningStudioJob', () => {
  it('is true while a job is queued or working', () => {
    expect(hasRunningStudioJob([{ status: 'done' }, { status: 'working' }])).toBe(true);
    expect(hasRunningStudioJob([{ status: 'queued' }])).toBe(true);
    expect(hasRunningStudioJob([{ status: 'done' }, { status: 'failed' }])).toBe(false);
    expect(hasRunningStudioJob(undefined)).toBe(false);
  });
});

describe('jobTitle', () => {
  it('says what a job is doing while it runs, and what it made once done', () => {
    expect(jobTitle('cutout', 'queued', 'mug')).toBe('Removing the background: mug');
    expect(jobTitle('cutout', 'working', 'mug')).toBe('Removing the background: mug');
    expect(jobTitle('cutout', 'done', 'mug')).toBe('Background removed: mug');
    expect(jobTitle('cutout', 'failed', 'mug')).toBe('Background not removed: mug');
    expect(jobTitle('presets', 'working', 'tin')).toBe('Making channel presets: tin');
    expect(jobTitle('studio', 'done', undefined)).toBe('Studio image: photo');
  });
});
