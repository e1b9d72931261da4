import { SessionProvider } from '@uplift/platform';
import { renderStandalone } from '@uplift/platform/standalone';
import AccountSettings from './app/account-settings';

// Standalone mode, for working on this remote alone, with a made-up signed-in user.
renderStandalone(
  <SessionProvider
    session={{
      status: 'signedIn',
      user: { uid: 'standalone', email: 'someone@example.com', displayName: 'Someone', photoURL: null },
    }}
  >
    <main className="u-page">
      <h1>Account Settings</h1>
      <AccountSettings />
    </main>
  </SessionProvider>,
);
