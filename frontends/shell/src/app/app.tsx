import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Auth } from 'firebase/auth';
import { BrowserRouter } from 'react-router';
import { WidgetSettingsProvider, type Env, type WidgetSettings } from '@uplift/platform';
import { AuthProvider } from '../features/auth';
import { EnvProvider } from '../lib/env-context';
import { RootErrorBoundary } from '../lib/route-error-boundary';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './routes';

/** The optional widgets' settings, for the remotes (which never read the configuration). */
function widgetSettings(env: Env): WidgetSettings {
  const { reviewsBusinessUnitId, reviewsTemplateId, stripePublishableKey } = env;
  return {
    reviews:
      reviewsBusinessUnitId && reviewsTemplateId ? { businessUnitId: reviewsBusinessUnitId, templateId: reviewsTemplateId } : undefined,
    stripePublishableKey,
  };
}

/** Providers, outermost first: configuration, data, auth, routing. */
export function App({ env, auth }: { env: Env; auth: Auth }) {
  const [queryClient] = useState(createQueryClient);
  const [widgets] = useState(() => widgetSettings(env));
  return (
    <EnvProvider env={env}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider auth={auth} tokenSyncUrl={env.tokenSyncUrl}>
          <WidgetSettingsProvider value={widgets}>
            <BrowserRouter>
              <RootErrorBoundary>
                <AppRoutes />
              </RootErrorBoundary>
            </BrowserRouter>
          </WidgetSettingsProvider>
        </AuthProvider>
      </QueryClientProvider>
    </EnvProvider>
  );
}
