import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describedBy as described } from '../testing/described-by';
import { TextField, VerificationCodeField } from './text-field';

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

  it('shares one error shown elsewhere: invalid and described by it, beside its own hint', () => {
    const { rerender } = render(
      <>
        <TextField label="From" type="date" hint="Your store's time zone." sharedErrorId="range-error" />
        <TextField label="To" type="date" sharedErrorId="range-error" />
        <p id="range-error">The start date is after the end date.</p>
      </>,
    );
    for (const name of ['From', 'To']) {
      const input = screen.getByLabelText(name);
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(described(input)).toContain('The start date is after the end date.');
    }
    expect(described(screen.getByLabelText('From'))).toEqual(["Your store's time zone.", 'The start date is after the end date.']);
    // The field does not show the message again.
    expect(screen.queryByRole('alert')).toBeNull();

    rerender(<TextField label="From" type="date" sharedErrorId={undefined} />);
    expect(screen.getByLabelText('From').hasAttribute('aria-invalid')).toBe(false);
    expect(screen.getByLabelText('From').hasAttribute('aria-describedby')).toBe(false);
  });

  it('puts an action beside the input, and the error under both', () => {
    render(
      <form>
        <TextField label="Order export (CSV)" type="file" accept=".csv" error="This file is larger than 20 MB." action={<button type="submit">Import</button>} />
      </form>,
    );
    const input = screen.getByLabelText('Order export (CSV)') as HTMLInputElement;
    const button = screen.getByRole('button', { name: 'Import' });
    expect(input.type).toBe('file');
    expect(button.parentElement).toBe(input.parentElement);
    expect(input.parentElement?.className).toBe('u-field__row');
    // The error follows the row, so it reads after the button and stands under both.
    expect(input.parentElement?.nextElementSibling).toBe(screen.getByRole('alert'));
    expect(described(input)).toEqual(['This file is larger than 20 MB.']);
  });

  it('asks for the authenticator code the same way everywhere: required, numeric keypad, one-time-code autofill', () => {
    render(<VerificationCodeField name="code" value="" onChange={() => {}} />);
    const input = screen.getByRole('textbox', { name: 'Verification code' }) as HTMLInputElement;
    expect(input.required).toBe(true);
    expect(input.inputMode).toBe('numeric');
    expect(input.autocomplete).toBe('one-time-code');
    expect(input.name).toBe('code');
  });
});
