import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { queryDefaults } from './query/query-defaults';
import { injectStyles } from './ui/styles';

/**
 * Renders a remote on its own page, for working on it without the shell:
 * the styles, a query client and a router, as the shell would give them.
 * Only a remote's bootstrap calls it; inside the shell the exposed modules
 * run and this is never loaded, so it is an entry of its own, not part of
 * the shared package.
 */
export function renderStandalone(app: ReactNode): void {
  injectStyles();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={new QueryClient({ defaultOptions: queryDefaults })}>
        <BrowserRouter>{app}</BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
