import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FormulaHint } from './formula-hint';

const FORMULA = 'Net sales = gross sales − discounts − returns';

function renderHint() {
  render(
    <>
      <FormulaHint label="Net sales" formula={FORMULA} />
      <button type="button">elsewhere</button>
    </>,
  );
  return screen.getByRole('button', { name: 'How Net sales is counted' });
}

describe('FormulaHint', () => {
  it('is hidden until asked for, and describes its button', () => {
    const button = renderHint();
    expect(screen.queryByRole('tooltip')).toBeNull();
    const id = button.getAttribute('aria-describedby');
    expect(id).toBeTruthy();
    expect(document.getElementById(id!)?.textContent).toBe(FORMULA);
  });

  it('shows the formula on hover and hides it when the pointer leaves', async () => {
    const user = userEvent.setup();
    const button = renderHint();
    await user.hover(button);
    expect(screen.getByRole('tooltip').textContent).toBe(FORMULA);
    await user.unhover(button);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows the formula on keyboard focus and closes on Escape', async () => {
    const user = userEvent.setup();
    renderHint();
    await user.tab();
    expect(screen.getByRole('tooltip').textContent).toBe(FORMULA);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('stays open after a click or tap until a second click, a tap elsewhere or Escape', async () => {
    const user = userEvent.setup();
    const button = renderHint();
    await user.click(button);
    await user.unhover(button);
    expect(screen.getByRole('tooltip').textContent).toBe(FORMULA);
    await user.click(button);
    expect(screen.queryByRole('tooltip')).toBeNull();

    // A touch tap: no hover, no focus, just the click.
    fireEvent.click(button);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'elsewhere' }));
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('closes when a scroll moves its button, not on a scroll that left it in place', async () => {
    const user = userEvent.setup();
    const button = renderHint();
    let top = 300;
    button.getBoundingClientRect = () => ({ left: 100, top, width: 24, height: 24, right: 124, bottom: top + 24, x: 100, y: top, toJSON: () => ({}) });
    await user.click(button);
    fireEvent.scroll(window);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    top = 260;
    fireEvent.scroll(window);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
