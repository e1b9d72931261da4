import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SessionProvider, type Session } from '@uplift/platform';
import { useIdentityReturn } from './use-identity-return';

const signedIn: Session = {
  status: 'signedIn',
  user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null },
};

function Probe({ open, seen }: { open: () => void; seen: string[] }) {
  useIdentityReturn(open);
  const { pathname, search } = useLocation();
  seen.push(pathname + search);
  return null;
}

function renderAt(entry: string, session: Session) {
  const open = vi.fn();
  const seen: string[] = [];
  render(
    <SessionProvider session={session}>
      <MemoryRouter initialEntries={[entry]}>
        <Probe open={open} seen={seen} />
      </MemoryRouter>
    </SessionProvider>,
  );
  return { open, seen };
}

describe('useIdentityReturn', () => {
  it('opens Account Settings once back from a hosted verification page, and drops the parameter', () => {
    const { open, seen } = renderAt('/analytics?identity=returned&tab=2', signedIn);
    expect(open).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toBe('/analytics?tab=2');
  });

  it('does nothing on other addresses, or signed out', () => {
    expect(renderAt('/analytics?identity=other', signedIn).open).not.toHaveBeenCalled();
    expect(renderAt('/?identity=returned', { status: 'signedOut', user: null }).open).not.toHaveBeenCalled();
  });
});
