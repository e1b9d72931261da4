import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../scripts/webpack-config.mjs';

export default createConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  name: 'uplift_home',
  title: 'Uplift Home',
  // Routes only: the shell mounts them under its own path prefix.
  exposes: {
    './App': './src/app/routes.tsx',
    './Ideas': './src/app/ideas-routes.tsx',
    './WebsiteScore': './src/app/website-score-routes.tsx',
    './Studio': './src/app/studio-routes.tsx',
  },
});
