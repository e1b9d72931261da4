package sim

import (
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// AccountSpec is a GA4 account and the Google users who can read it.
type AccountSpec struct {
	ID          string   `json:"id"` // numeric, as Google's: accounts/{id}
	DisplayName string   `json:"displayName"`
	Users       []string `json:"users"` // emails; each must exist
}

// PropertySpec is a GA4 property of an account. Zero TimeZone/CurrencyCode
// give America/Los_Angeles and USD, GA4's defaults for a new property.
type PropertySpec struct {
	ID           string `json:"id"` // numeric: properties/{id}
	Account      string `json:"account"`
	DisplayName  string `json:"displayName"`
	TimeZone     string `json:"timeZone"`
	CurrencyCode string `json:"currencyCode"`
}

// Day is one property-time day of data. Money is in the property's currency
// (a float, as GA4 reports it).
type Day struct {
	Date             string  `json:"date"` // YYYY-MM-DD in the property's time zone
	Sessions         int64   `json:"sessions"`
	Purchases        int64   `json:"purchases"`        // purchase events: ecommercePurchases
	PurchaseSessions int64   `json:"purchaseSessions"` // sessions with a purchase; 0 = Purchases (one per session)
	Refunds          int64   `json:"refunds"`          // refund events: transactions counts them too
	KeyEvents        int64   `json:"keyEvents"`        // key events other than purchase (sign-ups…)
	KeyEventSessions int64   `json:"keyEventSessions"` // sessions with any key event; 0 = the purchase sessions
	Revenue          float64 `json:"revenue"`          // gross purchase revenue
	RefundAmount     float64 `json:"refundAmount"`
}

// Quality is what a property's reports say about their own accuracy.
type Quality struct {
	// Sampled makes every report sampled at this rate (0 < rate < 1): one
	// samplingMetadatas entry per date range. 0 = unsampled.
	SampleRate float64 `json:"sampleRate"`
	// ThresholdSessions, when > 0, withholds rows with fewer sessions and
	// sets subjectToThresholding.
	ThresholdSessions int64 `json:"thresholdSessions"`
	// OtherRow sets dataLossFromOtherRow.
	OtherRow bool `json:"otherRow"`
}

// Failure makes the next Count API calls (Admin or Data) fail with Code
// (429, 500, 503, 403 or 401) and Google's status for it.
type Failure struct {
	Code  int `json:"code"`
	Count int `json:"count"`
}

type account struct {
	spec  AccountSpec
	props []string // property ids in creation order
}

type property struct {
	spec    PropertySpec
	loc     *time.Location
	days    map[string]Day
	quality Quality
	quota   quota
}

var numericID = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)

// CreateUser adds a Google user who can consent to the OAuth client.
func (s *Server) CreateUser(email string) error {
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return fmt.Errorf("%w: %q is not an email address", ErrInvalid, email)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Contains(s.users, email) {
		return fmt.Errorf("%w: user %s", ErrExists, email)
	}
	s.users = append(s.users, email)
	return nil
}

// CreateAccount adds a GA4 account readable by its users.
func (s *Server) CreateAccount(a AccountSpec) error {
	if !numericID.MatchString(a.ID) || a.DisplayName == "" {
		return fmt.Errorf("%w: an account needs a numeric id and a displayName", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.accounts[a.ID] != nil {
		return fmt.Errorf("%w: account %s", ErrExists, a.ID)
	}
	for _, u := range a.Users {
		if !slices.Contains(s.users, u) {
			return fmt.Errorf("%w: user %s", ErrNotFound, u)
		}
	}
	s.accounts[a.ID] = &account{spec: a}
	return nil
}

// CreateProperty adds a GA4 property to an account.
func (s *Server) CreateProperty(p PropertySpec) error {
	if !numericID.MatchString(p.ID) || p.DisplayName == "" {
		return fmt.Errorf("%w: a property needs a numeric id and a displayName", ErrInvalid)
	}
	if p.TimeZone == "" {
		p.TimeZone = "America/Los_Angeles"
	}
	if p.CurrencyCode == "" {
		p.CurrencyCode = "USD"
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil || p.TimeZone == "Local" {
		return fmt.Errorf("%w: timeZone %q is not an IANA zone", ErrInvalid, p.TimeZone)
	}
	if !regexp.MustCompile(`^[A-Z]{3}$`).MatchString(p.CurrencyCode) {
		return fmt.Errorf("%w: currencyCode %q is not an ISO 4217 code", ErrInvalid, p.CurrencyCode)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acc := s.accounts[p.Account]
	if acc == nil {
		return fmt.Errorf("%w: account %s", ErrNotFound, p.Account)
	}
	if s.props[p.ID] != nil {
		return fmt.Errorf("%w: property %s", ErrExists, p.ID)
	}
	s.props[p.ID] = &property{spec: p, loc: loc, days: map[string]Day{}}
	acc.props = append(acc.props, p.ID)
	return nil
}

// SetDays sets (replaces) days of a property's data.
func (s *Server) SetDays(propertyID string, days []Day) error {
	for _, d := range days {
		if _, err := time.Parse(time.DateOnly, d.Date); err != nil {
			return fmt.Errorf("%w: date %q is not YYYY-MM-DD", ErrInvalid, d.Date)
		}
		if d.Sessions < 0 || d.Purchases < 0 || d.PurchaseSessions < 0 || d.Refunds < 0 || d.KeyEvents < 0 ||
			d.KeyEventSessions < 0 || d.Revenue < 0 || d.RefundAmount < 0 {
			return fmt.Errorf("%w: %s: counts and amounts must be >= 0", ErrInvalid, d.Date)
		}
		if d.purchaseSessions() > d.Sessions || d.keyEventSessions() > d.Sessions || d.PurchaseSessions > d.Purchases {
			return fmt.Errorf("%w: %s: purchaseSessions <= purchases, and sessions with a purchase or key event <= sessions", ErrInvalid, d.Date)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.props[propertyID]
	if p == nil {
		return fmt.Errorf("%w: property %s", ErrNotFound, propertyID)
	}
	for _, d := range days {
		p.days[d.Date] = d
	}
	return nil
}

// SetQuality sets a property's sampling, thresholding and (other)-row signals.
func (s *Server) SetQuality(propertyID string, q Quality) error {
	if q.SampleRate < 0 || q.SampleRate >= 1 || q.ThresholdSessions < 0 {
		return fmt.Errorf("%w: sampleRate in [0, 1), thresholdSessions >= 0", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.props[propertyID]
	if p == nil {
		return fmt.Errorf("%w: property %s", ErrNotFound, propertyID)
	}
	p.quality = q
	return nil
}

// FailNext queues a failure for the next API calls; failures queue in order.
func (s *Server) FailNext(f Failure) error {
	if _, ok := statusOf[f.Code]; !ok || f.Count <= 0 {
		return fmt.Errorf("%w: code must be 401, 403, 429, 500 or 503 and count > 0", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, f)
	return nil
}

// statusOf is Google's canonical status for each HTTP code the sim fails with.
var statusOf = map[int]string{
	401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
}

var failMessage = map[int]string{
	401: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
	403: "User does not have sufficient permissions for this property.",
	429: "Exhausted concurrent requests quota.",
	500: "Internal error encountered.",
	503: "The service is currently unavailable.",
}

// ExpireTokens ends every live access token now (refresh tokens stay valid),
// so a client's refresh path can be tested without waiting an hour.
func (s *Server) ExpireTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	now := s.now()
	for _, t := range s.tokens {
		if now.Before(t.expires) {
			t.expires = now
			n++
		}
	}
	return n
}

func (d Day) purchaseSessions() int64 {
	if d.PurchaseSessions == 0 {
		return d.Purchases
	}
	return d.PurchaseSessions
}

func (d Day) keyEventSessions() int64 {
	if d.KeyEventSessions == 0 {
		return d.purchaseSessions()
	}
	return d.KeyEventSessions
}

// canReadLocked reports whether a user may read a property: through its account.
func (s *Server) canReadLocked(user, propertyID string) bool {
	p := s.props[propertyID]
	return p != nil && slices.Contains(s.accounts[p.spec.Account].spec.Users, user)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// ExhaustQuota spends one of a property's quotas (a propertyQuota name) until
// its window rolls over, so every report on it fails with RESOURCE_EXHAUSTED.
func (s *Server) ExhaustQuota(propertyID, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.props[propertyID]
	if p == nil {
		return fmt.Errorf("%w: property %s", ErrNotFound, propertyID)
	}
	p.quota.roll(s.now())
	return p.quota.exhaust(name)
}
