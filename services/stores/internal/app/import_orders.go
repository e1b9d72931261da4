package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"

	"uplift.dev/platform/validation"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv"
)

// FormatShopifyOrdersCSV is the only import format: Shopify's Admin →
// Orders → Export file.
const FormatShopifyOrdersCSV = "shopify-orders-csv"

// MaxImportBytes bounds an imported file (20 MB): the platform's bound on a
// document sent as text.
const MaxImportBytes = validation.MaxDocumentBytes

// DefaultImportsInFlight is how many imports one replica runs at once when
// Options.ImportsInFlight is 0. One import of a 20 MB export holds about
// 40 MiB while it runs (BenchmarkConcurrentImports); the pod has 512 MiB.
const DefaultImportsInFlight = 2

// importBatch is how many orders are built and written at a time: the file's
// orders are never all held as rows at once, and each batch is still one
// COPY.
const importBatch = 2000

// Upload is an order export as it arrives.
type Upload interface {
	io.Reader
	// Format is the file's format. A JSON body may name it after the file,
	// so it is final only once the file is read.
	Format() string
}

// ImportResult is what an import brought in.
type ImportResult struct {
	Orders            int
	FirstDay, LastDay domain.Date
	Currency          string
	Warnings          []string
}

// ImportOrders reads an order export as it arrives and stores its orders,
// all or nothing, then publishes the store's signals (StoreSignalsUpdated).
// The same file twice changes nothing: orders are keyed by their Shopify id
// (or name) and replaced whole, and the same signals published again are
// harmless. A replica runs Options.ImportsInFlight imports at once
// (domain.ErrTooManyImports past that) and a store one at a time across
// replicas (domain.ErrImportRunning): both answer before the file is read.
func (a *App) ImportOrders(ctx context.Context, caller domain.Caller, categoryID string, file Upload) (ImportResult, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return ImportResult{}, err
	}
	badFormat := func() bool { return file.Format() != FormatShopifyOrdersCSV }
	errFormat := &domain.ValidationError{Field: "format", Message: `format must be "shopify-orders-csv".`}
	if file.Format() != "" && badFormat() {
		return ImportResult{}, errFormat
	}
	select {
	case a.imports <- struct{}{}:
		defer func() { <-a.imports }()
	default:
		return ImportResult{}, domain.ErrTooManyImports
	}
	var res ImportResult
	err := a.repo.SaveImport(ctx, categoryID, func(save func([]domain.Order) error) (Import, error) {
		hash := sha256.New()
		body := &io.LimitedReader{R: io.TeeReader(file, hash), N: MaxImportBytes + 1}
		f, err := ordercsv.Read(body)
		if body.N <= 0 {
			return Import{}, &domain.ValidationError{Field: "csv", Message: "The file is larger than 20 MB. Export a shorter date range and import each file."}
		}
		var perr *ordercsv.Error
		if errors.As(err, &perr) {
			return Import{}, &domain.ValidationError{Field: "csv", Message: perr.Error()}
		}
		if err != nil {
			return Import{}, err
		}
		if badFormat() {
			return Import{}, errFormat
		}
		warnings, err := f.Each(importBatch, save)
		if err != nil {
			return Import{}, err
		}
		res = ImportResult{Orders: f.Orders, FirstDay: f.FirstDay, LastDay: f.LastDay, Currency: f.Currency, Warnings: warnings}
		return Import{
			ID: a.newID(), CategoryID: categoryID, FileSHA256: hex.EncodeToString(hash.Sum(nil)),
			Orders: f.Orders, FirstDay: f.FirstDay, LastDay: f.LastDay,
			Currency: f.Currency, Timezone: f.Newest.Format("-07:00"),
			ImportedBy: caller.UID, ImportedAt: a.now(),
		}, nil
	})
	if err != nil {
		return ImportResult{}, err
	}
	a.log.InfoContext(ctx, "orders imported", "category", categoryID, "orders", res.Orders,
		"first", res.FirstDay.String(), "last", res.LastDay.String())
	// The import is stored whatever happens next: signals that fail to go
	// now stay due, and the sync worker publishes them at its next round.
	if err := a.publishCategorySignals(ctx, categoryID); err != nil {
		a.log.WarnContext(ctx, "store signals not published after an import; the sync worker will retry",
			"category", categoryID, "err", err)
	}
	return res, nil
}
