import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, forgetLoadedScripts, STRIPE_JS_URL, WidgetSettingsProvider } from '@uplift/platform';
import { IDENTITY_SUBMITTED_MESSAGE, IdentityRow } from './identity-row';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureHttp({ baseUrl: 'http://gw.test/' });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  delete window.Stripe;
  forgetLoadedScripts();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

function renderRow(stripePublishableKey?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WidgetSettingsProvider value={{ stripePublishableKey }}>
        <dl>
          <IdentityRow />
        </dl>
      </WidgetSettingsProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

/** Stripe.js as the page would get it once its script tag loads. */
function stripeJsLoads(verifyIdentity: (secret: string) => Promise<{ error?: { code?: string; message?: string } }>) {
  const keys: string[] = [];
  const observer = new MutationObserver(() => {
    const script = document.head.querySelector<HTMLScriptElement>(`script[src="${STRIPE_JS_URL}"]`);
    if (!script) return;
    observer.disconnect();
    window.Stripe = (key: string) => {
      keys.push(key);
      return { verifyIdentity };
    };
    script.dispatchEvent(new Event('load'));
  });
  observer.observe(document.head, { childList: true });
  return keys;
}

describe('IdentityRow', () => {
  it('is not shown without the widget setting', () => {
    renderRow(undefined);
    expect(screen.queryByText('Identity')).toBeNull();
  });

  it("opens Stripe's modal with the server's session and thanks the person once submitted", async () => {
    fetchMock.mockResolvedValueOnce(json({ id: 'vs_1', clientSecret: 'vs_1_secret_x', url: '' }));
    const verify = vi.fn(async () => ({}));
    const keys = stripeJsLoads(verify);
    const user = renderRow('pk_test_demo');
    expect(document.querySelector(`script[src="${STRIPE_JS_URL}"]`)).toBeNull(); // not before it is asked for

    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    expect(await screen.findByText(IDENTITY_SUBMITTED_MESSAGE)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://gw.test/internal/billing/createIdentityVerification');
    expect(init?.method).toBe('POST');
    expect(keys).toEqual(['pk_test_demo']);
    expect(verify).toHaveBeenCalledWith('vs_1_secret_x');
  });

  it('says nothing when the person closes the modal, and shows Stripe’s message on failure', async () => {
    fetchMock.mockImplementation(async () => json({ id: 'vs_1', clientSecret: 'vs_1_secret_x' }));
    const verify = vi
      .fn()
      .mockResolvedValueOnce({ error: { code: 'session_cancelled', message: 'cancelled' } })
      .mockResolvedValueOnce({ error: { code: 'consent_declined', message: 'You declined to share your ID.' } });
    stripeJsLoads(verify);
    const user = renderRow('pk_test_demo');
    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    await vi.waitFor(() => expect(verify).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(IDENTITY_SUBMITTED_MESSAGE)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    expect(await screen.findByText('You declined to share your ID.')).toBeTruthy();
  });

  it("shows the server's message when no session can be started", async () => {
    fetchMock.mockResolvedValueOnce(
      json({ message: 'Identity verification is not available right now. Please try again later.' }, 400),
    );
    const user = renderRow('pk_test_demo');
    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    expect(await screen.findByText('Identity verification is not available right now. Please try again later.')).toBeTruthy();
    expect(document.querySelector(`script[src="${STRIPE_JS_URL}"]`)).toBeNull();
  });
});
