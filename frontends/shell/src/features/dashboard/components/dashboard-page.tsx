/** /dashboard, for uplifters. The tools themselves come in a later issue. */
export function DashboardPage() {
  return (
    <main className="u-page">
      <h1>Dashboard</h1>
      <p>Tools for acting on behalf of other users will appear here.</p>
    </main>
  );
}
