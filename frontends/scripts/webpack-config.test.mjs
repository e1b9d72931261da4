// @vitest-environment node
// What the shared webpack config gives production and development builds:
// no source maps referenced from production bundles, and nothing built on eval
// (the Content-Security-Policy has no 'unsafe-eval').
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConfig, startupChunkFiles } from './webpack-config.mjs';

const frontends = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const home = () => createConfig({ dir: path.join(frontends, 'home'), name: 'uplift_home', exposes: {}, title: 'Home' });

describe('createConfig', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('production bundles do not point at their source maps', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const config = home();
    expect(config.mode).toBe('production');
    expect(config.devtool).toBe('hidden-source-map');
  });

  it('is production unless NODE_ENV says development', () => {
    vi.stubEnv('NODE_ENV', '');
    expect(home().devtool).toBe('hidden-source-map');
  });

  it('development keeps full source maps, without eval', () => {
    vi.stubEnv('NODE_ENV', 'development');
    const config = home();
    expect(config.mode).toBe('development');
    expect(config.devtool).toMatch(/source-map$/);
    expect(config.devtool).not.toMatch(/eval|hidden/);
  });
});

describe('startupChunkFiles', () => {
  const chunk = (...files) => ({ files: new Set(files) });
  const group = (...chunks) => ({ chunks });

  it("lists the scripts of the entry's child chunk groups, not their maps and not what those load later", () => {
    const later = group(chunk('dialog.5.js'));
    const bootstrap = { ...group(chunk('91.a.js', '91.a.js.map'), chunk('888.b.js')), getChildren: () => [later] };
    const react = group(chunk('470.c.js', '470.c.js.LICENSE.txt'));
    const compilation = { entrypoints: new Map([['main', { getChildren: () => [bootstrap, react] }]]) };
    expect(startupChunkFiles(compilation)).toEqual(['470.c.js', '888.b.js', '91.a.js']);
  });

  it('is empty for a build without that entry', () => {
    expect(startupChunkFiles({ entrypoints: new Map() })).toEqual([]);
  });
});
