import { usePageTitle } from '@uplift/platform';

/** The Connections page. Its content is built in a later issue; until then it says what will be here. */
export function ConnectionsPage() {
  usePageTitle('Connections');
  return (
    <main className="u-page">
      <h1>Connections</h1>
      <p>Connecting your store and other services will be possible here.</p>
    </main>
  );
}
