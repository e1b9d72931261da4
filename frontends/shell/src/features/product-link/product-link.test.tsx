import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '@uplift/platform';
import { renderHookWithProviders, signedInAs, signedOut } from '@uplift/platform/testing';
import { PENDING_PRODUCT_KEY, useProductLink, type StudioPath } from './product-link';

const signedIn = signedInAs('u1');

function renderAt(path: string, session: Session, studioPath: StudioPath) {
  return renderHookWithProviders(() => useProductLink(studioPath), { path, session });
}

const studio: StudioPath = (id) => `/studio?product=${encodeURIComponent(id)}`;

afterEach(() => sessionStorage.clear());

describe('useProductLink', () => {
  it('keeps ?product= while there is no studio, and does not navigate', async () => {
    const { location } = renderAt('/?product=gid-42', signedIn, null);
    await waitFor(() => expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBe('gid-42'));
    expect(location()).toBe('/?product=gid-42');
  });

  it('keeps it through sign-in and then opens the studio on that product', async () => {
    const before = renderAt('/?product=gid-42', signedOut, studio);
    await waitFor(() => expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBe('gid-42'));
    expect(before.location()).toBe('/?product=gid-42');
    before.unmount();
    // Signing in may land elsewhere without the parameter; the kept product still leads to the studio.
    const after = renderAt('/', signedIn, studio);
    await waitFor(() => expect(after.location()).toBe('/studio?product=gid-42'));
    expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBeNull();
  });
});
