package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"uplift.dev/stores/internal/domain"
)

// Connecting Google Analytics 4 (../shared/research/ga4.md §3, §4): the
// owner starts on Connections (StartGA4Connect, a one-use state bound to
// them and the category, with a PKCE verifier kept sealed beside it); the
// gateway binds the state to the browser with a cookie and sends it to
// Google (AuthorizeGA4); Google sends it back to the gateway's callback
// (CompleteGA4Connect), which checks the cookie, uses the state up,
// exchanges the code with the verifier and seals the refresh token. Then
// the owner picks a property (ListGA4Properties, SelectGA4Property) and
// the sync worker reads its days (GA4SyncRound).

// GA4Scope is the one scope asked for: read-only Analytics.
const GA4Scope = "https://www.googleapis.com/auth/analytics.readonly"

// ga4ReadScopes are the granted scopes that let Uplift read reports.
var ga4ReadScopes = []string{GA4Scope, "https://www.googleapis.com/auth/analytics"}

// GA4 connection statuses.
const (
	GA4PickProperty = "PICK_PROPERTY"
	GA4Connected    = "CONNECTED"
	GA4Reauthorize  = "REAUTHORIZE"
	GA4Disconnected = "DISCONNECTED"
)

// ErrGoogleGrant is Google's invalid_grant: the code or refresh token is
// spent, expired or revoked.
var ErrGoogleGrant = errors.New("google refused the grant")

// GoogleAPIError is an Admin or Data API error as Google gives it.
type GoogleAPIError struct {
	HTTPStatus      int
	Status, Message string
}

func (e *GoogleAPIError) Error() string {
	return fmt.Sprintf("google api: %d %s: %s", e.HTTPStatus, e.Status, e.Message)
}

// GoogleToken is a token endpoint answer.
type GoogleToken struct {
	Access, Refresh string
	Scopes          []string
}

// GA4Property is a property the Google user can read.
type GA4Property struct {
	ID, Name, Account string
}

// GA4Row is one day of a report: GA4's date (YYYYMMDD, property time).
type GA4Row struct {
	Date                string
	Sessions, Purchases int64
}

// GA4Report is a runReport answer reduced to what is kept.
type GA4Report struct {
	TimeZone, Currency   string
	Sampled, Thresholded bool
	Rows                 []GA4Row
}

// Google is the part of Google that connecting and reading GA4 needs.
type Google interface {
	AuthorizeURL(state, verifier, redirectURI string) string
	ExchangeCode(ctx context.Context, code, verifier, redirectURI string) (GoogleToken, error)
	// Refresh gives a new access token, or ErrGoogleGrant.
	Refresh(ctx context.Context, refreshToken string) (string, error)
	Revoke(ctx context.Context, token string) error
	Properties(ctx context.Context, access string) ([]GA4Property, error)
	Report(ctx context.Context, access, propertyID, from, to string) (GA4Report, error)
}

// GA4State is a started GA4 connection; Verifier is sealed.
type GA4State struct {
	State, CategoryID, UserID string
	Verifier                  []byte
	CreatedAt, ExpiresAt      time.Time
}

// GA4Connection is a category's GA4 connection.
type GA4Connection struct {
	CategoryID, Status string
	// RefreshToken is sealed; nil once disconnected.
	RefreshToken                                                 []byte
	Scopes                                                       []string
	PropertyID, PropertyName, PropertyTimezone, PropertyCurrency string
	SessionsSource                                               domain.SessionsSource
	ConnectedBy                                                  string
	ConnectedAt                                                  time.Time
	Backfilled                                                   bool
	Attempts                                                     int
	LastRefreshedAt, QuotaUntil                                  *time.Time
	Sampled, Thresholded                                         bool
	Error                                                        string
}

// GA4Day is one stored GA4 day.
type GA4Day struct {
	Day                 domain.Date
	Sessions, Purchases int64
}

// GA4Repository stores GA4 connections, their states and days. Every
// method is one transaction.
type GA4Repository interface {
	CreateGA4State(ctx context.Context, st GA4State) error
	// UseGA4State marks a live, unused state used and returns it, or
	// domain.ErrNotFound: one UPDATE, so a replay cannot win.
	UseGA4State(ctx context.Context, state string, now time.Time) (GA4State, error)
	// GA4State returns a live, unused state, or domain.ErrNotFound.
	GA4State(ctx context.Context, state string, now time.Time) (GA4State, error)
	// ConnectGA4 stores a consent (status PICK_PROPERTY), keeping the
	// property chosen before, if any, which is then refreshed at once.
	ConnectGA4(ctx context.Context, c GA4Connection) error
	GA4Connection(ctx context.Context, categoryID string) (*GA4Connection, error)
	// SelectGA4Property sets the property and the sessions source; a new
	// property forgets the old one's days and reads everything again.
	SelectGA4Property(ctx context.Context, categoryID string, p GA4Property, source domain.SessionsSource, now time.Time) error
	RequestGA4Sync(ctx context.Context, categoryID string, now time.Time) error
	DisconnectGA4(ctx context.Context, categoryID string) error
	// ClaimGA4Sync takes one due refresh for lease (FOR UPDATE SKIP
	// LOCKED: copies share the work); nil when none is due.
	ClaimGA4Sync(ctx context.Context, now time.Time, lease time.Duration) (*GA4Connection, error)
	// SaveGA4Days writes a refresh's days and its outcome, unless the
	// connection changed (domain.ErrConnectionChanged).
	SaveGA4Days(ctx context.Context, categoryID string, connectedAt time.Time, propertyID string, r GA4Report, days []GA4Day, at, next time.Time) error
	// FailGA4Sync records a failed refresh, due again at retry; status
	// REAUTHORIZE when Google refused the token; quotaUntil while GA4's
	// quota is spent.
	FailGA4Sync(ctx context.Context, categoryID string, connectedAt time.Time, status, message string, quotaUntil *time.Time, retry time.Time) error
	// GA4Days returns the stored days of [from, to] and the connection
	// they come from (nil when the category has no GA4 property).
	GA4Days(ctx context.Context, categoryID string, from, to domain.Date) (*GA4Connection, []GA4Day, error)
}

// GA4Options are the GA4 settings of the use cases.
type GA4Options struct {
	// AuthorizeURL is the gateway route that binds the state to the
	// browser; CallbackURL is Google's redirect_uri (the gateway).
	AuthorizeURL, CallbackURL string
	// RefreshEvery is how often a property's days are read again; 0 is an hour.
	RefreshEvery time.Duration
}

type ga4 struct {
	google Google
	repo   GA4Repository
	opts   GA4Options
}

// WithGA4 returns the use cases able to connect Google Analytics 4.
func (a *App) WithGA4(google Google, repo GA4Repository, opts GA4Options) *App {
	if opts.RefreshEvery <= 0 {
		opts.RefreshEvery = time.Hour
	}
	c := *a
	c.ga4 = &ga4{google: google, repo: repo, opts: opts}
	return &c
}

var errNoGA4 = errors.New("google analytics 4 is not configured")

// ErrGA4NotConnected: the call needs a GA4 connection and there is none.
var ErrGA4NotConnected = fmt.Errorf("%w: google analytics 4", domain.ErrNotConnected)

// ErrGA4Reauthorize: Google no longer accepts the token; reconnect.
var ErrGA4Reauthorize = errors.New("google no longer accepts uplift's access")

// newVerifier is a PKCE code verifier: 32 random bytes, 43 characters
// (RFC 7636 §4.1).
func newVerifier() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// StartGA4Connect issues a one-use state bound to the caller and the
// category, with a fresh PKCE verifier, and returns the gateway route that
// goes on to Google.
func (a *App) StartGA4Connect(ctx context.Context, caller domain.Caller, categoryID string) (string, error) {
	if a.ga4 == nil {
		return "", errNoGA4
	}
	if err := a.authorize(ctx, categoryID); err != nil {
		return "", err
	}
	state, err := newState()
	if err != nil {
		return "", err
	}
	verifier, err := newVerifier()
	if err != nil {
		return "", err
	}
	sealed, err := a.sealer.Seal(verifier)
	if err != nil {
		return "", err
	}
	now := a.now()
	if err := a.ga4.repo.CreateGA4State(ctx, GA4State{State: state, CategoryID: categoryID, UserID: caller.UID,
		Verifier: sealed, CreatedAt: now, ExpiresAt: now.Add(a.opts.StateTTL)}); err != nil {
		return "", err
	}
	return a.ga4.opts.AuthorizeURL + "?" + url.Values{"state": {state}}.Encode(), nil
}

// AuthorizeGA4 returns Google's consent page for a live state.
func (a *App) AuthorizeGA4(ctx context.Context, state string) (string, error) {
	if a.ga4 == nil {
		return "", errNoGA4
	}
	st, err := a.ga4.repo.GA4State(ctx, state, a.now())
	if err != nil {
		return "", err
	}
	verifier, err := a.sealer.Open(st.Verifier)
	if err != nil {
		return "", err
	}
	return a.ga4.google.AuthorizeURL(st.State, verifier, a.ga4.opts.CallbackURL), nil
}

// CompleteGA4Connect checks Google's callback and stores the consent. It
// always returns where to send the browser: Connections, with success or a
// message for people; only failures of our own are errors.
func (a *App) CompleteGA4Connect(ctx context.Context, rawQuery, browserState string) (string, error) {
	if a.ga4 == nil {
		return "", errNoGA4
	}
	q, _ := url.ParseQuery(rawQuery)
	if e := q.Get("error"); e != "" {
		if e == "access_denied" {
			return a.ga4Result("You did not allow Uplift to read Google Analytics. Nothing was changed."), nil
		}
		return a.ga4Result("Google did not complete the connection. Please start again."), nil
	}
	state, code := q.Get("state"), q.Get("code")
	if state == "" || code == "" {
		return a.ga4Result("We could not verify the answer from Google. Please start again."), nil
	}
	if browserState == "" || !constantEqual(browserState, state) {
		a.log.WarnContext(ctx, "ga4 callback refused: state not bound to this browser")
		return a.ga4Result("This connection was started in another browser or has expired. Please start again from Connections."), nil
	}
	st, err := a.ga4.repo.UseGA4State(ctx, state, a.now())
	if errors.Is(err, domain.ErrNotFound) {
		a.log.WarnContext(ctx, "ga4 callback refused: unknown, used or expired state")
		return a.ga4Result("This connection link has expired or was already used. Please start again from Connections."), nil
	}
	if err != nil {
		return "", err
	}
	verifier, err := a.sealer.Open(st.Verifier)
	if err != nil {
		return "", err
	}
	tok, err := a.ga4.google.ExchangeCode(ctx, code, verifier, a.ga4.opts.CallbackURL)
	if err != nil {
		a.log.WarnContext(ctx, "ga4 code exchange failed", "category", st.CategoryID, "err", err)
		return a.ga4Result("Google did not confirm the connection. Please start again."), nil
	}
	if !slices.ContainsFunc(tok.Scopes, func(s string) bool { return slices.Contains(ga4ReadScopes, s) }) {
		_ = a.ga4.google.Revoke(ctx, tok.Access)
		return a.ga4Result("Uplift needs permission to see your Google Analytics data. Please connect again and leave that box ticked."), nil
	}
	if tok.Refresh == "" {
		a.log.WarnContext(ctx, "ga4 consent without a refresh token", "category", st.CategoryID)
		return a.ga4Result("Google did not give Uplift lasting access. Please connect again."), nil
	}
	sealed, err := a.sealer.Seal(tok.Refresh)
	if err != nil {
		return "", err
	}
	if err := a.ga4.repo.ConnectGA4(ctx, GA4Connection{CategoryID: st.CategoryID, Status: GA4PickProperty,
		RefreshToken: sealed, Scopes: tok.Scopes, ConnectedBy: st.UserID, ConnectedAt: a.now()}); err != nil {
		return "", err
	}
	a.log.InfoContext(ctx, "ga4 connected", "category", st.CategoryID)
	return a.opts.WebURL + "/connections?ga4=connected", nil
}

func (a *App) ga4Result(message string) string {
	return a.opts.WebURL + "/connections?" + url.Values{"ga4": {"error"}, "message": {message}}.Encode()
}

// GA4Connection returns the category's GA4 connection, nil if none.
func (a *App) GA4Connection(ctx context.Context, categoryID string) (*GA4Connection, error) {
	if a.ga4 == nil {
		return nil, nil
	}
	if err := a.authorize(ctx, categoryID); err != nil {
		return nil, err
	}
	return a.ga4.repo.GA4Connection(ctx, categoryID)
}

// liveGA4 is the category's connection holding a refresh token, or
// ErrGA4NotConnected.
func (a *App) liveGA4(ctx context.Context, categoryID string) (*GA4Connection, error) {
	if a.ga4 == nil {
		return nil, errNoGA4
	}
	c, err := a.GA4Connection(ctx, categoryID)
	if err != nil {
		return nil, err
	}
	if c == nil || c.Status == GA4Disconnected || c.RefreshToken == nil {
		return nil, ErrGA4NotConnected
	}
	return c, nil
}

// accessToken asks Google for a fresh access token; a refused refresh
// token marks the connection for reconnecting.
func (a *App) accessToken(ctx context.Context, c *GA4Connection) (string, error) {
	refresh, err := a.sealer.Open(c.RefreshToken)
	if err != nil {
		return "", err
	}
	access, err := a.ga4.google.Refresh(ctx, refresh)
	if errors.Is(err, ErrGoogleGrant) {
		return "", ErrGA4Reauthorize
	}
	return access, err
}

// ListGA4Properties lists what the connected Google user can read.
func (a *App) ListGA4Properties(ctx context.Context, categoryID string) ([]GA4Property, error) {
	c, err := a.liveGA4(ctx, categoryID)
	if err != nil {
		return nil, err
	}
	access, err := a.accessToken(ctx, c)
	if errors.Is(err, ErrGA4Reauthorize) {
		if ferr := a.ga4.repo.FailGA4Sync(ctx, categoryID, c.ConnectedAt, GA4Reauthorize, reauthorizeMessage, nil, a.now()); ferr != nil {
			return nil, ferr
		}
	}
	if err != nil {
		return nil, err
	}
	return a.ga4.google.Properties(ctx, access)
}

// reauthorizeMessage is what the card says when Google refused the token.
const reauthorizeMessage = "Google no longer accepts Uplift's access (it was revoked or expired). Reconnect to go on."

// SelectGA4Property checks the property is one the Google user can read,
// stores the choice and asks for a refresh now.
func (a *App) SelectGA4Property(ctx context.Context, categoryID, propertyID, source string) (*GA4Connection, error) {
	if !validPropertyID(propertyID) {
		return nil, &domain.ValidationError{Field: "propertyId", Message: "propertyId must be a GA4 property's number, like 420000001."}
	}
	src := domain.SessionsSource(source)
	if src != domain.SessionsNone && src != domain.SessionsGA4 && src != domain.SessionsShopify {
		return nil, &domain.ValidationError{Field: "sessionsSource", Message: `sessionsSource must be "ga4" or "shopify".`}
	}
	props, err := a.ListGA4Properties(ctx, categoryID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(props, func(p GA4Property) bool { return p.ID == propertyID })
	if i < 0 {
		return nil, &domain.ValidationError{Field: "propertyId", Message: "This Google account cannot read that property."}
	}
	if src == domain.SessionsNone {
		if c, err := a.ga4.repo.GA4Connection(ctx, categoryID); err == nil && c != nil && c.PropertyID != "" {
			src = c.SessionsSource
		} else if shop, err := a.repo.Connection(ctx, categoryID); err == nil && shop != nil && shop.Status == StatusConnected && shop.SessionsAvailable {
			src = domain.SessionsShopify
		} else {
			src = domain.SessionsGA4
		}
	}
	if err := a.ga4.repo.SelectGA4Property(ctx, categoryID, props[i], src, a.now()); err != nil {
		return nil, err
	}
	return a.ga4.repo.GA4Connection(ctx, categoryID)
}

func validPropertyID(id string) bool {
	if len(id) == 0 || len(id) > 18 || id[0] == '0' {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// SyncGA4 asks for a refresh now.
func (a *App) SyncGA4(ctx context.Context, categoryID string) error {
	c, err := a.liveGA4(ctx, categoryID)
	if err != nil {
		return err
	}
	if c.PropertyID == "" {
		return &domain.ValidationError{Field: "propertyId", Message: "Pick a Google Analytics 4 property first."}
	}
	return a.ga4.repo.RequestGA4Sync(ctx, categoryID, a.now())
}

// DisconnectGA4 revokes Uplift's access at Google (the whole grant) and
// forgets the token; the days read stay. A revoke Google cannot be
// reached for is an error, so the owner is never told access ended when
// it did not.
func (a *App) DisconnectGA4(ctx context.Context, categoryID string) error {
	c, err := a.liveGA4(ctx, categoryID)
	if err != nil {
		return err
	}
	refresh, err := a.sealer.Open(c.RefreshToken)
	if err != nil {
		return err
	}
	if err := a.ga4.google.Revoke(ctx, refresh); err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	return a.ga4.repo.DisconnectGA4(ctx, categoryID)
}

// GA4SyncRound runs at most one due GA4 refresh: the property's days by
// date, in its own zone. RESOURCE_EXHAUSTED waits for the quota's window;
// a refused token asks the owner to reconnect; other failures are tried
// again with backoff.
func (a *App) GA4SyncRound(ctx context.Context) error {
	if a.ga4 == nil {
		return nil
	}
	c, err := a.ga4.repo.ClaimGA4Sync(ctx, a.now(), a.opts.SyncLease)
	if err != nil || c == nil {
		return err
	}
	err = a.ga4Sync(ctx, c)
	if err == nil || errors.Is(err, domain.ErrConnectionChanged) {
		return nil
	}
	now := a.now()
	var api *GoogleAPIError
	switch {
	case errors.Is(err, ErrGA4Reauthorize):
		a.log.WarnContext(ctx, "ga4 refresh token refused", "category", c.CategoryID)
		return a.ga4.repo.FailGA4Sync(ctx, c.CategoryID, c.ConnectedAt, GA4Reauthorize, reauthorizeMessage, nil, now)
	case errors.As(err, &api) && api.Status == "RESOURCE_EXHAUSTED":
		until := domain.QuotaRetry(now, api.Message)
		a.log.WarnContext(ctx, "ga4 quota exhausted", "category", c.CategoryID, "until", until, "message", api.Message)
		return a.ga4.repo.FailGA4Sync(ctx, c.CategoryID, c.ConnectedAt, GA4Connected,
			"Google Analytics' request quota for this property is used up; Uplift will read it again after "+until.UTC().Format("15:04 MST")+".",
			&until, until)
	case errors.As(err, &api) && api.Status == "PERMISSION_DENIED":
		a.log.WarnContext(ctx, "ga4 property not readable", "category", c.CategoryID, "property", c.PropertyID, "err", err)
		return a.ga4.repo.FailGA4Sync(ctx, c.CategoryID, c.ConnectedAt, GA4Connected,
			"This Google account can no longer read property "+c.PropertyName+". Pick another property or reconnect.", nil,
			now.Add(a.ga4.opts.RefreshEvery))
	}
	a.log.WarnContext(ctx, "ga4 refresh failed", "category", c.CategoryID, "err", err)
	wait := time.Duration(1<<min(c.Attempts, 8)) * 30 * time.Second
	return a.ga4.repo.FailGA4Sync(ctx, c.CategoryID, c.ConnectedAt, GA4Connected,
		"The last refresh from Google Analytics failed; it will be tried again.", nil, now.Add(wait))
}

func (a *App) ga4Sync(ctx context.Context, c *GA4Connection) error {
	access, err := a.accessToken(ctx, c)
	if err != nil {
		return err
	}
	loc := StoreLocation(c.PropertyTimezone)
	from, to := domain.GA4Window(a.now(), loc, c.Backfilled)
	rep, err := a.ga4.google.Report(ctx, access, c.PropertyID, from.String(), to.String())
	if err != nil {
		return err
	}
	if rep.TimeZone != "" && rep.TimeZone != c.PropertyTimezone && c.PropertyTimezone != "" {
		// The property's zone changed since the window was worked out: the
		// days asked for are GA4's own, so they stand; the next round asks
		// in the new zone.
		a.log.InfoContext(ctx, "ga4 property time zone changed", "category", c.CategoryID, "from", c.PropertyTimezone, "to", rep.TimeZone)
	}
	days, err := ga4Days(rep, from, to)
	if err != nil {
		return err
	}
	now := a.now()
	a.log.InfoContext(ctx, "ga4 refreshed", "category", c.CategoryID, "property", c.PropertyID, "days", len(days), "from", from, "to", to)
	return a.ga4.repo.SaveGA4Days(ctx, c.CategoryID, c.ConnectedAt, c.PropertyID, rep, days, now, now.Add(a.ga4.opts.RefreshEvery))
}

// ga4Days turns a report's rows into days. GA4 leaves out days with no
// data even with keepEmptyRows (§1, the simulator's choice): from the
// first day it reported to the window's end, a missing day had no
// sessions, unless GA4 says it withheld rows (thresholding), in which
// case a missing day stays unknown rather than zero.
func ga4Days(rep GA4Report, from, to domain.Date) ([]GA4Day, error) {
	got := map[domain.Date]GA4Row{}
	var first *domain.Date
	for _, r := range rep.Rows {
		d, err := domain.ParseGA4Date(r.Date)
		if err != nil {
			return nil, err
		}
		if d.Before(from) || d.After(to) {
			continue
		}
		got[d] = r
		if first == nil || d.Before(*first) {
			first = &d
		}
	}
	if first == nil {
		return nil, nil
	}
	var out []GA4Day
	for d := *first; !d.After(to); d = d.AddDays(1) {
		r, ok := got[d]
		if !ok && rep.Thresholded {
			continue
		}
		out = append(out, GA4Day{Day: d, Sessions: r.Sessions, Purchases: r.Purchases})
	}
	return out, nil
}
