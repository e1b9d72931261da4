/**
 * Loads federated modules at run time from URLs in the configuration, so a
 * remote can be redeployed or moved without rebuilding the shell.
 */
declare const __webpack_init_sharing__: (scope: string) => Promise<void>;
declare const __webpack_share_scopes__: { default: unknown };

interface Container {
  init(shareScope: unknown): Promise<void> | void;
  get(module: string): Promise<() => unknown>;
}

const scripts = new Map<string, Promise<void>>();
const initialized = new Set<string>();

function loadScript(url: string): Promise<void> {
  let pending = scripts.get(url);
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        script.remove();
        // Forget the failure so a retry loads the script again.
        scripts.delete(url);
        reject(new Error(`Could not load ${url}`));
      };
      document.head.appendChild(script);
    });
    scripts.set(url, pending);
  }
  return pending;
}

export interface RemoteRef {
  /** The remote's federation name, e.g. `uplift_home`. */
  scope: string;
  /** Full URL of its remoteEntry.js. */
  url: string;
}

export async function loadRemoteModule<T>(remote: RemoteRef, module: string): Promise<T> {
  await loadScript(remote.url);
  await __webpack_init_sharing__('default');
  const container = (window as unknown as Record<string, Container | undefined>)[remote.scope];
  if (!container) throw new Error(`${remote.url} did not define ${remote.scope}`);
  if (!initialized.has(remote.scope)) {
    await container.init(__webpack_share_scopes__.default);
    initialized.add(remote.scope);
  }
  const factory = await container.get(module);
  return factory() as T;
}
