import { describe, expect, it } from 'vitest';
import type { CatalogueProductJson } from '@uplift/platform';
import { findCatalogueProduct, notInCatalogueMessage } from './product-ref';

const products: CatalogueProductJson[] = [
  { id: '8001', name: 'Morning Assam', url: 'https://tea.test/products/morning-assam', imageUrls: ['https://tea.test/a.jpg'] },
  { id: 'SENCHA-KAGO', name: 'Sencha  Kagoshima', url: 'https://tea.test/products/sencha?variant=2' },
  { id: 'jasmine-pearls', name: 'Jasmine Pearls', url: 'https://tea.test/products/jasmine-pearls/' },
  { id: 'twin-1', name: 'Gift Box' },
  { id: 'twin-2', name: 'gift box' },
];

const found = (ref: string) => findCatalogueProduct(products, ref)?.id;

describe('findCatalogueProduct', () => {
  it("finds a product by the catalogue's id or Shopify's gid", () => {
    expect(found('8001')).toBe('8001');
    expect(found(' SENCHA-KAGO ')).toBe('SENCHA-KAGO');
    expect(found('gid://shopify/Product/8001')).toBe('8001');
  });

  it('finds a product by its page, whatever the query, fragment, trailing slash or host case', () => {
    expect(found('https://tea.test/products/morning-assam/')).toBe('8001');
    expect(found('https://TEA.test/products/sencha#reviews')).toBe('SENCHA-KAGO');
    expect(found('https://tea.test/products/jasmine-pearls?utm_source=mail')).toBe('jasmine-pearls');
    expect(found('https://tea.test/')).toBeUndefined();
    expect(found('https://other.test/products/morning-assam')).toBeUndefined();
  });

  it('finds a product by its name (what orders and ideas know), ignoring case and spacing', () => {
    expect(found('Morning Assam')).toBe('8001');
    expect(found('morning  assam')).toBe('8001');
    expect(found('Sencha Kagoshima')).toBe('SENCHA-KAGO');
  });

  it('finds nothing for an unknown or an ambiguous name, or an empty one', () => {
    expect(found('Earl Grey')).toBeUndefined();
    expect(found('Gift box')).toBeUndefined();
    expect(found('  ')).toBeUndefined();
  });
});

describe('notInCatalogueMessage', () => {
  it('says whether a page or a name was not found', () => {
    expect(notInCatalogueMessage('https://tea.test/')).toMatch(/^That page is not one of the product pages/);
    expect(notInCatalogueMessage(' Earl Grey ')).toMatch(/^“Earl Grey” is not among the products on your website/);
  });
});
