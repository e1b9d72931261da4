/**
 * Holds the current Firebase ID token for the HTTP client. The shell writes it
 * on every auth change; the platform package is a federation singleton, so
 * remotes read the same store.
 */
type Listener = (token: string | null) => void;

let current: string | null = null;
const listeners = new Set<Listener>();

export const tokenStore = {
  get: (): string | null => current,
  set(token: string | null): void {
    current = token;
    listeners.forEach((listener) => listener(token));
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
