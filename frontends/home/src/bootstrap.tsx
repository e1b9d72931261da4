import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { injectStyles, queryDefaults } from '@uplift/platform';
import App from './app/routes';
import IdeasApp from './app/ideas-routes';
import WebsiteScoreApp from './app/website-score-routes';

// Standalone mode, for working on this remote alone; inside the shell only the exposed modules are used.
injectStyles();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient({ defaultOptions: queryDefaults })}>
      <BrowserRouter>
        <Routes>
          <Route path="ideas/*" element={<IdeasApp />} />
          <Route path="website-score/*" element={<WebsiteScoreApp />} />
          <Route path="*" element={<App />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
