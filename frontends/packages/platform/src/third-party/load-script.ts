/**
 * Third-party scripts (support chat, analytics, review and identity widgets)
 * are never part of the first-load bundle: each is added as an async script
 * tag once the page has loaded and the browser is idle, so none of them can
 * delay the first paint, and a blocked or offline host only rejects a promise.
 */

const loading = new Map<string, Promise<void>>();

/**
 * Loads `src` once (later calls share the first load). Rejects when the
 * script cannot be fetched; the tag is removed then, so a later call retries.
 */
export function loadScript(src: string): Promise<void> {
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.async = true;
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => {
      loading.delete(src);
      script.remove();
      reject(new Error(`Could not load ${src}`));
    };
    document.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
}

/** Forgets every load (tests start from a page that has loaded nothing). */
export function forgetLoadedScripts(): void {
  loading.clear();
}

/** Resolves once the page has loaded and the browser has a moment to spare. */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: 2_000 });
      else setTimeout(resolve, 1);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

/** loadScript after the first paint; never rejects (failures are logged once, quietly). */
export async function loadScriptWhenIdle(src: string): Promise<boolean> {
  await whenIdle();
  try {
    await loadScript(src);
    return true;
  } catch (error) {
    console.info(error instanceof Error ? error.message : String(error));
    return false;
  }
}
