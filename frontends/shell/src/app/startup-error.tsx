/** Shown instead of the app when it cannot start (e.g. invalid configuration). */
export function StartupError({ message }: { message: string }) {
  return (
    <main className="u-page">
      <p role="alert" className="u-alert">
        {message}
      </p>
    </main>
  );
}
