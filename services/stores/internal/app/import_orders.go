package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"

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

// ImportResult is what an import brought in.
type ImportResult struct {
	Orders            int
	FirstDay, LastDay domain.Date
	Currency          string
	Warnings          []string
}

// ImportOrders parses an order export and stores its orders, all or nothing,
// then publishes the store's signals (StoreSignalsUpdated). The same file
// twice changes nothing: orders are keyed by their Shopify id (or name) and
// replaced whole, and the same signals published again are harmless.
func (a *App) ImportOrders(ctx context.Context, caller Caller, categoryID, format, csv string) (ImportResult, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return ImportResult{}, err
	}
	// The size first: a file too large is refused whatever else is wrong.
	if len(csv) > MaxImportBytes {
		return ImportResult{}, &domain.ValidationError{Field: "csv", Message: "The file is larger than 20 MB. Export a shorter date range and import each file."}
	}
	if format != FormatShopifyOrdersCSV {
		return ImportResult{}, &domain.ValidationError{Field: "format", Message: `format must be "shopify-orders-csv".`}
	}
	if strings.TrimSpace(csv) == "" {
		return ImportResult{}, &domain.ValidationError{Field: "csv", Message: "The file is empty."}
	}
	res, err := ordercsv.Parse(strings.NewReader(csv))
	if err != nil {
		var perr *ordercsv.Error
		if errors.As(err, &perr) {
			return ImportResult{}, &domain.ValidationError{Field: "csv", Message: perr.Error()}
		}
		return ImportResult{}, err
	}
	if len(res.Orders) == 0 {
		return ImportResult{}, &domain.ValidationError{Field: "csv", Message: "The file holds no orders."}
	}
	sum := sha256.Sum256([]byte(csv))
	imp := Import{
		ID: a.newID(), CategoryID: categoryID, FileSHA256: hex.EncodeToString(sum[:]),
		Orders: len(res.Orders), FirstDay: res.FirstDay, LastDay: res.LastDay,
		Currency: res.Currency, Timezone: fileOffset(res.Orders),
		ImportedBy: caller.UID, ImportedAt: a.now(),
	}
	if err := a.repo.SaveImport(ctx, imp, res.Orders); err != nil {
		return ImportResult{}, err
	}
	a.log.InfoContext(ctx, "orders imported", "category", categoryID, "orders", len(res.Orders),
		"first", res.FirstDay.String(), "last", res.LastDay.String())
	// The import is stored whatever happens next: signals that fail to go
	// now stay due, and the sync worker publishes them at its next round.
	if err := a.publishCategorySignals(ctx, categoryID); err != nil {
		a.log.WarnContext(ctx, "store signals not published after an import; the sync worker will retry",
			"category", categoryID, "err", err)
	}
	return ImportResult{Orders: len(res.Orders), FirstDay: res.FirstDay, LastDay: res.LastDay,
		Currency: res.Currency, Warnings: res.Warnings}, nil
}

// fileOffset is the UTC offset the newest order of a file was written in
// ("-05:00"): an export carries no zone name, and its newest offset is the
// store's current one.
func fileOffset(orders []domain.Order) string {
	newest := orders[0].CreatedAt
	for _, o := range orders[1:] {
		if o.CreatedAt.After(newest) {
			newest = o.CreatedAt
		}
	}
	return newest.Format("-07:00")
}
