import { loadScriptWhenIdle } from '@uplift/platform';

/**
 * The Intercom Messenger's JavaScript API (an Intercom-compatible messenger
 * takes the same calls): `Intercom('boot' | 'update' | 'shutdown' | 'show', …)`.
 * Calls made before the script has arrived wait in `Intercom.q`, which the
 * script drains when it loads, exactly as Intercom's own snippet does.
 */
type IntercomApi = ((...args: unknown[]) => void) & { q?: unknown[][] };

declare global {
  interface Window {
    Intercom?: IntercomApi;
  }
}

/** Where the messenger's script comes from for an app id. */
export const messengerScriptUrl = (appId: string): string =>
  `https://widget.intercom.io/widget/${encodeURIComponent(appId)}`;

export interface BootSettings {
  name?: string;
  email: string;
}

/** The calls the support chat makes; a fake stands in for it in unit tests. */
export interface Messenger {
  boot(settings: BootSettings): void;
  update(): void;
  shutdown(): void;
  /** Opens the messenger; false when its script could not be loaded. */
  show(): boolean;
}

/** The messenger in the page: the script is fetched lazily, on the first boot. */
export function createIntercomMessenger(appId: string): Messenger {
  let state: 'idle' | 'loading' | 'ready' | 'failed' = 'idle';

  const call = (...args: unknown[]) => {
    if (!window.Intercom) {
      const queued: IntercomApi = (...queuedArgs: unknown[]) => {
        queued.q!.push(queuedArgs);
      };
      queued.q = [];
      window.Intercom = queued;
    }
    window.Intercom(...args);
  };

  const load = () => {
    if (state !== 'idle') return;
    state = 'loading';
    void loadScriptWhenIdle(messengerScriptUrl(appId)).then((loaded) => {
      state = loaded ? 'ready' : 'failed';
    });
  };

  return {
    boot(settings) {
      call('boot', { app_id: appId, ...settings });
      load();
    },
    update() {
      call('update');
    },
    shutdown() {
      call('shutdown');
    },
    show() {
      if (state === 'failed' || state === 'idle') return false;
      call('show');
      return true;
    },
  };
}
