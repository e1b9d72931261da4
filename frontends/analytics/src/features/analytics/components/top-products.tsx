import { useId } from 'react';
import {
  ErrorBanner,
  FormulaHint,
  METRIC_FORMULAS,
  Spinner,
  formatCount,
  formatMoney,
  useTopProducts,
  type StoreDateRange,
} from '@uplift/platform';

/** The range's best products by net sales, highest first (the API's order). */
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
                  <td>{product.title || 'Untitled product'}</td>
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
