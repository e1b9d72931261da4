import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, configureHttp, forgetLoadedScripts, STRIPE_JS_URL } from '@uplift/platform';
import { fakeGateway, json, renderWithProviders } from '@uplift/platform/testing';
import {
  IDENTITY_CANCELED,
  IDENTITY_NEEDS_INPUT,
  IDENTITY_NEEDS_INPUT_NOTE,
  IDENTITY_NOT_VERIFIED,
  IDENTITY_SUBMITTED_MESSAGE,
  IDENTITY_VERIFIED,
  IdentityRow,
} from './identity-row';

const OUTCOME = 'GET /internal/billing/identityVerification';
const CREATE = 'POST /internal/billing/createIdentityVerification';
/** The recorded outcome the server answers with; tests change it as webhooks would. */
let recorded: { status: string; updateTime: string };
/** Sessions POST createIdentityVerification answers with, in turn. */
let sessions: Response[];

let api: ReturnType<typeof fakeGateway>;

beforeEach(() => {
  recorded = { status: '', updateTime: '' };
  sessions = [];
  api = fakeGateway({
    [OUTCOME]: () => json(recorded),
    [CREATE]: () => sessions.shift() ?? json({ id: 'vs_1', clientSecret: 'vs_1_secret_x' }),
  });
  configureHttp({ baseUrl: 'http://gw.test/' });
});
const creates = () => api.calls(CREATE);
afterEach(() => {
  vi.unstubAllGlobals();
  delete window.Stripe;
  forgetLoadedScripts();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

function renderRow(stripePublishableKey?: string, fakeTimers = false) {
  renderRowWithUnmount(stripePublishableKey);
  return userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {});
}

function renderRowWithUnmount(stripePublishableKey?: string) {
  return renderWithProviders(
    <dl>
      <IdentityRow userId="u1" />
    </dl>,
    { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }), widgets: { stripePublishableKey } },
  );
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
    sessions.push(json({ id: 'vs_1', clientSecret: 'vs_1_secret_x', url: '' }));
    const verify = vi.fn(async () => ({}));
    const keys = stripeJsLoads(verify);
    const user = renderRow('pk_test_demo');
    expect(document.querySelector(`script[src="${STRIPE_JS_URL}"]`)).toBeNull(); // not before it is asked for

    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    expect(await screen.findByText(IDENTITY_SUBMITTED_MESSAGE)).toBeTruthy();
    const [init] = creates();
    // A hosted page would lead back here, with Account Settings opened again.
    const returnUrl = new URL(JSON.parse(String(init?.body)).returnUrl);
    expect(returnUrl.origin).toBe(window.location.origin);
    expect(returnUrl.searchParams.get('identity')).toBe('returned');
    expect(keys).toEqual(['pk_test_demo']);
    expect(verify).toHaveBeenCalledWith('vs_1_secret_x');
  });

  it('says nothing when the person closes the modal, and shows Stripe’s message on failure', async () => {
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
    sessions.push(json({ message: 'Identity verification is not available right now. Please try again later.' }, 400));
    const user = renderRow('pk_test_demo');
    await user.click(screen.getByRole('button', { name: 'Verify your identity' }));
    expect(await screen.findByText('Identity verification is not available right now. Please try again later.')).toBeTruthy();
    expect(document.querySelector(`script[src="${STRIPE_JS_URL}"]`)).toBeNull();
  });

  it('shows the recorded outcome: verified, needs more information with a retry, cancelled', async () => {
    recorded = { status: 'verified', updateTime: '2026-03-08T06:59:59Z' };
    const { unmount } = renderRowWithUnmount('pk_test_demo');
    expect(await screen.findByText(IDENTITY_VERIFIED)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull(); // nothing left to do
    unmount();

    recorded = { status: 'requires_input', updateTime: '2026-03-08T07:00:00Z' };
    const second = renderRowWithUnmount('pk_test_demo');
    expect(await screen.findByText(IDENTITY_NEEDS_INPUT)).toBeTruthy();
    expect(screen.getByText(IDENTITY_NEEDS_INPUT_NOTE)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    second.unmount();

    recorded = { status: 'canceled', updateTime: '2026-11-01T05:30:00Z' };
    renderRowWithUnmount('pk_test_demo');
    expect(await screen.findByText(IDENTITY_CANCELED)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Verify your identity' })).toBeTruthy();
  });

  it('after a submission, asks again until Stripe’s outcome arrives, then shows it', async () => {
    recorded = { status: 'requires_input', updateTime: '2026-03-08T07:00:00Z' };
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      stripeJsLoads(vi.fn(async () => ({})));
      const user = renderRow('pk_test_demo', true);
      await user.click(await screen.findByRole('button', { name: 'Try again' }));
      expect(await screen.findByText(IDENTITY_SUBMITTED_MESSAGE)).toBeTruthy();
      // The old outcome is not shown as the answer to the new submission.
      expect(screen.queryByText(IDENTITY_NEEDS_INPUT)).toBeNull();
      expect(screen.getByText(IDENTITY_NOT_VERIFIED)).toBeTruthy();
      const asked = () => api.calls(OUTCOME).length;
      const before = asked();
      await vi.advanceTimersByTimeAsync(5000);
      await vi.waitFor(() => expect(asked()).toBeGreaterThan(before));

      recorded = { status: 'verified', updateTime: '2026-03-08T07:03:00Z' };
      await vi.advanceTimersByTimeAsync(5000);
      expect(await screen.findByText(IDENTITY_VERIFIED)).toBeTruthy();
      expect(screen.queryByText(IDENTITY_SUBMITTED_MESSAGE)).toBeNull();
      const settled = asked();
      await vi.advanceTimersByTimeAsync(15000);
      expect(asked()).toBe(settled); // polling stopped
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the hosted page of a session without a client secret (the local test stack’s stand-in)', async () => {
    const goTo = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    sessions.push(json({ id: 'vs_1', url: 'http://127.0.0.1:9203/test-identity/tok' }));
    const user = renderRow('pk_test_demo');
    await user.click(await screen.findByRole('button', { name: 'Verify your identity' }));
    await vi.waitFor(() => expect(goTo).toHaveBeenCalledWith('http://127.0.0.1:9203/test-identity/tok'));
    expect(document.querySelector(`script[src="${STRIPE_JS_URL}"]`)).toBeNull(); // no modal, no Stripe.js
    expect(screen.queryByText(IDENTITY_SUBMITTED_MESSAGE)).toBeNull(); // nothing promised before the outcome
    goTo.mockRestore();
  });
});
