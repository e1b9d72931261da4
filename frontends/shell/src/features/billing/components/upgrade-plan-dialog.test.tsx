import type { ReactNode } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  browser,
  Toaster,
  configureHttp,
  parseEnv,
  type SubscriptionTiersJson,
  type UserJson,
} from '@uplift/platform';
import { fakeGateway, json, renderWithProviders, signedInAs, type GatewayRoute } from '@uplift/platform/testing';
import { EnvProvider } from '../../../lib/env-context';
import { createQueryClient } from '../../../lib/query-client';
import { UpgradePlanDialog } from './upgrade-plan-dialog';

const tiers: SubscriptionTiersJson = {
  pro: {
    name: 'Pro',
    sortOrder: 2,
    prices: { monthly: { amount: 2900, stripeId: 'price_pro' } },
    included: ['Unlimited downloads', 'Background removal'],
    comingSoon: ['Product images into ads'],
  },
  free: { name: 'Free', sortOrder: 1, prices: { monthly: { amount: 0 } } },
  secret: { name: 'Secret', sortOrder: 0, hidden: true, prices: { monthly: { amount: 100, stripeId: 'price_s' } } },
};

const session = signedInAs('u1');

/** A fake gateway with the tiers, the user and their profile, and `extra` routes. */
function gateway(user: UserJson, extra: Record<string, GatewayRoute> = {}) {
  return fakeGateway({
    'GET /internal/billing/metricsSubscriptionTiers': () => json(tiers),
    'GET /internal/users/u1': () => json(user),
    'GET /internal/users/u1/profile': () => json({ categoryId: 'cat1', originalCategoryId: 'cat1' }),
    ...extra,
  });
}

function renderDialog(name = 'Upgrade plan') {
  const env = parseEnv({ skipEnvValidation: 'true', supportUrl: 'mailto:help@example.com' });
  renderWithProviders(
    <>
      <UpgradePlanDialog open onClose={() => {}} />
      <Toaster />
    </>,
    { session, queryClient: createQueryClient(), wrapper: ({ children }: { children: ReactNode }) => <EnvProvider env={env}>{children}</EnvProvider> },
  );
  return screen.getByRole('dialog', { name });
}

const card = async (name: string) => screen.findByRole('region', { name });

describe('UpgradePlanDialog', () => {
  let assign: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    configureHttp({ baseUrl: 'http://gateway.test/' });
    assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    vi.spyOn(browser, 'currentUrl').mockReturnValue('http://app.test/analytics');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists visible tiers in order, with price, lists and Current Plan on free', async () => {
    gateway({ id: 'u1', email: 'jane@example.com', categoryId: 'cat1', billingInfo: undefined });
    renderDialog();
    const free = await card('Free');
    const regions = screen.getAllByRole('region').map((region) => within(region).getByRole('heading', { level: 3 }).textContent);
    expect(regions).toEqual(['Free', 'Pro']);
    expect(screen.queryByText('Secret')).toBeNull();

    expect(within(free).getByRole('button', { name: 'Current Plan' })).toHaveProperty('disabled', true);
    const pro = await card('Pro');
    expect(pro.textContent).toContain('$29 per month');
    expect(within(free).getByText('$0').parentElement?.textContent).toBe('$0 per month');
    expect(within(pro).getByRole('button', { name: 'Upgrade' })).toHaveProperty('disabled', false);
    expect(within(pro).getByRole('list', { name: "What's included" }).textContent).toContain('Background removal');
    expect(within(pro).getByRole('list', { name: 'Coming soon' }).textContent).toContain('Product images into ads');
    expect(screen.queryByRole('link', { name: 'Manage subscription' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Contact us' })).toBeNull();
  });

  it('says what stays free, leads to the Studio it sells, and has a visible Close', async () => {
    gateway({ id: 'u1', email: 'jane@example.com', categoryId: 'cat1' });
    const dialog = renderDialog();
    await card('Pro');
    expect(within(dialog).getByText(/^Always free, on every plan: your website review, the weekly and daily reports/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Studio' }).getAttribute('href')).toBe('/studio');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it("is 'Your plan' for a paying user", async () => {
    gateway({ id: 'u1', email: 'jane@example.com', categoryId: 'cat1', billingInfo: { tier: 'pro' } });
    renderDialog('Upgrade plan');
    expect(await screen.findByRole('dialog', { name: 'Your plan' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Upgrade plan' })).toBeNull();
  });

  it('creates a checkout, disables Upgrade while redirecting and goes to its URL', async () => {
    let release: (response: Response) => void = () => {};
    const api = gateway(
      { id: 'u1', email: 'jane@example.com', categoryId: 'cat1' },
      {
        'POST /internal/categories/cat1/createStripeCheckout': () =>
          new Promise<Response>((resolve) => {
            release = resolve;
          }),
      },
    );
    renderDialog();
    const pro = await card('Pro');
    await userEvent.click(within(pro).getByRole('button', { name: 'Upgrade' }));

    await waitFor(() => expect(within(pro).getByRole('button', { name: 'Upgrade' })).toHaveProperty('disabled', true));
    const body = JSON.parse(String(api.calls('POST /internal/categories/cat1/createStripeCheckout')[0]?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      priceId: 'price_pro',
      customerEmail: 'jane@example.com',
      freeTrial: false,
      successUrl: 'http://app.test/analytics?checkout=success',
      cancelUrl: 'http://app.test/analytics',
      forMetricsProduct: true,
    });
    expect(body.referralId).toMatch(/^checkout_\d+$/);

    release(json({ url: 'https://checkout.test/session' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.test/session'));
    // Still leaving: no second checkout can start.
    expect(within(pro).getByRole('button', { name: 'Upgrade' })).toHaveProperty('disabled', true);
  });

  it('shows a failed checkout in the error toast and re-enables Upgrade', async () => {
    gateway(
      { id: 'u1', email: 'jane@example.com', categoryId: 'cat1' },
      { 'POST /internal/categories/cat1/createStripeCheckout': () => json({ message: 'Stripe is down' }, 501) },
    );
    renderDialog();
    const pro = await card('Pro');
    await userEvent.click(within(pro).getByRole('button', { name: 'Upgrade' }));
    // One toast only: the global soft-error toast is switched off for this call.
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toEqual(['Stripe is down']);
    await waitFor(() => expect(within(pro).getByRole('button', { name: 'Upgrade' })).toHaveProperty('disabled', false));
    expect(assign).not.toHaveBeenCalled();
  });

  it('uses the profile category when the user record has none', async () => {
    gateway(
      { id: 'u1', email: 'jane@example.com' },
      { 'POST /internal/categories/cat1/createStripeCheckout': () => json({ url: 'https://checkout.test/2' }) },
    );
    renderDialog();
    await userEvent.click(within(await card('Pro')).getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.test/2'));
  });

  it("moves Current Plan to a paid tier and offers 'Manage subscription' (the portal)", async () => {
    const api = gateway(
      { id: 'u1', email: 'jane@example.com', categoryId: 'cat1', billingInfo: { tier: 'pro' } },
      { 'POST /internal/categories/cat1/createStripeCustomerPortal': () => json({ url: 'https://portal.test/x' }) },
    );
    renderDialog();
    const pro = await card('Pro');
    expect(within(pro).getByRole('button', { name: 'Current Plan' })).toHaveProperty('disabled', true);
    // Free has no Stripe price: downgrading goes through the portal.
    expect(within(await card('Free')).getByRole('button', { name: 'Upgrade' })).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('link', { name: 'Manage subscription' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://portal.test/x'));
    const [portal] = api.calls('POST /internal/categories/cat1/createStripeCustomerPortal');
    expect(JSON.parse(String(portal?.body))).toEqual({ redirectUrl: 'http://app.test/analytics' });
  });

  it("shows only the manually set tier, with 'Contact us' to manage subscription", async () => {
    gateway({ id: 'u1', categoryId: 'cat1', billingInfo: { tier: 'pro', isManuallySet: true } });
    const dialog = renderDialog();
    const pro = await card('Pro');
    expect(screen.getAllByRole('region')).toHaveLength(1);
    expect(within(pro).getByRole('button', { name: 'Current Plan' })).toHaveProperty('disabled', true);
    const contact = within(dialog).getByRole('link', { name: 'Contact us' });
    expect(contact.getAttribute('href')).toBe('mailto:help@example.com');
    expect(contact.parentElement?.textContent).toBe('Contact us to manage subscription');
    expect(screen.queryByRole('link', { name: 'Manage subscription' })).toBeNull();
  });
});
