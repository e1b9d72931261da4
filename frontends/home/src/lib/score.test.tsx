import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScoreBadge } from './review/score-badge';
import { bandForScore, bandOf, humanize } from './score';

describe('score bands (thresholds LOW 5, MED 30, HIGH 70)', () => {
  it.each([
    [0, 'poor'],
    [4, 'poor'],
    [5, 'low'],
    [29, 'low'],
    [30, 'medium'],
    [69, 'medium'],
    [70, 'high'],
    [100, 'high'],
  ])('score %i is %s', (score, band) => {
    expect(bandForScore(score)).toBe(band);
  });

  it("trusts the server's band when known and falls back to the thresholds", () => {
    expect(bandOf('medium', 10)).toBe('medium');
    expect(bandOf(undefined, 71)).toBe('high');
    expect(bandOf('weird', 3)).toBe('poor');
  });

  it('colours the badge by band', () => {
    const { container, rerender } = render(<ScoreBadge score={4} />);
    expect(container.querySelector('.score')?.className).toContain('score--poor');
    rerender(<ScoreBadge score={30} />);
    expect(container.querySelector('.score')?.className).toContain('score--medium');
    rerender(<ScoreBadge score={85} band="high" />);
    expect(container.querySelector('.score')?.className).toContain('score--high');
    expect(container.textContent).toContain('high');
  });

  it('turns check ids into words', () => {
    expect(humanize('meta_description')).toBe('Meta description');
    expect(humanize('render-blocking')).toBe('Render blocking');
  });
});
