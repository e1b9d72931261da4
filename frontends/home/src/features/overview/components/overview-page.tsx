import { usePageTitle } from '@uplift/platform';

/** The Home page. Its content is built in a later issue; until then it says what will be here. */
export function HomePage() {
  usePageTitle('Home');
  return (
    <main className="u-page">
      <h1>Home</h1>
      <p>Your website review, business report and campaign ideas will appear here.</p>
    </main>
  );
}
