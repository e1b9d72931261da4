import { Button } from '@uplift/platform';
import type { ConsentChoice } from '../lib/consent';

/**
 * A small banner under the top bar, in the page's flow (it covers nothing),
 * until the visitor chooses. The choice is remembered in this browser.
 */
export function ConsentBanner({ onChoose }: { onChoose: (choice: ConsentChoice) => void }) {
  return (
    <section className="consent-banner" aria-label="Analytics consent">
      <p>
        May Uplift use analytics cookies to learn which features help store owners? Nothing is sent unless you
        allow it.
      </p>
      <div className="consent-banner__actions">
        <Button variant="secondary" onClick={() => onChoose('denied')}>
          No thanks
        </Button>
        <Button onClick={() => onChoose('granted')}>Allow analytics</Button>
      </div>
    </section>
  );
}
