// Lint for what the type checker (`npm run typecheck`) cannot see: the import
// boundaries between the apps, their features and the platform
// (scripts/eslint-boundaries.mjs), and the rules of hooks. Babel's parser
// reads the TypeScript: typescript-eslint needs TypeScript's JavaScript API,
// which the native TypeScript 7 we type-check with does not ship.
import babelParser from '@babel/eslint-parser';
import reactHooks from 'eslint-plugin-react-hooks';
import uplift from './scripts/eslint-boundaries.mjs';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/platform/src/gen/**'] },
  {
    files: ['{packages/platform,shell,home,analytics,connections,account}/src/**/*.{ts,tsx}'],
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: { babelrc: false, configFile: false, presets: ['@babel/preset-typescript'] },
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { uplift, 'react-hooks': reactHooks },
    rules: {
      'uplift/boundaries': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
];
