import { Suspense, use, type ComponentType } from 'react';
import { Button, ErrorCard, LOADING_TEXT, preloaded, type RemoteName } from '@uplift/platform';
import { useEnv } from './env-context';
import { ErrorBoundary } from './error-boundary';
import { loadRemoteModule } from './federation';
import { RouteErrorBoundary } from './route-error-boundary';

const TITLES: Record<RemoteName, string> = {
  home: 'Home',
  analytics: 'Analytics',
  connections: 'Connections',
  account: 'Account',
};

// One load per remote module, so re-renders do not reload it. A failure
// stays cached (React re-renders a failed read before showing the boundary,
// so dropping it here would loop); 'Try again' drops it.
const loads = new Map<string, Promise<{ default: ComponentType }>>();

const keyOf = (url: string, module: string) => `${url}#${module}`;

function loadOnce(remote: RemoteName, url: string, module: string) {
  const key = keyOf(url, module);
  let load = loads.get(key);
  if (!load) {
    // Marked as it settles, so a module that arrived before its page is shown renders without suspending.
    load = preloaded(loadRemoteModule<{ default: ComponentType }>({ scope: `uplift_${remote}`, url }, module));
    loads.set(key, load);
  }
  return load;
}

/**
 * Starts fetching a remote's module before it is rendered (the page being
 * opened, while the shell still waits for the session), so its remoteEntry.js
 * and chunks do not wait in line behind sign-in. A failure shows when the
 * module is rendered.
 */
export function preloadRemoteModule(remote: RemoteName, url: string, module: string): void {
  loadOnce(remote, url, module).catch(() => {});
}

/** Renders a remote's exposed module behind Suspense and an error boundary. */
export function RemoteModule({ remote, module }: { remote: RemoteName; module: string }) {
  const env = useEnv();
  const url = env.remotes[remote];
  return (
    // Keyed so that moving between routes that show different remotes never
    // reuses one remote's failed boundary for another.
    <ErrorBoundary
      key={keyOf(url, module)}
      fallback={(_error, reset) => (
        <ErrorCard title={`${TITLES[remote]} could not be loaded`}>
          <p>This part of Uplift is unavailable right now. The rest of the app still works.</p>
          <Button
            variant="secondary"
            onClick={() => {
              loads.delete(keyOf(url, module));
              reset();
            }}
          >
            Try again
          </Button>
        </ErrorCard>
      )}
    >
      {/* Inside: a remote page's HTTP error shows its status; anything else reaches the card above. */}
      <RouteErrorBoundary>
        <Suspense fallback={<p>{LOADING_TEXT}</p>}>
          <RemoteBody remote={remote} url={url} module={module} />
        </Suspense>
      </RouteErrorBoundary>
    </ErrorBoundary>
  );
}

function RemoteBody({ remote, url, module }: { remote: RemoteName; url: string; module: string }) {
  const { default: Component } = use(loadOnce(remote, url, module));
  return <Component />;
}
