// The webpack config every app builds with: TS/TSX through esbuild, the
// built-in Module Federation plugin with the shared singletons, one HTML page
// (the same template for every app: the host's adds the runtime settings).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { sharedAliases, sharedSingletons } from '../packages/platform/mf/shared.js';

/** The one page template; `host` adds the description and `/env.js`. */
export const PAGE_TEMPLATE = fileURLToPath(new URL('../packages/platform/mf/index.html', import.meta.url));

/**
 * The host's startup chunks: those the entry's own async imports and shared
 * modules load (the bootstrap, Firebase, React, the router, the query client,
 * the platform), not what those load later (dialogs, pages).
 */
export function startupChunkFiles(compilation, entryName = 'main') {
  const files = new Set();
  for (const group of compilation.entrypoints.get(entryName)?.getChildren() ?? []) {
    for (const chunk of group.chunks) {
      for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
    }
  }
  return [...files].sort();
}

/**
 * Preloads the startup chunks from index.html: without it the browser learns
 * of them only once main.js has arrived and run, one round trip later
 * (issue 14: no request waterfall before the first paint).
 */
class PreloadStartupChunks {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadStartupChunks', (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTags.tap('PreloadStartupChunks', (data) => {
        for (const file of startupChunkFiles(compilation)) {
          data.assetTags.meta.push(
            HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: `${data.publicPath}${file}` }),
          );
        }
        return data;
      });
    });
  }
}

/**
 * @param {object} options
 * @param {string} options.dir the app's folder
 * @param {string} options.name federation name (a JS identifier)
 * @param {Record<string, string>} [options.exposes] for remotes: module path → file
 * @param {boolean} [options.host] the shell: no remoteEntry, served from /
 * @param {string} options.title page title
 */
export function createConfig({ dir, name, exposes, host = false, title }) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const production = process.env.NODE_ENV !== 'development';
  return {
    name,
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: './src/index.ts' },
    // Production: maps are written but not referenced from the bundles, and
    // serve.mjs hands them out only in local mode. Development: full maps in
    // files, not eval, which the CSP refuses.
    devtool: production ? 'hidden-source-map' : 'cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      // Remotes load their chunks from wherever their remoteEntry.js came from.
      publicPath: host ? '/' : 'auto',
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: name,
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js'], alias: sharedAliases },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { target: 'es2022', jsx: 'automatic' },
        },
      ],
    },
    plugins: [
      new webpack.container.ModuleFederationPlugin({
        name,
        ...(host ? {} : { filename: 'remoteEntry.js', exposes }),
        shared: sharedSingletons(pkg.dependencies),
      }),
      new HtmlWebpackPlugin({
        template: PAGE_TEMPLATE,
        chunks: ['main'],
        title,
        host,
      }),
      ...(host ? [new PreloadStartupChunks()] : []),
    ],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}
