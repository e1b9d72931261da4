import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/render-with-providers';
import { CustomerReviews, TRUSTBOX_SCRIPT_URL } from './customer-reviews';
import { forgetLoadedScripts } from './load-script';

afterEach(() => {
  delete window.Trustpilot;
  forgetLoadedScripts();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

const reviews = { businessUnitId: 'demo-unit', templateId: 'demo-template' };

function renderReviews(settings = { reviews }) {
  return renderWithProviders(<CustomerReviews />, { widgets: settings });
}

const trustboxScript = () => document.head.querySelector<HTMLScriptElement>(`script[src="${TRUSTBOX_SCRIPT_URL}"]`);

describe('CustomerReviews', () => {
  it('is not shown without its setting', () => {
    renderReviews({} as { reviews: typeof reviews });
    expect(screen.queryByRole('region', { name: 'Customer reviews' })).toBeNull();
  });

  it('hands its box (business unit, template) to the TrustBox script once that loads', async () => {
    renderReviews();
    const region = screen.getByRole('region', { name: 'Customer reviews' });
    const box = region.querySelector<HTMLElement>('.trustpilot-widget')!;
    expect(box.dataset.businessunitId).toBe('demo-unit');
    expect(box.dataset.templateId).toBe('demo-template');
    await vi.waitFor(() => expect(trustboxScript()).not.toBeNull());
    const loadFromElement = vi.fn();
    window.Trustpilot = { loadFromElement };
    trustboxScript()!.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(loadFromElement).toHaveBeenCalledWith(box, true));
  });

  it('disappears when the script cannot be loaded (offline, blocked)', async () => {
    renderReviews();
    await vi.waitFor(() => expect(trustboxScript()).not.toBeNull());
    trustboxScript()!.dispatchEvent(new Event('error'));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Customer reviews' })).toBeNull());
  });
});
