import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FindingJson } from '@uplift/platform';
import { renderWithProviders } from '@uplift/platform/testing';
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

  it("leads a finding about a page's images to the studio, on that page's product, in the owner's review only", async () => {
    const image: FindingJson = {
      id: 'f4',
      group: 'search',
      check: 'image-alt',
      title: 'Image without alt text',
      url: 'https://shop.test/products/anvil',
      element: '<img src="/anvil.jpg">',
    };
    renderWithProviders(<FindingsList findings={[image, findings[1]!]} studioLinks />);
    await userEvent.click(screen.getByRole('button', { name: /Image without alt text/ }));
    expect(screen.getByRole('link', { name: 'Make a studio photo' }).getAttribute('href')).toBe(
      '/studio?product=https%3A%2F%2Fshop.test%2Fproducts%2Fanvil',
    );
    await userEvent.click(screen.getByRole('button', { name: /Missing meta description/ }));
    expect(screen.getAllByRole('link', { name: 'Make a studio photo' })).toHaveLength(1);
  });

  it('has no studio link on the public score, which reviews anyone’s site', async () => {
    renderWithProviders(<FindingsList findings={[{ id: 'f4', group: 'search', check: 'image-alt', title: 'Image without alt text', url: 'https://x.test/' }]} />);
    await userEvent.click(screen.getByRole('button', { name: /Image without alt text/ }));
    expect(screen.queryByRole('link', { name: 'Make a studio photo' })).toBeNull();
  });
});

describe('FindingsList places', () => {
  it('shows one row for an issue found on several pages, each page inside it with its own fix', async () => {
    const uncompressed: FindingJson = {
      id: 'compression-1',
      group: 'speed',
      check: 'compression',
      title: '3 pages are sent uncompressed',
      url: 'https://shop.test/',
      element: 'HTML document, 3 KB, no Content-Encoding',
      fix: 'Turn on gzip.',
      pointsLost: 3,
      state: 'open',
      places: [
        { url: 'https://shop.test/', element: 'HTML document, 3 KB, no Content-Encoding' },
        { url: 'https://shop.test/pages/contact', element: 'HTML document, 1 KB, no Content-Encoding' },
        { url: 'https://shop.test/policies/refund-policy', element: 'HTML document, 1 KB, no Content-Encoding', fix: 'Its own fix.' },
      ],
    };
    render(<FindingsList findings={[uncompressed]} />);
    expect(screen.getAllByRole('button', { name: /sent uncompressed/ })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: /3 pages are sent uncompressed/ }));
    expect(screen.getByText('Found in 3 places')).toBeTruthy();
    const list = screen.getByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByRole('link', { name: 'https://shop.test/pages/contact' })).toBeTruthy();
    expect(within(list).getByText('Its own fix.')).toBeTruthy();
    expect(screen.queryByText('Page')).toBeNull();
  });

  it('shows no badge on an open finding, as every finding of a first review is', () => {
    render(<FindingsList findings={[{ id: 'f9', group: 'search', title: 'Page has no title', state: 'open', pointsLost: 5 }]} />);
    expect(screen.queryByText('New')).toBeNull();
    expect(screen.queryByText('Fixed')).toBeNull();
  });

  it('leads each page of an image finding to the studio on that page', async () => {
    const alt: FindingJson = {
      id: 'image-alt-1',
      group: 'search',
      check: 'image-alt',
      title: '2 images have no alt text on 2 pages',
      url: 'https://shop.test/',
      places: [
        { url: 'https://shop.test/', element: '<img src="/banner.jpg">' },
        { url: 'https://shop.test/products/anvil', element: '<img src="/anvil.jpg">' },
      ],
    };
    renderWithProviders(<FindingsList findings={[alt]} studioLinks />);
    await userEvent.click(screen.getByRole('button', { name: /no alt text on 2 pages/ }));
    expect(screen.getByRole('link', { name: 'Make a studio photo for https://shop.test/products/anvil' }).getAttribute('href')).toBe(
      '/studio?product=https%3A%2F%2Fshop.test%2Fproducts%2Fanvil',
    );
    expect(screen.getAllByRole('link', { name: /^Make a studio photo/ })).toHaveLength(2);
  });
});
