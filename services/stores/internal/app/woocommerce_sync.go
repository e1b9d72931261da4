package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/stores/internal/domain"
)

// wooBatch is how many orders are written per transaction.
const wooBatch = 500

// wooWatermarkMargin is read again before the watermark on each sync:
// WooCommerce's modified dates have whole seconds and a write landing in
// the second the last sync read must not be missed.
const wooWatermarkMargin = 10 * time.Minute

// WooSyncRound runs at most one due WooCommerce sync: the first one
// (everything), or, every SweepEvery after, what changed since the last
// (modified_after the watermark, research §2 "Incremental sync"), which is
// also what catches the changes webhooks missed (§3: WooCommerce never
// retries a delivery). A failure is tried again with backoff, as
// Shopify's syncs are.
func (a *App) WooSyncRound(ctx context.Context) error {
	if a.woo == nil {
		return nil
	}
	c, err := a.woo.repo.ClaimWooSync(ctx, a.now(), a.opts.SyncLease)
	if err != nil || c == nil {
		return err
	}
	err = a.wooSync(ctx, c)
	if errors.Is(err, domain.ErrConnectionChanged) {
		return nil // disconnected or connected anew meanwhile: nothing to record
	}
	if err != nil {
		a.log.WarnContext(ctx, "woocommerce sync failed", "category", c.CategoryID, "store", c.StoreURL, "err", err)
		wait := time.Duration(1<<min(c.Attempts, 8)) * 30 * time.Second
		return a.woo.repo.FailWooSync(ctx, c.CategoryID, c.ConnectedAt, "The last sync with your store failed; it will be tried again.", a.now().Add(wait))
	}
	return nil
}

func (a *App) wooSync(ctx context.Context, c *WooConnection) error {
	ck, err := a.sealer.Open(c.ConsumerKey)
	if err != nil {
		return err
	}
	cs, err := a.sealer.Open(c.ConsumerSecret)
	if err != nil {
		return err
	}
	keys := WooKeys{ConsumerKey: ck, ConsumerSecret: cs}
	loc := StoreLocation(c.Timezone)
	var since *time.Time
	if !c.SyncFull && c.Watermark != nil {
		s := c.Watermark.Add(-wooWatermarkMargin)
		since = &s
	}
	p := Progress{Phase: "ORDERS"}
	if p.Products, err = a.woo.client.Count(ctx, c.StoreURL, keys, "products"); err != nil {
		return fmt.Errorf("products: %w", err)
	}
	if p.Customers, err = a.woo.client.Count(ctx, c.StoreURL, keys, "customers"); err != nil {
		return fmt.Errorf("customers: %w", err)
	}
	// The counts are the store's size, which Connections shows through and
	// after the sync; the progress below is the sync's.
	if err := a.woo.repo.SaveWooStoreCounts(ctx, c.CategoryID, c.ConnectedAt, p.Products, p.Customers); err != nil {
		return err
	}
	var batch []domain.Order
	var watermark *time.Time
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := a.woo.repo.SaveWooOrders(ctx, c.CategoryID, c.ConnectedAt, batch)
		batch = batch[:0]
		return err
	}
	err = a.woo.client.Orders(ctx, c.StoreURL, keys, since, func(o domain.WooOrder) error {
		if o.Status == domain.WooTrash {
			// Analytics leaves trash out, and the order could have been
			// stored before it went there: it goes, after what came before.
			if err := flush(); err != nil {
				return err
			}
			return a.woo.repo.DeleteWooOrders(ctx, c.CategoryID, c.ConnectedAt, []string{domain.WooOrderID(o.ID)})
		}
		batch = append(batch, domain.WooSales(o, loc))
		if m := o.ModifiedAt; !m.IsZero() && (watermark == nil || m.After(*watermark)) {
			watermark = &m
		}
		if len(batch) >= wooBatch {
			return flush()
		}
		return nil
	}, func(done, total int64) {
		p.Orders, p.OrdersTotal = done, total
		if total > 0 {
			p.Percent = int(min(99, done*100/total))
		}
		// Progress is for people: a failed write of it is not the sync's.
		if err := a.woo.repo.SaveWooProgress(ctx, c.CategoryID, c.ConnectedAt, p); err != nil && !errors.Is(err, domain.ErrConnectionChanged) {
			a.log.WarnContext(ctx, "woocommerce progress not saved", "err", err)
		}
	})
	if err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	if watermark == nil {
		watermark = c.Watermark
	}
	if err := a.ensureWooWebhooks(ctx, c, keys); err != nil {
		return fmt.Errorf("webhooks: %w", err)
	}
	a.log.InfoContext(ctx, "woocommerce synced", "category", c.CategoryID, "orders", p.Orders, "since", since)
	return a.woo.repo.FinishWooSync(ctx, c.CategoryID, c.ConnectedAt, watermark, a.now(), a.now().Add(a.opts.SweepEvery))
}
