import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../scripts/webpack-config.mjs';

// The host: remotes are not listed here, their URLs come from /env.js at run time.
export default createConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  name: 'uplift_shell',
  host: true,
  title: 'Uplift',
});
