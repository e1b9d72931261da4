import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Button, ErrorCard, LOADING_TEXT, type RemoteName } from '@uplift/platform';
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

// One lazy component per remote module, so re-renders do not reload it.
const components = new Map<string, LazyExoticComponent<ComponentType>>();

function remoteComponent(remote: RemoteName, url: string, module: string) {
  const key = `${url}#${module}`;
  let component = components.get(key);
  if (!component) {
    // A failure stays cached (React re-renders a failed lazy before showing the
    // boundary, so dropping it here would loop); 'Try again' drops it.
    component = lazy(async () => {
      const loaded = await loadRemoteModule<{ default: ComponentType }>(
        { scope: `uplift_${remote}`, url },
        module,
      );
      return { default: loaded.default };
    });
    components.set(key, component);
  }
  return component;
}

/** Renders a remote's exposed module behind Suspense and an error boundary. */
export function RemoteModule({ remote, module }: { remote: RemoteName; module: string }) {
  const env = useEnv();
  const url = env.remotes[remote];
  return (
    // Keyed so that moving between routes that show different remotes never
    // reuses one remote's failed boundary for another.
    <ErrorBoundary
      key={`${url}#${module}`}
      fallback={(_error, reset) => (
        <ErrorCard title={`${TITLES[remote]} could not be loaded`}>
          <p>This part of Uplift is unavailable right now. The rest of the app still works.</p>
          <Button
            variant="secondary"
            onClick={() => {
              components.delete(`${url}#${module}`);
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
  const Component = remoteComponent(remote, url, module);
  return <Component />;
}
