// @vitest-environment node
// The apps' bundles get React Router and TanStack Query through the facades
// in packages/platform/mf (see shared.js). A name the code imports from the
// package that its facade does not pass on would be undefined at run time in
// the browser (unit tests import the real package and would not notice):
// this test is where that shows.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FACADES, sharedSingletons } from '../packages/platform/mf/shared.js';

const frontends = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SOURCE_DIRS = ['shell/src', 'home/src', 'analytics/src', 'connections/src', 'account/src', 'packages/platform/src'];

async function sourceFiles() {
  const files = [];
  for (const dir of SOURCE_DIRS) {
    for (const name of await readdir(path.join(frontends, dir), { recursive: true })) {
      if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path.join(frontends, dir, name));
    }
  }
  return files;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Runtime names imported from pkg (type-only imports left out), and any other form of import. */
function importsFrom(source, pkg) {
  const names = [];
  const other = [];
  const quoted = `['"]${escape(pkg)}['"]`;
  for (const match of source.matchAll(new RegExp(`import\\s+(type\\s+)?([^;]*?)\\s+from\\s+${quoted}`, 'g'))) {
    if (match[1]) continue;
    const clause = match[2].trim();
    const braces = clause.match(/^\{([^}]*)\}$/);
    if (!braces) {
      other.push(clause);
      continue;
    }
    for (const part of braces[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  if (new RegExp(`import\\(\\s*${quoted}\\s*\\)`).test(source)) other.push('import()');
  return { names, other };
}

async function facadeNames(pkg) {
  const source = await readFile(FACADES[pkg].file, 'utf8');
  const list = source.match(/export\s*\{([^}]*)\}\s*from/)[1];
  return list.split(',').map((name) => name.trim()).filter(Boolean);
}

describe.each([
  ['react-router', ['Routes', 'useLocation']],
  ['@tanstack/react-query', ['useQuery', 'QueryClient']],
])('the shared %s facade', (pkg, surelyUsed) => {
  it('passes on every name the apps import from the package', async () => {
    const exported = new Set(await facadeNames(pkg));
    const used = new Set();
    for (const file of await sourceFiles()) {
      const { names, other } = importsFrom(await readFile(file, 'utf8'), pkg);
      expect(other, `${path.relative(frontends, file)} imports ${pkg} other than by name`).toEqual([]);
      for (const name of names) {
        used.add(name);
        expect(exported.has(name), `${name} (imported in ${path.relative(frontends, file)}) is missing from ${path.basename(FACADES[pkg].file)}`).toBe(true);
      }
    }
    // The scan found the imports (a broken pattern would find none and pass).
    for (const name of surelyUsed) expect(used.has(name), name).toBe(true);
  });

  it('exports only names the package has', async () => {
    const target = await import(pathToFileURL(FACADES[pkg].target).href);
    for (const name of await facadeNames(pkg)) expect(target[name], name).toBeDefined();
  });

  it('is what the shared config provides under the package name', () => {
    const shared = sharedSingletons({ react: '^19', 'react-dom': '^19', 'react-router': '^7.18.5', '@tanstack/react-query': '^5.108.0' });
    expect(shared[pkg]).toMatchObject({ singleton: true, import: FACADES[pkg].file });
    expect(shared[pkg].version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
