package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/stores/internal/domain"
)

const (
	// saveBatch is how many orders one write stores: big enough to be fast,
	// small enough that progress moves.
	saveBatch = 500
	// sweepMargin re-reads a little before the watermark, since Shopify's
	// updated_at and our clock are not the same clock.
	sweepMargin = 5 * time.Minute
	// sessionsDays bounds how far back sessions are read on a first import.
	sessionsDays = 400
)

// SyncRound does the background work that is due: webhook deliveries,
// periodic sweeps and requested syncs, then publishes the store signals of
// every category whose orders they changed. The service runs it whenever
// work is queued (Postgres NOTIFY) and on a timer.
func (a *App) SyncRound(ctx context.Context) error {
	var errs []error
	if err := a.ProcessWebhooks(ctx); err != nil {
		errs = append(errs, err)
	}
	now := a.now()
	if _, err := a.repo.RequestSweeps(ctx, now.Add(-a.opts.SweepEvery), now); err != nil {
		errs = append(errs, err)
	}
	for ctx.Err() == nil {
		now := a.now()
		conn, err := a.repo.ClaimSync(ctx, now, now.Add(a.opts.SyncLease))
		if err != nil {
			errs = append(errs, err)
			break
		}
		if conn == nil {
			break
		}
		a.runSync(ctx, conn)
	}
	if err := a.PublishDueSignals(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// runSync runs one claimed sync and records how it ended; its failures are
// the shop's, reported on the connection, not the worker's.
func (a *App) runSync(ctx context.Context, conn *Connection) {
	log := a.log.With("category", conn.CategoryID, "shop", conn.Shop, "full", conn.SyncFull)
	start := a.now()
	res, err := a.sync(ctx, conn)
	if errors.Is(err, domain.ErrConnectionChanged) {
		// The shop moved (or was disconnected) under the sync: its end is
		// nobody's to record, and the connection's new owner syncs anew.
		log.InfoContext(ctx, "shopify sync stopped: the connection changed while it ran")
		return
	}
	if err != nil {
		if ctx.Err() != nil {
			return // shutting down: the lease lapses and another run takes over
		}
		log.WarnContext(ctx, "shopify sync failed", "err", err)
		res = SyncResult{Error: syncMessage(err), At: a.now(),
			Retry: !errors.Is(err, domain.ErrNotConnected) && !errors.Is(err, domain.ErrShopLocked)}
	} else {
		res.OK = true
		log.InfoContext(ctx, "shopify sync done", "took", a.now().Sub(start).Round(time.Millisecond))
	}
	err = a.repo.FinishSync(context.WithoutCancel(ctx), conn.Link(), conn.ClaimedAt, res)
	if errors.Is(err, domain.ErrConnectionChanged) {
		log.InfoContext(ctx, "shopify sync not recorded: the connection changed as it ended")
	} else if err != nil {
		log.ErrorContext(ctx, "recording the end of a sync failed", "err", err)
	}
}

func (a *App) sync(ctx context.Context, conn *Connection) (SyncResult, error) {
	client := a.client(conn.Shop, tokenSource{a: a, categoryID: conn.CategoryID})
	p := Progress{Phase: PhaseShop, Percent: 1}
	link := conn.Link()
	save := func() error { return a.repo.SaveProgress(ctx, link, p) }
	if err := save(); err != nil {
		return SyncResult{}, err
	}
	info, err := client.Shop(ctx)
	if err != nil {
		return SyncResult{}, fmt.Errorf("shop: %w", err)
	}
	loc, err := time.LoadLocation(info.Timezone)
	if err != nil {
		return SyncResult{}, fmt.Errorf("shop time zone %q: %w", info.Timezone, err)
	}
	if a.opts.WebhookURL != "" {
		if err := client.EnsureWebhooks(ctx, a.opts.WebhookURL, WebhookTopics); err != nil {
			return SyncResult{}, fmt.Errorf("webhooks: %w", err)
		}
	}
	res := SyncResult{Name: info.Name, Currency: info.Currency, Timezone: info.Timezone,
		SessionsAvailable: conn.SessionsAvailable}
	if conn.Watermark != nil {
		res.Watermark = *conn.Watermark
	}
	batch := make([]domain.Order, 0, saveBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := a.repo.SaveOrders(ctx, link, batch); err != nil {
			return err
		}
		p.Orders += int64(len(batch))
		if p.OrdersTotal > 0 {
			p.Percent = 5 + int(min(p.Orders, p.OrdersTotal)*75/p.OrdersTotal)
		}
		batch = batch[:0]
		return save()
	}
	collect := func(o domain.Order) error {
		if o.UpdatedAt.After(res.Watermark) {
			res.Watermark = o.UpdatedAt
		}
		batch = append(batch, o)
		if len(batch) >= saveBatch {
			return flush()
		}
		return nil
	}
	if conn.SyncFull || conn.Watermark == nil {
		orders, products, customers, err := client.Counts(ctx)
		if err != nil {
			return SyncResult{}, fmt.Errorf("counts: %w", err)
		}
		p.Phase, p.OrdersTotal, p.Percent = PhaseOrders, orders, 5
		if err := save(); err != nil {
			return SyncResult{}, err
		}
		if err := client.BulkOrders(ctx, loc, collect, nil); err != nil {
			return SyncResult{}, fmt.Errorf("orders: %w", err)
		}
		if err := flush(); err != nil {
			return SyncResult{}, err
		}
		if err := a.syncCatalog(ctx, link, client, &p, products, customers, save); err != nil {
			return SyncResult{}, err
		}
	} else {
		p.Phase, p.Percent = PhaseOrders, 50
		if err := save(); err != nil {
			return SyncResult{}, err
		}
		if err := client.OrdersUpdatedSince(ctx, conn.Watermark.Add(-sweepMargin), loc, collect); err != nil {
			return SyncResult{}, fmt.Errorf("orders since %s: %w", conn.Watermark.Format(time.RFC3339), err)
		}
		if err := flush(); err != nil {
			return SyncResult{}, err
		}
	}
	p.Phase, p.Percent = PhaseSessions, 96
	if err := save(); err != nil {
		return SyncResult{}, err
	}
	today := domain.DateOf(a.now().In(loc))
	from := today.AddDays(-3)
	if conn.SyncFull || conn.Watermark == nil {
		// A shop has visitors before its first sale, and a quiet day's
		// sessions matter to conversion, so the window is not cut at the
		// first order.
		from = today.AddDays(-sessionsDays + 1)
	}
	if res.SessionsAvailable {
		if err := a.syncSessions(ctx, link, client, from, today); errors.Is(err, domain.ErrNotGranted) {
			res.SessionsAvailable = false
		} else if err != nil {
			return SyncResult{}, fmt.Errorf("sessions: %w", err)
		}
		// Shopify's own figures are a cross-check: missing them costs nothing else.
		if err := a.syncShopifyDaily(ctx, link, client, from, today, info.Currency); errors.Is(err, domain.ErrConnectionChanged) {
			return SyncResult{}, err
		} else if err != nil {
			a.log.WarnContext(ctx, "shopify's own daily figures unavailable", "shop", conn.Shop, "err", err)
		}
	}
	res.At = a.now()
	return res, nil
}

func (a *App) syncCatalog(ctx context.Context, link ShopLink, client ShopClient, p *Progress,
	products, customers int64, save func() error) error {
	p.Phase, p.Percent = PhaseProducts, 81
	if err := save(); err != nil {
		return err
	}
	var ps []CatalogProduct
	if err := client.BulkProducts(ctx, func(pr Product) error {
		ps = append(ps, CatalogProduct{ID: pr.ID, Title: pr.Title})
		return nil
	}); err != nil {
		return fmt.Errorf("products: %w", err)
	}
	if err := a.repo.SaveCatalog(ctx, link, ps, nil); err != nil {
		return err
	}
	p.Products = int64(len(ps))
	p.Phase, p.Percent = PhaseCustomers, 88
	if err := save(); err != nil {
		return err
	}
	var cs []CatalogCustomer
	if err := client.BulkCustomers(ctx, func(c Customer) error {
		cs = append(cs, CatalogCustomer{ID: c.ID, Orders: c.NumberOfOrders})
		return nil
	}); err != nil {
		return fmt.Errorf("customers: %w", err)
	}
	if err := a.repo.SaveCatalog(ctx, link, nil, cs); err != nil {
		return err
	}
	p.Customers = int64(len(cs))
	return nil
}

func (a *App) syncSessions(ctx context.Context, link ShopLink, client ShopClient, from, to domain.Date) error {
	rows, err := client.Sessions(ctx, from.String(), to.String())
	if err != nil {
		return err
	}
	days := make([]DaySessions, 0, len(rows))
	for _, r := range rows {
		d, err := domain.ParseDate(r.Day)
		if err != nil {
			return fmt.Errorf("sessions day %q: %w", r.Day, err)
		}
		days = append(days, DaySessions{Day: d, Sessions: r.Sessions, Completed: r.Completed})
	}
	return a.repo.SaveSessions(ctx, link, days)
}

func (a *App) syncShopifyDaily(ctx context.Context, link ShopLink, client ShopClient, from, to domain.Date, currency string) error {
	rows, err := client.Sales(ctx, from.String(), to.String(), currency)
	if err != nil {
		return err
	}
	days := make([]ShopifyDay, 0, len(rows))
	for _, r := range rows {
		d, err := domain.ParseDate(r.Day)
		if err != nil {
			return fmt.Errorf("sales day %q: %w", r.Day, err)
		}
		days = append(days, ShopifyDay{Day: d, Orders: r.Orders, TotalSales: r.TotalSales, NetSales: r.NetSales})
	}
	return a.repo.SaveShopifyDaily(ctx, link, days)
}

// syncMessage is what the owner reads when a sync failed.
func syncMessage(err error) string {
	switch {
	case errors.Is(err, domain.ErrNotConnected):
		return "Uplift no longer has access to your shop. Please connect it again."
	case errors.Is(err, domain.ErrShopLocked):
		return "Shopify reports your shop as frozen or locked, so its orders cannot be read."
	default:
		return "We could not read your shop's data from Shopify. We will try again shortly."
	}
}
