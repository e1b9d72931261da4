// @vitest-environment node
// What the shared webpack config gives production and development builds:
// no source maps referenced from production bundles, and nothing built on eval
// (the Content-Security-Policy has no 'unsafe-eval').
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConfig, PAGE_TEMPLATE, startupChunkFiles } from './webpack-config.mjs';

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

describe('the page template', () => {
  const htmlOptions = (config) => config.plugins.find((p) => p.constructor.name === 'HtmlWebpackPlugin').userOptions;
  // html-webpack-plugin's own fallback loader reads an .html template as a lodash template.
  const render = (options) =>
    createRequire(import.meta.url)('lodash/template')(readFileSync(PAGE_TEMPLATE, 'utf8'))({ htmlWebpackPlugin: { options } });

  it('is the one shared file for the host and every remote', () => {
    for (const app of ['shell', 'home', 'analytics', 'connections', 'account']) {
      const options = htmlOptions(createConfig({ dir: path.join(frontends, app), name: app, host: app === 'shell', title: app }));
      expect(options.template).toBe(PAGE_TEMPLATE);
      expect(options.host).toBe(app === 'shell');
    }
  });

  it("loads the runtime settings before the app on the host's page only", () => {
    const host = render({ title: 'Uplift', host: true });
    expect(host).toContain('<script src="/env.js"></script>');
    expect(host).toContain('<meta name="description"');
    expect(host).toContain('<title>Uplift</title>');
    const remote = render({ title: 'Uplift Home', host: false });
    expect(remote).not.toContain('env.js');
    expect(remote).toContain('<div id="root"></div>');
    // No inline script: the Content-Security-Policy allows none.
    expect(`${host}${remote}`).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
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
