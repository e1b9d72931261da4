package domain

import (
	"errors"

	"uplift.dev/platform/validation"
)

// Sentinel errors the gRPC port maps to statuses.
var (
	// ErrNotFound: the category (or what was asked for in it) does not exist.
	ErrNotFound = errors.New("not found")
	// ErrPermissionDenied: the caller may not act on this category.
	ErrPermissionDenied = errors.New("permission denied")
	// ErrNotConnected: the call needs a connected shop and there is none.
	ErrNotConnected = errors.New("no shop is connected")
	// ErrShopTaken: another category's connect of the same shop committed
	// first (a shop feeds one category at a time).
	ErrShopTaken = errors.New("shop connected elsewhere")
	// ErrBadWebhook: a webhook whose signature does not verify.
	ErrBadWebhook = errors.New("webhook signature does not verify")
	// ErrBusy: the same request was made moments ago and is still running.
	ErrBusy = errors.New("busy")
	// ErrAlreadySent: the period's report was already published.
	ErrAlreadySent = errors.New("already sent")
	// ErrNoReportData: the store has no numbers to report.
	ErrNoReportData = errors.New("no data to report")
	// ErrImportRunning: the store's previous import has not finished.
	ErrImportRunning = errors.New("an import is already running for this store")
	// ErrTooManyImports: the service runs as many imports as it has room for.
	ErrTooManyImports = errors.New("too many imports running")
	// ErrBadShop: not a Shopify shop domain, so no request may be sent there.
	ErrBadShop = errors.New("Enter your shop's address, like your-store.myshopify.com.")
	// ErrStaleCallback: a shop's OAuth callback signed too long ago (or in
	// the future), so it may be a replay.
	ErrStaleCallback = errors.New("callback timestamp is too old or in the future")
	// ErrShopLocked: the shop is frozen or locked; retrying cannot help
	// until the merchant acts.
	ErrShopLocked = errors.New("the shop is frozen or locked")
	// ErrConnectionChanged: the connection a sync or a webhook was writing
	// for is gone (its shop moved to the account that proved it, or it was
	// disconnected or connected anew) since the work began; what it read
	// belongs to no one here any more.
	ErrConnectionChanged = errors.New("the shop's connection changed while its data was being written")
	// ErrNotGranted: the shop's token lacks the scope a read needs (e.g.
	// read_reports).
	ErrNotGranted = errors.New("access not granted")
)

// ValidationError is a client's mistake in one field: the platform's one
// type (validation.Error), so every service maps it to 400 the same way.
type ValidationError = validation.Error
