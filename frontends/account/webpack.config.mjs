import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../scripts/webpack-config.mjs';

export default createConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  name: 'uplift_account',
  title: 'Uplift Account',
  // The shell shows this inside its Account Settings dialog.
  exposes: { './AccountSettings': './src/app/account-settings.tsx' },
});
