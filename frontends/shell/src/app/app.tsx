import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Auth } from 'firebase/auth';
import { BrowserRouter } from 'react-router';
import type { Env } from '@uplift/platform';
import { AuthProvider } from '../features/auth';
import { EnvProvider } from '../lib/env-context';
import { RootErrorBoundary } from '../lib/route-error-boundary';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './routes';

/** Providers, outermost first: configuration, data, auth, routing. */
export function App({ env, auth }: { env: Env; auth: Auth }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <EnvProvider env={env}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider auth={auth} tokenSyncUrl={env.tokenSyncUrl}>
          <BrowserRouter>
            <RootErrorBoundary>
              <AppRoutes />
            </RootErrorBoundary>
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </EnvProvider>
  );
}
