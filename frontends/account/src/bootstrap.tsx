import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { injectStyles, queryDefaults, SessionProvider } from '@uplift/platform';
import AccountSettings from './app/account-settings';

// Standalone mode, for working on this remote alone, with a made-up signed-in user.
injectStyles();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient({ defaultOptions: queryDefaults })}>
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
    </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
