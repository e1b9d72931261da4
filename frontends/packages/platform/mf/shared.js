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
  return {
    react: singleton(range('react')),
    'react/jsx-runtime': singleton(range('react')),
    'react-dom': singleton(range('react-dom')),
    'react-dom/client': singleton(range('react-dom')),
    'react-router': singleton(range('react-router')),
    '@tanstack/react-query': singleton(range('@tanstack/react-query')),
    // A workspace package: any version is the right one.
    '@uplift/platform': singleton(false),
  };
}
