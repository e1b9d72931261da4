import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../scripts/webpack-config.mjs';

export default createConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  name: 'uplift_analytics',
  title: 'Uplift Analytics',
  // Routes only: the shell mounts them under its own path prefix.
  exposes: { './App': './src/app/routes.tsx' },
});
