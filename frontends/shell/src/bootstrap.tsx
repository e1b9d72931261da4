import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureHttp, injectStyles, readBrowserEnv, type Env } from '@uplift/platform';
import { App } from './app/app';
import { remotePageFor } from './app/routes-config';
import { StartupError } from './app/startup-error';
import { initFirebase } from './features/auth/lib/firebase';
import { preloadRemoteModule } from './lib/remote';

function start(): void {
  injectStyles();
  const root = createRoot(document.getElementById('root')!);
  let env: Env;
  try {
    env = readBrowserEnv();
  } catch (error) {
    root.render(<StartupError message={error instanceof Error ? error.message : String(error)} />);
    return;
  }
  configureHttp({ baseUrl: env.restBaseUrl, streamBaseUrl: env.streamBaseUrl });
  // The page's remote loads while Firebase finds out who is signed in, not after.
  const page = remotePageFor(window.location.pathname);
  if (page) preloadRemoteModule(page.remote, env.remotes[page.remote], page.module);
  const auth = initFirebase(env);
  root.render(
    <StrictMode>
      <App env={env} auth={auth} />
    </StrictMode>,
  );
}

start();
