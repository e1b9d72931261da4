import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { describedBy, fakeGateway, json, renderWithProviders, signedInAs, type GatewayRoute } from '@uplift/platform/testing';
import { StudioPage } from './studio-page';

const category = '/internal/categories/cat1';
const UPLOAD = `POST ${category}/studio/images`;
const FILE_LABEL = 'Upload a product photo (JPEG, PNG or WebP, up to 25 MB)';

/** A paying owner's studio with an empty gallery and one product on the website. */
function gateway(routes: Record<string, GatewayRoute> = {}) {
  return fakeGateway({
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    [`GET ${category}/studio/plan`]: () => json({ paid: true }),
    [`GET ${category}/studio/jobs`]: () => json({ jobs: [] }),
    [`GET ${category}/catalogue/products`]: () => json({ products: [{ id: 'p1', name: 'Mug', imageUrls: ['https://shop.test/mug.jpg'] }] }),
    ...routes,
  });
}

const renderStudio = (path = '/studio') => renderWithProviders(<StudioPage />, { path, session: signedInAs('u1') });

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('StudioPage: picking a photo', () => {
  it('refuses a file that is not a photo on the file field itself, without uploading it', async () => {
    const api = gateway();
    renderStudio();
    const input = await screen.findByLabelText(FILE_LABEL);
    fireEvent.change(input, { target: { files: [new File(['notes'], 'notes.txt', { type: 'text/plain' })] } });

    expect((await screen.findByRole('alert')).textContent).toBe('Upload a JPEG, PNG or WebP photo.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toEqual(['Upload a JPEG, PNG or WebP photo.']);
    expect(api.calls(UPLOAD)).toHaveLength(0);
  });

  it("shows a catalogue photo that cannot be read under the picker, and leaves the file field valid", async () => {
    gateway({ [`POST ${category}/studio/images/fromCatalogue`]: () => json({ message: 'The product page has no photo.', code: 9 }, 400) });
    renderStudio('/studio?product=p1');
    expect((await screen.findByRole('alert')).textContent).toBe('The product page has no photo.');
    expect(screen.getByLabelText(FILE_LABEL).hasAttribute('aria-invalid')).toBe(false);
  });
});
