import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SpeedJson } from '@uplift/platform';
import { SpeedCard } from './speed-card';

const slowPage: SpeedJson = {
  measured: true,
  score: 41,
  runs: 3,
  fcpMs: 1520,
  lcpMs: 4380,
  tbtMs: 612,
  speedIndexMs: 3905,
  inpMs: 650,
  cls: 0.34,
  totalBytes: '2457600',
  painted: true,
  lcpElement: 'img#hero (hero.jpg)',
  shifted: ['div.promo-banner'],
  ratings: { fcp: 'good', lcp: 'poor', tbt: 'poor', si: 'needs-improvement', inp: 'poor', cls: 'poor' },
};

describe('SpeedCard', () => {
  it('shows each measure with its rating and names the slowest element', () => {
    render(<SpeedCard speed={slowPage} />);
    expect(screen.getByTestId('speed-score').textContent).toContain('41/100');
    expect(screen.getByText(/median of 3 loads/)).toBeTruthy();
    const lcp = document.querySelector('[data-metric="lcp"]') as HTMLElement;
    expect(within(lcp).getByText('4.4 s')).toBeTruthy();
    expect(within(lcp).getByText('poor')).toBeTruthy();
    const si = document.querySelector('[data-metric="si"]') as HTMLElement;
    expect(within(si).getByText('3.9 s')).toBeTruthy();
    expect(within(si).getByText('needs work')).toBeTruthy();
    expect(within(document.querySelector('[data-metric="inp"]') as HTMLElement).getByText('650 ms')).toBeTruthy();
    expect(within(document.querySelector('[data-metric="cls"]') as HTMLElement).getByText('0.34')).toBeTruthy();
    expect(screen.getByTestId('speed-slowest').textContent).toContain('img#hero (hero.jpg) (shown after 4.4 s)');
    expect(screen.getByText('div.promo-banner')).toBeTruthy();
    expect(screen.getByText('2.3 MB downloaded to show the page.')).toBeTruthy();
  });

  it('says why speed was not measured instead of showing numbers', () => {
    const reason = 'Speed was not measured: no browser is available to the review right now.';
    render(<SpeedCard speed={{ reason }} />);
    expect(screen.getByTestId('speed-not-measured').textContent).toContain(reason);
    expect(screen.queryByTestId('speed-score')).toBeNull();
    expect(document.querySelector('[data-metric]')).toBeNull();
  });

  it('says so when the review was made without a browser at all', () => {
    render(<SpeedCard speed={undefined} />);
    expect(screen.getByTestId('speed-not-measured').textContent).toContain('not measured in a browser');
  });

  it('does not read a page that painted nothing as fast', () => {
    render(<SpeedCard speed={{ ...slowPage, painted: false, fcpMs: 10000, lcpMs: 10000, speedIndexMs: 0, lcpElement: '' }} />);
    expect(within(document.querySelector('[data-metric="fcp"]') as HTMLElement).getByText('nothing in 10.0 s')).toBeTruthy();
    expect(document.querySelector('[data-metric="lcp"]')).toBeNull();
  });
});
