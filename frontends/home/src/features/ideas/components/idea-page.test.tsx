import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { fakeGateway, json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { IdeaPage } from './idea-page';


beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('IdeaPage', () => {
  it('shows every field of the idea', async () => {
    fakeGateway({
      'GET /internal/users/u1': () => json({ categoryId: 'cat1' }),
      'GET /internal/categories/cat1/business-data/ideas/idea1': () =>
        json({
          id: 'idea1',
          title: 'Anvil Week',
          whyNow: 'Spring projects start in March.',
          channel: 'Email',
          subjectLine: 'Your spring anvil is here',
          body: 'Hi there,\nour anvils are 10% off.',
          products: ['Classic Anvil', 'Mini Anvil'],
          timing: 'Send Tuesday 9am',
          createTime: '2026-03-01T09:00:00Z',
        }),
    });
    renderWithProviders(<IdeaPage />, { path: '/ideas/idea1', route: 'ideas/:ideaId', session: signedInAs('u1') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Anvil Week' })).toBeTruthy();
    for (const text of ['Spring projects start in March.', 'Email', 'Your spring anvil is here', 'Send Tuesday 9am', 'Classic Anvil', 'Mini Anvil']) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    expect(screen.getByText(/our anvils are 10% off/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
  });

  it.each([
    ['email', 'Email', 'Subject line', 'Email text'],
    ['social', 'Social post', 'Opening line', 'Post text'],
    ['ads', 'Ad', 'Headline', 'Ad text'],
    ['onsite', 'On your website', 'Headline', 'Copy'],
  ])('labels an idea for %s in its own words: only an email has a subject line', async (channel, name, lead, copy) => {
    fakeGateway({
      'GET /internal/users/u1': () => json({ categoryId: 'cat1' }),
      'GET /internal/categories/cat1/business-data/ideas/idea2': () =>
        json({ id: 'idea2', title: 'Countdown to Christmas', channel, subjectLine: 'Christmas is coming', body: 'Shop now', timing: 'Two posts' }),
    });
    renderWithProviders(<IdeaPage />, { path: '/ideas/idea2', route: 'ideas/:ideaId', session: signedInAs('u1') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Countdown to Christmas' })).toBeTruthy();
    expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getByText(lead).nextElementSibling?.textContent).toBe('Christmas is coming');
    expect(screen.getByRole('heading', { level: 2, name: copy })).toBeTruthy();
    if (channel !== 'email') expect(screen.queryByText('Subject line')).toBeNull();
  });
});
