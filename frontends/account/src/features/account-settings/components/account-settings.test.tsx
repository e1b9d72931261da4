import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SessionProvider } from '@uplift/platform';
import { AccountSettings } from './account-settings';

describe('AccountSettings', () => {
  it("shows the signed-in user's email", () => {
    render(
      <SessionProvider
        session={{ status: 'signedIn', user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null } }}
      >
        <AccountSettings />
      </SessionProvider>,
    );
    expect(screen.getByText('Email')).toBeTruthy();
    expect(screen.getByText('jane@example.com')).toBeTruthy();
  });
});
