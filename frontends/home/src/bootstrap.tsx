import { Route, Routes } from 'react-router';
import { renderStandalone } from '@uplift/platform/standalone';
import App from './app/routes';
import IdeasApp from './app/ideas-routes';
import WebsiteScoreApp from './app/website-score-routes';

// Standalone mode, for working on this remote alone; inside the shell only the exposed modules are used.
renderStandalone(
  <Routes>
    <Route path="ideas/*" element={<IdeasApp />} />
    <Route path="website-score/*" element={<WebsiteScoreApp />} />
    <Route path="*" element={<App />} />
  </Routes>,
);
