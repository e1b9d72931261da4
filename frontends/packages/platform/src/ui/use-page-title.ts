import { useEffect } from 'react';

/** Lets a page set the document title ('Analytics · Uplift'); restores the previous one on leave. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} · Uplift`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
