import { useId } from 'react';
import { Link } from 'react-router';
import {
  FormulaHint,
  METRIC_FORMULAS,
  STUDIO_PHOTO_LINK_TEXT,
  studioPath,
  formatCount,
  formatMoney,
  type ProductSalesJson,
} from '@uplift/platform';

/**
 * The range's best products by net sales, highest first (the API's order,
 * in the range's metrics answer), each with a way into the studio for its
 * photo (orders know a product by its title only, which the studio finds in
 * the website's catalogue).
 */
export function TopProducts({ products, currency }: { products: ProductSalesJson[]; currency: string | undefined }) {
  const titleId = useId();
  return (
    <section className="u-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Top products by net sales</h2>
      {products.length === 0 ? (
        <p className="u-muted">No products sold in this period.</p>
      ) : (
        <div className="u-table-scroll">
          <table className="u-table top-products">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity</th>
                <th scope="col">
                  <span className="u-table__head">
                    Net sales
                    <FormulaHint label="Net sales" formula={METRIC_FORMULAS.netSales} />
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((product, index) => (
                <tr key={`${index}-${product.title ?? ''}`}>
                  <td>
                    {product.title || 'Untitled product'}
                    {product.title && (
                      <Link
                        to={studioPath(product.title)}
                        style={{ display: 'block', width: 'fit-content', fontSize: '.85rem', color: 'var(--brand)' }}
                        aria-label={`${STUDIO_PHOTO_LINK_TEXT} of ${product.title}`}
                      >
                        {STUDIO_PHOTO_LINK_TEXT}
                      </Link>
                    )}
                  </td>
                  <td>{formatCount(product.quantity ?? '0')}</td>
                  <td>{formatMoney(product.netSales ?? '0', currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
