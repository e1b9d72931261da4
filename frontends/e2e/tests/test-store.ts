import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny store served by the test itself on loopback (the backend must run with
 * FETCH_ALLOW_LOOPBACK=true). It is deliberately imperfect (no meta
 * description, an image without alt text, no returns page) so the review has
 * findings, and it has a Shopify-like /products.json catalogue for the ideas.
 * improve() fixes the meta description and the alt text, as an owner would
 * between two weekly reviews.
 */
const products = [
  { id: 1, title: 'Classic Cast-Iron Anvil', handle: 'classic-anvil', product_type: 'Anvils', variants: [{ price: '189.00' }] },
  { id: 2, title: 'Mini Jewellers Anvil', handle: 'mini-anvil', product_type: 'Anvils', variants: [{ price: '39.00' }] },
  { id: 3, title: 'Forging Hammer 1kg', handle: 'forging-hammer', product_type: 'Hammers', variants: [{ price: '54.50' }] },
];

function page(title: string, body: string, improved: boolean): string {
  const description = improved
    ? '<meta name="description" content="Hand-finished cast-iron anvils and forging hammers for hobby blacksmiths and jewellers, shipped within 3 days.">'
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${description}</head><body>
<header><a href="/">Northfield Forge</a> <nav><a href="/products/classic-anvil">Anvils</a> <a href="/contact">Contact</a></nav></header>
<main>${body}</main>
<footer><a href="/contact">Contact us</a> <a href="/shipping">Shipping</a></footer></body></html>`;
}

function pages(improved: boolean): Record<string, string> {
  const alt = improved ? ' alt="A cast-iron anvil on an oak stump"' : '';
  return {
    '/': page(
      'Northfield Forge',
      `<h1>Hand-finished anvils and forging tools</h1>
<p>Northfield Forge sells cast-iron anvils and forging hammers to hobby blacksmiths and jewellers, from $39 to $189.</p>
<img src="/anvil.jpg"${alt}>
${products.map((p) => `<article><h2><a href="/products/${p.handle}">${p.title}</a></h2><p>$${p.variants[0]!.price}</p><form action="/cart/add" method="post"><button>Add to cart</button></form></article>`).join('\n')}`,
      improved,
    ),
    '/contact': page('Contact – Northfield Forge', '<h1>Contact</h1><p>Email hello@northfield.test</p>', improved),
    '/shipping': page('Shipping – Northfield Forge', '<h1>Shipping</h1><p>We ship within 3 days.</p>', improved),
    ...Object.fromEntries(
      products.map((p) => [
        `/products/${p.handle}`,
        page(`${p.title} – Northfield Forge`, `<h1>${p.title}</h1><p>$${p.variants[0]!.price}</p><button>Add to cart</button>`, improved),
      ]),
    ),
  };
}

export interface TestStore {
  url: string;
  /** Fixes the meta description and the image's alt text. */
  improve(): void;
  close(): Promise<void>;
}

export async function startStore(): Promise<TestStore> {
  let served = pages(false);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://store').pathname;
    if (path === '/products.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ products }));
    } else if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nAllow: /\n');
    } else if (served[path]) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(served[path]);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    improve: () => {
      served = pages(true);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
