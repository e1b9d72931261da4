import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar, avatarInitial } from './avatar';

describe('avatarInitial', () => {
  it('is the upper-case first letter of the name', () => {
    expect(avatarInitial('jane')).toBe('J');
    expect(avatarInitial('  émile ')).toBe('É');
  });

  it("falls back to 'U'", () => {
    expect(avatarInitial('')).toBe('U');
    expect(avatarInitial('   ')).toBe('U');
    expect(avatarInitial(null)).toBe('U');
    expect(avatarInitial(undefined)).toBe('U');
  });
});

describe('Avatar', () => {
  it('shows the image when there is one', () => {
    const { container } = render(<Avatar name="jane" src="https://img.test/a.png" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.test/a.png');
    expect(screen.queryByText('J')).toBeNull();
  });

  it('shows the initial when the image fails to load', () => {
    const { container } = render(<Avatar name="jane" src="https://img.test/broken.png" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('J')).toBeTruthy();
  });

  it('shows the initial without an image, at the requested size', () => {
    const { container } = render(<Avatar name="bob" size="lg" />);
    expect(screen.getByText('B')).toBeTruthy();
    const root = container.firstElementChild as HTMLElement;
    expect(root.style.width).toBe('64px');
  });

  it.each([
    ['xs', '20px'],
    ['sm', '30px'],
    ['md', '50px'],
    ['lg', '64px'],
  ] as const)('size %s is %s', (size, px) => {
    const { container } = render(<Avatar size={size} />);
    expect((container.firstElementChild as HTMLElement).style.height).toBe(px);
    expect(screen.getByText('U')).toBeTruthy();
  });
});
