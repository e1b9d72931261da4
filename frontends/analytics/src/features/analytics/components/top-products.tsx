import { useId } from 'react';
import { Link } from 'react-router';
import {
  ErrorBanner,
  FormulaHint,
  METRIC_FORMULAS,
  Spinner,
  STUDIO_PHOTO_LINK_TEXT,
  studioPath,
  formatCount,
  formatMoney,
  useTopProducts,
  type StoreDateRange,
} from '@uplift/platform';

/**
 * The range's best products by net sales, highest first (the API's order),
 * each with a way into the studio for its photo (orders know a product by its
 * title only, which the studio finds in the website's catalogue).
 */
export function TopProducts({ categoryId, range }: { categoryId: string; range: StoreDateRange }) {
  const titleId = useId();
  const top = useTopProducts(categoryId, range);
  const products = top.data?.products ?? [];
  return (
    <section className="u-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Top products by net sales</h2>
      {top.isPending ? (
        <p>
          <Spinner /> Loading products…
        </p>
      ) : top.isError ? (
        <ErrorBanner message={top.error.message || 'We could not load your top products.'} />
      ) : products.length === 0 ? (
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
                  <td>{formatMoney(product.netSales ?? '0', top.data.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
