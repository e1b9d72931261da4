import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog';

describe('Dialog', () => {
  it('is labelled by its title and closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <Dialog open onClose={onClose} title="Sign in" description="Please sign in below to continue.">
        body
      </Dialog>,
    );
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on a click outside the panel, not inside it', () => {
    const onClose = vi.fn();
    render(
      <Dialog open onClose={onClose} title="T">
        <button>inside</button>
      </Dialog>,
    );
    fireEvent.mouseDown(screen.getByText('inside'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.mouseDown(screen.getByTestId('dialog-overlay'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with its visible Close button', () => {
    const onClose = vi.fn();
    render(<Dialog open onClose={onClose} title="Upgrade plan" />);
    const close = screen.getByRole('button', { name: 'Close' });
    expect(close.textContent).toBe('×');
    fireEvent.click(close);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('moves the focus to its first field when it opens, not to Close', () => {
    render(
      <Dialog open onClose={() => {}} title="Sign up">
        <input aria-label="Email" />
      </Dialog>,
    );
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
  });

  it('takes the focus to its start again when it turns into another dialog', () => {
    const { rerender } = render(
      <Dialog open onClose={() => {}} title="Sign in">
        <input aria-label="Email" />
        <button>First time here?</button>
      </Dialog>,
    );
    screen.getByRole('button', { name: 'First time here?' }).focus();
    rerender(
      <Dialog open onClose={() => {}} title="Sign up">
        <input aria-label="Email" />
        <button>Already have an account?</button>
      </Dialog>,
    );
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
  });

  it('puts Close after the fields and actions in the tab order', () => {
    render(
      <Dialog open onClose={() => {}} title="Business profile">
        <input aria-label="Name" />
        <button>Save</button>
      </Dialog>,
    );
    const order = [...screen.getByRole('dialog').querySelectorAll('input, button')].map(
      (el) => el.getAttribute('aria-label') ?? el.textContent,
    );
    expect(order).toEqual(['Name', 'Save', 'Close']);
  });

  it('focuses the first field once a form that loads after opening appears', async () => {
    const { rerender } = render(
      <Dialog open onClose={() => {}} title="Business profile">
        <p>Loading…</p>
      </Dialog>,
    );
    rerender(
      <Dialog open onClose={() => {}} title="Business profile">
        <input aria-label="Name" />
      </Dialog>,
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' })));
  });

  it('renders nothing when closed', () => {
    render(<Dialog open={false} onClose={() => {}} title="T" />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
