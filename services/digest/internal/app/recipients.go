package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/digest/internal/domain"
)

// ErrNoRecipient means the owner's address is not known (yet): the users
// service's events may still be on their way.
var ErrNoRecipient = errors.New("no known address for the category's owner")

// RecordRecipient keeps a user's address from UserCreated or
// UserEmailChanged, newest by at.
func (a *App) RecordRecipient(ctx context.Context, in RecipientStore, r domain.Recipient, at time.Time) error {
	if r.UserID == "" {
		return domain.ErrMissingID
	}
	addr, err := domain.ParseAddress(r.Email)
	if err != nil {
		return err
	}
	r.Email = addr
	return in.SetRecipient(ctx, r, at)
}

// ForgetRecipient removes what is kept of a deleted user.
func (a *App) ForgetRecipient(ctx context.Context, in RecipientStore, userID string) error {
	return in.ForgetRecipient(ctx, userID)
}

// ApplyStore keeps the newest snapshot of a category (CategoryUpdated) and
// turns a change of its email switches into the owner's suppressions.
func (a *App) ApplyStore(ctx context.Context, in RecipientStore, s domain.Store) error {
	if s.CategoryID == "" {
		return domain.ErrMissingID
	}
	prev, applied, err := in.ApplyStore(ctx, s)
	if err != nil || !applied {
		return err
	}
	for _, sup := range domain.ProfileSuppressions(prev, s) {
		if _, err := in.SetSuppression(ctx, sup); err != nil {
			return err
		}
	}
	if s.OwnerUserID != "" {
		// The owner's category, for EmailKindUnsubscribed; no address here.
		if err := in.SetRecipient(ctx, domain.Recipient{UserID: s.OwnerUserID, CategoryID: s.CategoryID}, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// UnsubscribeAll turns every non-transactional email off for a user
// (UserUnsubscribed: the spec's unsubscribe call).
func (a *App) UnsubscribeAll(ctx context.Context, in RecipientStore, userID string, at time.Time) error {
	if userID == "" {
		return domain.ErrMissingID
	}
	for _, k := range []domain.Kind{domain.KindAIDigest, domain.KindWeeklyReview, domain.KindDailyReport} {
		if _, err := in.SetSuppression(ctx, domain.Suppression{UserID: userID, Kind: k, Suppressed: true, At: at,
			Source: domain.SourceUnsubscribeAll}); err != nil {
			return err
		}
	}
	return nil
}

// DigestOutbox is where an AI digest is queued: the event's transaction,
// which also knows the recipients.
type DigestOutbox interface {
	Outbox
	RecipientStore
}

// QueueAIDigest queues the AI email digest of a request to the category's
// owner, keyed by category and minute. ErrNoRecipient when the owner's
// address is not known.
func (a *App) QueueAIDigest(ctx context.Context, out DigestOutbox, d domain.AIDigest) error {
	if d.CategoryID == "" {
		return domain.ErrMissingID
	}
	owner, r, err := ownerRecipient(ctx, out, d.CategoryID, d.OwnerUserID)
	if err != nil {
		return err
	}
	d.OwnerUserID = owner
	e, err := domain.NewAIDigest(d, r.Email)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// QueueDailyReport queues the daily business report of a store to the
// category's owner, keyed by category and day, with the store's name from
// its newest snapshot. ErrNoRecipient when the owner's address is not
// known; domain.ErrNothingToReport (nothing queued) for a report without
// data. Whether the owner turned the report off (the business profile's
// switch or an unsubscribe) is checked when it is sent, so a suppressed
// report is kept in the send log as suppressed.
func (a *App) QueueDailyReport(ctx context.Context, out DigestOutbox, r domain.DailyReport) error {
	if r.CategoryID == "" {
		return domain.ErrMissingID
	}
	if r.Status != domain.ReportReady {
		return domain.ErrNothingToReport
	}
	owner, rc, err := ownerRecipient(ctx, out, r.CategoryID, "")
	if err != nil {
		return err
	}
	if r.StoreName, err = out.StoreName(ctx, r.CategoryID); err != nil {
		return err
	}
	r.OwnerUserID = owner
	e, err := domain.NewDailyReport(r, rc.Email)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// QueueDailyReportWithoutData queues the daily report of a store without
// store data to the category's owner, keyed like the report with data.
// ErrNoRecipient when the owner's address is not known.
func (a *App) QueueDailyReportWithoutData(ctx context.Context, out DigestOutbox, r domain.DailyReportWithoutData) error {
	if r.CategoryID == "" {
		return domain.ErrMissingID
	}
	owner, rc, err := ownerRecipient(ctx, out, r.CategoryID, r.OwnerUserID)
	if err != nil {
		return err
	}
	r.OwnerUserID = owner
	if name, err := out.StoreName(ctx, r.CategoryID); err != nil {
		return err
	} else if name != "" {
		r.StoreName = name
	}
	e, err := domain.NewDailyReportWithoutData(r, rc.Email)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// QueueWeeklyReview queues the weekly website review email of a store to
// the category's owner (the event's, else the stored store's), keyed by
// category and week, with the store's newest name. ErrNoRecipient when the
// owner's address is not known. Whether the owner turned the weekly email
// off is checked when it is sent, so a suppressed one stays in the send log.
func (a *App) QueueWeeklyReview(ctx context.Context, out DigestOutbox, w domain.WeeklyReview) error {
	if w.CategoryID == "" {
		return domain.ErrMissingID
	}
	owner, rc, err := ownerRecipient(ctx, out, w.CategoryID, w.OwnerUserID)
	if err != nil {
		return err
	}
	w.OwnerUserID = owner
	if name, err := out.StoreName(ctx, w.CategoryID); err != nil {
		return err
	} else if name != "" {
		w.StoreName = name
	}
	e, err := domain.NewWeeklyReview(w, rc.Email)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// ChangeSubscription applies an unsubscribe link's token: off turns its
// kind off for its user, !off back on. It returns what the token allowed;
// domain.ErrTokenInvalid or domain.ErrTokenExpired refuse the link.
func (a *App) ChangeSubscription(ctx context.Context, token string, off bool) (domain.Unsubscription, error) {
	u, err := a.tokens.Verify(token, a.now())
	if err != nil {
		return domain.Unsubscription{}, err
	}
	source := domain.SourceOneClick
	if !off {
		source = domain.SourceResubscribe
	}
	changed, err := a.store.ChangeSubscription(ctx, domain.Suppression{UserID: u.UserID, Kind: u.Kind, Suppressed: off,
		At: a.now(), Source: source})
	if err != nil {
		return domain.Unsubscription{}, fmt.Errorf("change subscription: %w", err)
	}
	a.log.InfoContext(ctx, "email subscription changed", "user", u.UserID, "kind", u.Kind, "off", off, "changed", changed)
	return u, nil
}

// ShopMoved is the ShopifyShopMoved event: shop left the account
// CategoryID at At for another account.
type ShopMoved struct {
	CategoryID, Shop string
	At               time.Time
}

// QueueShopMoved queues the notice to the owner of the account the shop
// left, once per move; ErrNoRecipient when the owner's address is not
// known (yet).
func (a *App) QueueShopMoved(ctx context.Context, out DigestOutbox, s ShopMoved) error {
	if s.CategoryID == "" {
		return domain.ErrMissingID
	}
	owner, rc, err := ownerRecipient(ctx, out, s.CategoryID, "")
	if err != nil {
		return err
	}
	e, err := domain.NewShopMoved(owner, rc.Email, s.Shop, s.At)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// ownerRecipient is the owner of categoryID (owner when the event named
// them, else the stored one) and their address; ErrNoRecipient while
// either is not known (yet).
func ownerRecipient(ctx context.Context, in RecipientStore, categoryID, owner string) (string, domain.Recipient, error) {
	if owner == "" {
		var err error
		if owner, err = in.CategoryOwner(ctx, categoryID); err != nil {
			return "", domain.Recipient{}, err
		}
	}
	if owner == "" {
		return "", domain.Recipient{}, ErrNoRecipient
	}
	rc, ok, err := in.Recipient(ctx, owner)
	if err != nil {
		return "", domain.Recipient{}, err
	}
	if !ok {
		return "", domain.Recipient{}, ErrNoRecipient
	}
	return owner, rc, nil
}
