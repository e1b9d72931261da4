import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { describedBy, fakeGateway, json, renderWithProviders, type Rendered } from '@uplift/platform/testing';
import { RATE_LIMITED_MESSAGE, UNREADABLE_FALLBACK_MESSAGE } from '../lib/score-error';
import { WebsiteScorePage } from './website-score-page';


let page: Rendered;

const SCORE = 'GET /internal/website-score';

function renderAt(path: string, answer: (url: string) => Response) {
  const api = fakeGateway({ [SCORE]: (_init, url) => answer(url.searchParams.get('url') ?? '') });
  page = renderWithProviders(<WebsiteScorePage />, { path, route: 'website-score', routes: { '*': null } });
  return api;
}

const field = () => screen.getByLabelText('Website URL');

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('WebsiteScorePage', () => {
  it('scores the url from the address, signed out, and shows band and findings', async () => {
    const api = renderAt('/website-score?url=https://shop.test', () =>
      json({
        url: 'https://shop.test',
        score: 3,
        band: 'poor',
        checks: [{ check: 'https', group: 'trust', weight: 10, earned: 0 }],
        findings: [{ id: 'f1', group: 'trust', title: 'Not served over HTTPS', pointsLost: 10 }],
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Score for https://shop.test' })).toBeTruthy();
    expect(document.querySelector('.score--poor')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Not served over HTTPS/ })).toBeTruthy();
    expect(api.calls(SCORE)[0]?.headers).toMatchObject({ Authorization: 'Bearer unauthed' });
  });

  it('submits the form into the address', async () => {
    renderAt('/website-score', () => json({ url: 'https://a.test', score: 80, band: 'high' }));
    await userEvent.type(screen.getByLabelText('Website URL'), 'https://a.test');
    await userEvent.click(screen.getByRole('button', { name: 'Score my website' }));
    expect(page.location()).toBe('/website-score?url=https%3A%2F%2Fa.test');
    expect(await screen.findByRole('heading', { name: 'Score for https://a.test' })).toBeTruthy();
  });

  it('explains a rate limit (429)', async () => {
    renderAt('/website-score?url=https://a.test', () => json({ message: 'too many requests' }, 429));
    expect((await screen.findByRole('alert')).textContent).toBe(RATE_LIMITED_MESSAGE);
    // Not the address's fault: the field stays valid.
    expect(field().hasAttribute('aria-invalid')).toBe(false);
  });

  it("shows the server's message for an unreadable site (400), with a fallback", async () => {
    renderAt('/website-score?url=http://127.0.0.1:1/', () =>
      json({ message: 'Something went wrong. Please ensure the website url is properly formatted and try again.' }, 400),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong. Please ensure the website url is properly formatted and try again.',
    );
    // The address was refused: the message is the URL field's error.
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(field())).toEqual(['Something went wrong. Please ensure the website url is properly formatted and try again.']);
  });

  it('falls back when a 400 carries no message', async () => {
    renderAt('/website-score?url=nope', () => json({}, 400));
    expect((await screen.findByRole('alert')).textContent).toBe(UNREADABLE_FALLBACK_MESSAGE);
  });

  it('invites visitors to sign up for weekly reviews', async () => {
    renderAt('/website-score', () => json({}));
    const link = screen.getByRole('link', { name: 'Sign up for weekly reviews' });
    expect(link.getAttribute('href')).toBe('/?requireSignup=true');
    await userEvent.click(link);
    expect(page.location()).toBe('/?requireSignup=true');
  });

  it('carries the scored website to sign-up, so it is saved after', async () => {
    renderAt('/website-score?url=https%3A%2F%2Fshop.example%2F', () => json({ url: 'https://shop.example/', score: 60 }));
    const link = screen.getByRole('link', { name: 'Sign up for weekly reviews' });
    expect(link.getAttribute('href')).toBe('/?requireSignup=true&siteUrl=https%3A%2F%2Fshop.example%2F');
  });
});
