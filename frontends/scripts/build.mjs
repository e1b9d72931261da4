// Builds the shell and the remotes (all, or those named on the command line).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import webpack from 'webpack';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const apps = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['shell', 'home', 'analytics', 'connections', 'account'];

const configs = await Promise.all(
  apps.map(async (app) => (await import(pathToFileURL(path.join(root, app, 'webpack.config.mjs')).href)).default),
);

// The build machines have two cores: at most two compilers at once.
configs.parallelism = 2;
webpack(configs, (error, stats) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  console.log(stats.toString({ colors: process.stdout.isTTY, preset: 'errors-warnings' }));
  if (stats.hasErrors()) process.exit(1);
  console.log(`built: ${apps.join(', ')}`);
});
