import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FindingJson } from '@uplift/platform';
import { FindingsList } from './findings-list';

const findings: FindingJson[] = [
  {
    id: 'f1',
    group: 'trust',
    check: 'returns_page',
    title: 'No returns policy page',
    url: 'https://shop.test/',
    element: 'footer nav',
    why: 'Shoppers check returns before buying.',
    fix: 'Add a /returns page and link it from the footer.',
    pointsLost: 4,
    state: 'new',
  },
  { id: 'f2', group: 'search', check: 'meta_description', title: 'Missing meta description', pointsLost: 6, state: 'open' },
  { id: 'f3', group: 'search', check: 'title', title: 'Page title too short', pointsLost: 0, state: 'fixed' },
];

describe('FindingsList', () => {
  it('groups findings (search before trust) with new/fixed badges and points lost', () => {
    render(<FindingsList findings={findings} />);
    const groups = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(groups).toEqual(['Search', 'Trust']);
    const search = screen.getByRole('region', { name: 'Search' });
    expect(within(search).getByText('Fixed')).toBeTruthy();
    expect(within(search).getByText('−6 pts')).toBeTruthy();
    const trust = screen.getByRole('region', { name: 'Trust' });
    expect(within(trust).getByText('New')).toBeTruthy();
  });

  it('expands a finding to show why, the fix, the URL and the element', async () => {
    render(<FindingsList findings={findings} />);
    const toggle = screen.getByRole('button', { name: /No returns policy page/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Shoppers check returns before buying.')).toBeNull();
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Shoppers check returns before buying.')).toBeTruthy();
    expect(screen.getByText('Add a /returns page and link it from the footer.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'https://shop.test/' }).getAttribute('href')).toBe('https://shop.test/');
    expect(screen.getByText('footer nav').tagName).toBe('CODE');
    await userEvent.click(toggle);
    expect(screen.queryByText('Shoppers check returns before buying.')).toBeNull();
  });

  it('says so when there is nothing to fix', () => {
    render(<FindingsList findings={[]} />);
    expect(screen.getByText(/every check passed/)).toBeTruthy();
  });
});
