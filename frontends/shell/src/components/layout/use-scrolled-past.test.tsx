import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isScrolledPast, useScrolledPast } from './use-scrolled-past';

function Probe() {
  return <p>{useScrolledPast() ? 'translucent' : 'solid'}</p>;
}

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('top bar translucency', () => {
  afterEach(() => Object.defineProperty(window, 'scrollY', { value: 0, configurable: true }));

  it('starts only after more than 100 px', () => {
    expect(isScrolledPast(0)).toBe(false);
    expect(isScrolledPast(100)).toBe(false);
    expect(isScrolledPast(101)).toBe(true);
  });

  it('follows the scroll position', () => {
    render(<Probe />);
    expect(screen.getByText('solid')).toBeTruthy();
    scrollTo(100);
    expect(screen.getByText('solid')).toBeTruthy();
    scrollTo(150);
    expect(screen.getByText('translucent')).toBeTruthy();
    scrollTo(20);
    expect(screen.getByText('solid')).toBeTruthy();
  });
});
