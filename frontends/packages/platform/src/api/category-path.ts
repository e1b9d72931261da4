/** `internal/categories/{categoryId}/{rest}`, with the id escaped once here. */
export function categoryPath(categoryId: string, rest: string): string {
  return `internal/categories/${encodeURIComponent(categoryId)}/${rest}`;
}
