/** A full page load, behind a function so tests can observe it (jsdom cannot navigate). */
export function reloadTo(path: string): void {
  window.location.assign(path);
}
