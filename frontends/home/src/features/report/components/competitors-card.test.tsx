import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CompetitorsCard } from './competitors-card';

describe('CompetitorsCard', () => {
  it('puts each competitor beside the store with where it wins, or why it was not read', () => {
    render(
      <CompetitorsCard
        score={58}
        band="medium"
        competitors={[
          { siteUrl: 'https://rival.test/', reviewed: true, score: 74, band: 'high', wins: ['search', 'trust'] },
          { siteUrl: 'https://behind.test/', reviewed: true, score: 40, band: 'medium', wins: [] },
          { siteUrl: 'https://gone.test/', reviewed: false, errorMessage: 'We could not read this website when your review ran.' },
        ]}
      />,
    );
    const table = screen.getByRole('region', { name: 'Your competitors' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'WebsiteScoreBandWhere they beat you',
      'Your website58/100medium—',
      'rival.test74/100highSearch, Trust',
      'behind.test40/100mediumNowhere: you match or beat them',
      'gone.testWe could not read this website when your review ran.',
    ]);
  });

  it('shows nothing when the business has no competitors', () => {
    const { container } = render(<CompetitorsCard score={58} band="medium" competitors={[]} />);
    expect(container.textContent).toBe('');
  });
});
