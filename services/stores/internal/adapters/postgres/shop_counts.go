package postgres

import (
	"context"

	"uplift.dev/stores/internal/app"
)

// ShopCounts implements app.Repository: the shop's orders as Analytics
// counts them (test and gift-card-only orders left out), and the products
// and customers its syncs saved, all in one snapshot.
func (r Repo) ShopCounts(ctx context.Context, categoryID string) (app.StoreCounts, error) {
	var c app.StoreCounts
	err := r.Pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM orders WHERE category_id = $1 AND source = 'shopify' AND counted),
			(SELECT count(*) FROM products WHERE category_id = $1),
			(SELECT count(*) FROM customers WHERE category_id = $1)`, categoryID).
		Scan(&c.Orders, &c.Products, &c.Customers)
	return c, err
}
