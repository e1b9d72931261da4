export function Spinner({ label }: { label?: string }) {
  return label ? (
    <span role="status" aria-label={label} className="u-spinner" />
  ) : (
    <span aria-hidden="true" className="u-spinner" />
  );
}
