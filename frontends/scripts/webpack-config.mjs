// The webpack config every app builds with: TS/TSX through esbuild, the
// built-in Module Federation plugin with the shared singletons, one HTML page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import webpack from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { sharedAliases, sharedSingletons } from '../packages/platform/mf/shared.js';

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
        template: path.join(dir, 'public/index.html'),
        chunks: ['main'],
        title,
      }),
    ],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}
