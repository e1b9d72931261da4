import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { SessionProvider, type Session } from '@uplift/platform';
import { PENDING_PRODUCT_KEY, useProductLink, type StudioPath } from './product-link';

const signedIn: Session = {
  status: 'signedIn',
  user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null },
};
const signedOut: Session = { status: 'signedOut', user: null };

function Probe({ studioPath }: { studioPath: StudioPath }) {
  useProductLink(studioPath);
  const { pathname, search } = useLocation();
  return <output aria-label="at">{pathname + search}</output>;
}

function renderAt(path: string, session: Session, studioPath: StudioPath) {
  return render(
    <SessionProvider session={session}>
      <MemoryRouter initialEntries={[path]}>
        <Probe studioPath={studioPath} />
      </MemoryRouter>
    </SessionProvider>,
  );
}

const studio: StudioPath = (id) => `/studio?product=${encodeURIComponent(id)}`;

afterEach(() => sessionStorage.clear());

describe('useProductLink', () => {
  it('keeps ?product= while there is no studio, and does not navigate', async () => {
    renderAt('/?product=gid-42', signedIn, null);
    await waitFor(() => expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBe('gid-42'));
    expect(screen.getByLabelText('at').textContent).toBe('/?product=gid-42');
  });

  it('keeps it through sign-in and then opens the studio on that product', async () => {
    const { unmount } = renderAt('/?product=gid-42', signedOut, studio);
    await waitFor(() => expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBe('gid-42'));
    expect(screen.getByLabelText('at').textContent).toBe('/?product=gid-42');
    unmount();
    // Signing in may land elsewhere without the parameter; the kept product still leads to the studio.
    renderAt('/', signedIn, studio);
    await waitFor(() => expect(screen.getByLabelText('at').textContent).toBe('/studio?product=gid-42'));
    expect(sessionStorage.getItem(PENDING_PRODUCT_KEY)).toBeNull();
  });
});
