/** Full page loads, behind a function so tests can observe them (jsdom cannot navigate). */
export function reloadTo(path: string): void {
  window.location.assign(path);
}
