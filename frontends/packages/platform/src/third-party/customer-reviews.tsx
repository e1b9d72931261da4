import { useEffect, useRef, useState } from 'react';
import { loadScriptWhenIdle } from './load-script';
import { useWidgetSettings } from './widget-settings';

/**
 * The customer reviews widget: Trustpilot's TrustBox for the configured
 * business unit and template. Its script is fetched only when the widget
 * comes near the screen; if it cannot be (offline, blocked), the section
 * disappears instead of leaving an empty box.
 */
export const TRUSTBOX_SCRIPT_URL = 'https://widget.trustpilot.com/bootstrap/v5/tp.widget.bootstrap.min.js';

declare global {
  interface Window {
    Trustpilot?: { loadFromElement(element: HTMLElement, forceReload?: boolean): void };
  }
}

export function CustomerReviews({ title = 'What store owners say' }: { title?: string }) {
  const { reviews } = useWidgetSettings();
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!reviews || !element) return;
    let cancelled = false;
    const start = () =>
      void loadScriptWhenIdle(TRUSTBOX_SCRIPT_URL).then((loaded) => {
        if (cancelled) return;
        if (loaded && window.Trustpilot) window.Trustpilot.loadFromElement(element, true);
        else setFailed(true);
      });
    if (!('IntersectionObserver' in window)) {
      start();
      return () => {
        cancelled = true;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        start();
      },
      { rootMargin: '100px' },
    );
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [reviews]);

  if (!reviews || failed) return null;
  return (
    <section className="u-card" aria-label="Customer reviews">
      <h2>{title}</h2>
      <div
        ref={box}
        className="trustpilot-widget"
        data-locale="en-US"
        data-template-id={reviews.templateId}
        data-businessunit-id={reviews.businessUnitId}
        data-style-height="240px"
        data-style-width="100%"
      />
    </section>
  );
}
