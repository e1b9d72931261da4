import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, Toaster } from './toast';

describe('Toaster', () => {
  afterEach(() => vi.useRealTimers());

  it('shows an error toast for 5000 ms', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast.error('Something failed');
    });
    expect(screen.getByRole('alert').textContent).toBe('Something failed');
    act(() => vi.advanceTimersByTime(4_999));
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
