// The import boundaries of the web (an ESLint rule, `uplift/boundaries`):
// the shell and the remotes are deployed apart and meet only at run time, so
// - an app never imports another app's files (a remote never the shell, the
//   shell never a remote: it loads them with RemoteModule);
// - what they share comes from `@uplift/platform` (or an entry of its
//   package.json, like `@uplift/platform/text-field`), never from its files
//   by path, and `@uplift/platform/testing` only in tests;
// - the platform imports no app;
// - inside an app, one feature never imports another
//   (`src/features/<a>` → `src/features/<b>`): what both need moves to the
//   app's `lib/` or `components/`, and `app/` composes the features.
// Relative paths are resolved, so `../../` that happens to climb into a
// neighbour is caught as surely as a bare name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const APPS = new Set(['shell', 'home', 'analytics', 'connections', 'account']);
const PLATFORM = 'packages/platform';
const PLATFORM_PACKAGE = '@uplift/platform';
const TESTING_ENTRY = '@uplift/platform/testing';
/**
 * Platform parts bundled where imported, so not in every first load: what
 * only lazily loaded pages use, and the remotes' standalone bootstrap.
 */
const LAZY_ENTRIES = new Set([
  '@uplift/platform/text-field',
  '@uplift/platform/plans',
  '@uplift/platform/standalone',
  '@uplift/platform/connections',
  '@uplift/platform/studio',
]);
const FRONTENDS = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/**
 * The API calls behind the lazy entries that re-export them: a copy of each
 * is bundled in the app that imports it, so what they use of the rest of the
 * platform (above all the HTTP client's token and address) must come from
 * the singleton by the package's name. A relative import there would bundle
 * a second copy of it, and of everything it imports: an unconfigured client.
 * Only each other and types (erased) they import by path.
 */
const PLATFORM_EXPORTS = JSON.parse(readFileSync(path.join(FRONTENDS, PLATFORM, 'package.json'), 'utf8')).exports;
const ENTRY_CALLS = new Set(
  [...LAZY_ENTRIES]
    .map((entry) => PLATFORM_EXPORTS[`.${entry.slice(PLATFORM_PACKAGE.length)}`])
    .filter((file) => file.startsWith('./src/api/'))
    .flatMap((file) =>
      [...readFileSync(path.join(FRONTENDS, PLATFORM, file), 'utf8').matchAll(/from '\.\/([\w-]+)'/g)].map(
        (m) => `${PLATFORM}/src/api/${m[1]}.ts`,
      ),
    ),
);

/** Where a file sits: its app (or the platform) and, in an app, its feature. */
function placeOf(relative) {
  const parts = relative.split('/');
  if (relative.startsWith(`${PLATFORM}/`)) return { area: PLATFORM };
  if (!APPS.has(parts[0])) return { area: null };
  const feature = parts[1] === 'src' && parts[2] === 'features' && parts.length > 4 ? parts[3] : null;
  return { area: parts[0], feature };
}

const isTest = (relative) => /\.test\.[cm]?[jt]sx?$/.test(relative) || /test-kit\.[jt]sx?$/.test(relative);

function problem(from, source, target, typeOnly) {
  if (source.startsWith('@uplift/')) {
    if (source === TESTING_ENTRY) return isTest(from.relative) ? null : 'testing';
    if (source === PLATFORM_PACKAGE || LAZY_ENTRIES.has(source) || source.startsWith(`${PLATFORM_PACKAGE}/mf/`)) {
      if (from.area !== PLATFORM) return null;
      return source === PLATFORM_PACKAGE && ENTRY_CALLS.has(from.relative) ? null : 'platformImportsItself';
    }
    return 'otherPackage';
  }
  if (!target) return null;
  if (ENTRY_CALLS.has(from.relative) && target.area === PLATFORM && !typeOnly && !ENTRY_CALLS.has(`${target.relative}.ts`)) {
    return 'entryCopiesState';
  }
  if (target.area !== from.area) {
    if (from.area === PLATFORM) return target.area ? 'platformImportsApp' : null;
    if (target.area === PLATFORM) return 'platformByPath';
    if (target.area === 'shell') return 'remoteImportsShell';
    if (target.area) return from.area === 'shell' ? 'shellImportsRemote' : 'remoteImportsRemote';
    return null;
  }
  if (from.feature && target.feature && from.feature !== target.feature) return 'crossFeature';
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'keeps the shell, the remotes, their features and the platform apart' },
    schema: [],
    messages: {
      remoteImportsShell:
        "A remote never imports the shell ('{{source}}'): ask the shell through @uplift/platform (an app event or a context it provides).",
      shellImportsRemote: "The shell never imports a remote ('{{source}}'): it loads remotes at run time with RemoteModule.",
      remoteImportsRemote: "Remotes never import each other ('{{source}}'): move what both need to @uplift/platform.",
      platformByPath: "Import '@uplift/platform', not its files ('{{source}}').",
      platformImportsApp: "The platform never imports an app ('{{source}}').",
      entryCopiesState:
        "This call is bundled apart from the platform (a lazy entry): take '{{source}}' from '@uplift/platform', or the app gets a second, unconfigured copy.",
      platformImportsItself: "Inside the platform, import its modules by relative path, not '{{source}}'.",
      otherPackage: "'{{source}}' is not shared: apps share code only through @uplift/platform.",
      testing: "'{{source}}' is for tests only (*.test.ts(x), *-test-kit.tsx): it would put Testing Library in the bundle.",
      crossFeature:
        "Features do not import each other ('{{source}}' is in feature '{{target}}'): move what both need to the app's lib/ or components/, or compose them in app/.",
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const relative = path.relative(FRONTENDS, filename).split(path.sep).join('/');
    const from = { ...placeOf(relative), relative };
    if (!from.area) return {};

    function check(node, typeOnly = false) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const source = node.value;
      const resolved = source.startsWith('.')
        ? path.relative(FRONTENDS, path.resolve(path.dirname(filename), source)).split(path.sep).join('/')
        : null;
      const target = resolved === null ? null : { ...placeOf(resolved), relative: resolved.replace(/\.[cm]?[jt]sx?$/, '') };
      const messageId = problem(from, source, target, typeOnly);
      if (messageId) context.report({ node, messageId, data: { source, target: target?.feature ?? '' } });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // vi.mock('../path') in tests reaches a module the same way an import does.
      CallExpression: (node) => {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.object.name === 'vi' && callee.property.name === 'mock') {
          check(node.arguments[0]);
        }
      },
    };
  },
};

export default { meta: { name: 'uplift' }, rules: { boundaries } };
