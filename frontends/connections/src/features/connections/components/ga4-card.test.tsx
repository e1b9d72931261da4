import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, configureHttp } from '@uplift/platform';
import { json } from '@uplift/platform/testing';
import { CONNECTIONS, gateway, renderPage } from './connections-test-kit';

const GA4 = '/internal/categories/cat1/connections/ga4';

describe('Google Analytics 4 card', () => {
  let assign: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    configureHttp({ baseUrl: 'http://gateway.test/' });
    assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('connects with Google: the browser goes to the gateway route that leads to Google', async () => {
    gateway({
      [CONNECTIONS]: () => json({}),
      [`POST ${GA4}`]: () => json({ redirectUrl: 'http://api.test/connections/ga4/authorize?state=s1' }),
    });
    renderPage();
    const card = await screen.findByRole('region', { name: 'Google Analytics 4' });
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Connect with Google' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://api.test/connections/ga4/authorize?state=s1'));
  });

  it('lists the properties after consent and picks one', async () => {
    let picked: unknown;
    gateway({
      [CONNECTIONS]: () => json({ ga4: { status: 'PICK_PROPERTY' } }),
      [`GET ${GA4}/properties`]: () =>
        json({
          properties: [
            { propertyId: '420000001', displayName: 'fernhilltea.example - GA4', accountName: 'Fernhill Tea Co.' },
            { propertyId: '420000002', displayName: 'Fernhill staging', accountName: 'Fernhill Tea Co.' },
          ],
        }),
      [`POST ${GA4}/property`]: (init) => {
        picked = JSON.parse(String(init?.body));
        return json({ ga4: { status: 'CONNECTED', propertyId: '420000001' } });
      },
    });
    renderPage('/connections?ga4=connected');
    expect(await screen.findByText('Google Analytics 4 is connected. Pick your store\u2019s property below.')).toBeTruthy();
    const card = await screen.findByRole('region', { name: 'Google Analytics 4' });
    const user = userEvent.setup();
    await user.click(await within(card).findByRole('radio', { name: /fernhilltea\.example - GA4/ }));
    await user.click(within(card).getByRole('button', { name: 'Use this property' }));
    await waitFor(() => expect(picked).toEqual({ propertyId: '420000001' }));
  });

  it('says plainly when the Google account has no properties', async () => {
    gateway({ [CONNECTIONS]: () => json({ ga4: { status: 'PICK_PROPERTY' } }), [`GET ${GA4}/properties`]: () => json({}) });
    renderPage();
    expect(await screen.findByText(/This Google account has no Google Analytics 4 properties\./)).toBeTruthy();
  });

  it("shows the property, GA4's flags and the quota, and asks to reconnect once Google refuses the token", async () => {
    gateway({
      [CONNECTIONS]: () =>
        json({
          ga4: {
            status: 'CONNECTED',
            propertyId: '420000001',
            propertyName: 'fernhilltea.example - GA4',
            sampled: true,
            thresholded: true,
            error: "Google Analytics' request quota for this property is used up; Uplift will read it again after 08:01 UTC.",
          },
        }),
    });
    const page = renderPage();
    const card = await screen.findByRole('region', { name: 'Google Analytics 4' });
    expect(within(card).getByText('fernhilltea.example - GA4')).toBeTruthy();
    expect(within(card).getByText(/data is sampled/)).toBeTruthy();
    expect(within(card).getByText(/data is thresholded/)).toBeTruthy();
    expect(within(card).getByText(/quota for this property is used up/)).toBeTruthy();
    page.unmount();

    gateway({ [CONNECTIONS]: () => json({ ga4: { status: 'REAUTHORIZE', error: 'Google no longer accepts it. Reconnect to go on.' } }) });
    renderPage();
    const again = await screen.findByRole('region', { name: 'Google Analytics 4' });
    expect(within(again).getByRole('button', { name: 'Reconnect' })).toBeTruthy();
  });
});
