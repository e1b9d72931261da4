import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from './text-field';

const described = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe('TextField', () => {
  it('is named by its label alone, and a required one is marked for the eye and said by required', () => {
    render(<TextField label="Email" required type="email" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(screen.getByLabelText('Email')).toBe(input);
    expect((input as HTMLInputElement).required).toBe(true);
    const star = input.closest('.u-field')!.querySelector('.u-field__required')!;
    expect(star.textContent?.trim()).toBe('*');
    expect(star.getAttribute('aria-hidden')).toBe('true');
  });

  it('has no star, no description and is valid when nothing is wrong', () => {
    render(<TextField label="Name" />);
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input.closest('.u-field')!.querySelector('.u-field__required')).toBeNull();
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });

  it('is described by its hint and its error, and invalid while the error shows', () => {
    const { rerender } = render(<TextField label="New email" hint="We send a link to it." error="Email already in use." />);
    const input = screen.getByRole('textbox', { name: 'New email' });
    expect(described(input)).toEqual(['We send a link to it.', 'Email already in use.']);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Email already in use.');

    rerender(<TextField label="New email" hint="We send a link to it." error={null} />);
    expect(described(input)).toEqual(['We send a link to it.']);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps ids apart between fields, and a given id', () => {
    render(
      <>
        <TextField label="Password" type="password" error="Too short." />
        <TextField label="Verification code" id="code" error="Wrong code." />
      </>,
    );
    const code = screen.getByRole('textbox', { name: 'Verification code' });
    expect(code.id).toBe('code');
    expect(described(code)).toEqual(['Wrong code.']);
    expect(described(screen.getByLabelText('Password'))).toEqual(['Too short.']);
  });
});
