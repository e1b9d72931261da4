import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`));
const versionOf = (name) => require(`${name}/package.json`).version;

/**
 * Packages shared through a facade (a file here that re-exports only the
 * names our code uses): a shared module keeps every export, since webpack
 * cannot know what the other apps use, so sharing the package itself would
 * put all of it in every first load. The facade imports the package by an
 * alias (the package's own name would be the share again).
 */
export const FACADES = {
  'react-router': {
    file: path.join(here, 'react-router.js'),
    alias: 'uplift-react-router-production',
    // The package's exports map offers bundlers only its development build.
    target: path.join(packageDir('react-router'), 'dist', 'production', 'index.mjs'),
    version: versionOf('react-router'),
  },
  '@tanstack/react-query': {
    file: path.join(here, 'react-query.js'),
    alias: 'uplift-react-query-package',
    target: path.join(packageDir('@tanstack/react-query'), 'build', 'modern', 'index.js'),
    version: versionOf('@tanstack/react-query'),
  },
};

/** Webpack aliases the facades import their packages by. */
export const sharedAliases = Object.fromEntries(Object.values(FACADES).map((f) => [`${f.alias}$`, f.target]));

/**
 * The one Module Federation `shared` config, used by the shell and every
 * remote. Each of these must exist exactly once on the page: two Reacts break
 * hooks, two routers or query clients split their contexts, and two platform
 * packages would mean two token stores.
 *
 * @param {Record<string, string>} dependencies the app's package.json
 *   dependencies, so the required ranges are written down only there.
 */
export function sharedSingletons(dependencies) {
  const range = (name) => {
    const value = dependencies[name];
    if (!value) throw new Error(`sharedSingletons: ${name} is missing from the app's dependencies`);
    return value;
  };
  const singleton = (requiredVersion) => ({ singleton: true, strictVersion: false, requiredVersion });
  const facade = (name, requiredVersion) => ({
    ...singleton(requiredVersion),
    import: FACADES[name].file,
    version: FACADES[name].version,
  });
  return {
    react: singleton(range('react')),
    'react/jsx-runtime': singleton(range('react')),
    'react-dom': singleton(range('react-dom')),
    'react-dom/client': singleton(range('react-dom')),
    // Shared under their own names; what is provided is the facade (FACADES).
    'react-router': facade('react-router', range('react-router')),
    '@tanstack/react-query': facade('@tanstack/react-query', range('@tanstack/react-query')),
    // A workspace package: any version is the right one.
    '@uplift/platform': singleton(false),
  };
}
