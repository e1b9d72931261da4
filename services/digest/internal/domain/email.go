// Package domain holds the digest service's mail rules: which emails exist,
// how each is keyed so it is sent at most once per cause, and how a failed
// send is retried. It does no I/O.
package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors: input that can never become an email. Callers drop (and
// log) such a request instead of retrying it forever.
var (
	ErrInvalidAddress = errors.New("not a valid email address")
	ErrInvalidLink    = errors.New("not a valid http(s) link")
	ErrMissingID      = errors.New("an id is required")
)

// Kind names which email a row is; it picks the template.
type Kind string

// The transactional emails.
const (
	// KindWelcome greets a new store owner.
	KindWelcome Kind = "welcome"
	// KindEmailChanged tells the OLD address that the sign-in email changed,
	// so the owner hears of a change they did not make.
	KindEmailChanged Kind = "email_changed"
	// KindEmailConfirmed tells the NEW address it is now the sign-in email.
	KindEmailConfirmed Kind = "email_confirmed"
	// KindPasswordReset carries a password-reset link.
	KindPasswordReset Kind = "password_reset"
	// KindSignUpAttempt tells an account's address that someone tried to
	// sign up with it: sign-up no longer says so to whoever tries.
	KindSignUpAttempt Kind = "sign_up_attempt"
	// KindVerifyEmail carries the link that confirms a new account's
	// address: the first email of a web sign-up, whose welcome email the
	// spec suppresses.
	KindVerifyEmail Kind = "verify_email"
	// KindShopMoved tells an account's owner that their connected Shopify
	// shop was connected to another Uplift account (its owner approved
	// Uplift on Shopify for that one), so its numbers are no longer here.
	KindShopMoved Kind = "shop_moved"
)

// The emails a person may turn off (not transactional): each carries
// List-Unsubscribe headers and a footer link, and is not sent while its
// kind is suppressed for the user.
const (
	// KindAIDigest is the AI email digest sent on demand (sendAIEmailDigest).
	KindAIDigest Kind = "ai_digest"
	// KindWeeklyReview is the weekly website review, each Monday morning
	// in the store's time zone (WeeklyReviewReady).
	KindWeeklyReview Kind = "weekly_review"
	// KindDailyReport is the daily business report, each morning in the
	// store's time zone (DailyReportReady).
	KindDailyReport Kind = "daily_report"
)

// Unsubscribable reports whether k is an email a person may turn off.
// Transactional mail (welcome, email changed, password reset) never is.
func (k Kind) Unsubscribable() bool {
	switch k {
	case KindAIDigest, KindWeeklyReview, KindDailyReport:
		return true
	}
	return false
}

// Label is how the kind is named to people.
func (k Kind) Label() string {
	switch k {
	case KindAIDigest:
		return "AI email digest"
	case KindWeeklyReview:
		return "Weekly Website Review"
	case KindDailyReport:
		return "Daily Business Report"
	}
	return string(k)
}

// Status is where an email is in its life.
type Status string

// Statuses of an email row.
const (
	StatusPending Status = "pending"
	StatusSent    Status = "sent"
	// StatusFailed means retries were given up; the row stays for an
	// operator, who can set it back to pending.
	StatusFailed Status = "failed"
	// StatusSuppressed means the email was not sent because its recipient
	// turned its kind off before it went out.
	StatusSuppressed Status = "suppressed"
)

// Params are the values a template shows. Only the fields of the email's
// kind are set.
type Params struct {
	DisplayName string `json:"displayName,omitempty"`
	OldEmail    string `json:"oldEmail,omitempty"`
	NewEmail    string `json:"newEmail,omitempty"`
	// Link is a password-reset link: a secret until it expires, so it is
	// never logged and is removed from the row once the email is sent.
	Link string `json:"link,omitempty"`
	// Shop is the Shopify shop a shop-moved email names.
	Shop string `json:"shop,omitempty"`

	// The AI digest's content, as the categories service sent it.
	CategoryID string    `json:"categoryId,omitempty"`
	StoreName  string    `json:"storeName,omitempty"`
	SiteURL    string    `json:"siteUrl,omitempty"`
	Insights   []Insight `json:"insights,omitempty"`
	Ideas      []Idea    `json:"ideas,omitempty"`

	// The daily report's content (DailyReportReady), with the summary and
	// the action chosen when it was queued.
	Date       string         `json:"date,omitempty"`
	Currency   string         `json:"currency,omitempty"`
	Metrics    []ReportMetric `json:"metrics,omitempty"`
	Headline   string         `json:"headline,omitempty"`
	Notes      []string       `json:"notes,omitempty"`
	BestSeller string         `json:"bestSeller,omitempty"`
	Summary    string         `json:"summary,omitempty"`
	Action     string         `json:"action,omitempty"`

	// The daily report of a store without data (its idea is Ideas[0]).
	NoData *NoData `json:"noData,omitempty"`

	// The weekly website review's content (WeeklyReviewReady); its idea
	// is Ideas[0]. The lists are bounded, the counts are not.
	Week          string    `json:"week,omitempty"`
	Score         int       `json:"score,omitempty"`
	Band          string    `json:"band,omitempty"`
	PreviousScore *int      `json:"previousScore,omitempty"`
	NewFindings   []Finding `json:"newFindings,omitempty"`
	FixedFindings []Finding `json:"fixedFindings,omitempty"`
	OpenFindings  []Finding `json:"openFindings,omitempty"`
	TopFixes      []Finding `json:"topFixes,omitempty"`
	NewCount      int       `json:"newCount,omitempty"`
	FixedCount    int       `json:"fixedCount,omitempty"`
	OpenCount     int       `json:"openCount,omitempty"`
	// Failure is why this week's review could not read the website; Band
	// is then the last known score's (PreviousScore).
	Failure string `json:"failure,omitempty"`
	// First is the business's first review (WeeklyReview.First).
	First bool `json:"first,omitempty"`
}

// Insight is one insight an email shows.
type Insight struct {
	Text     string `json:"text"`
	Evidence string `json:"evidence,omitempty"`
}

// Idea is one campaign idea an email shows and links to.
type Idea struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Channel string `json:"channel,omitempty"`
	WhyNow  string `json:"whyNow,omitempty"`
}

// Email is one email to send and its sending state.
type Email struct {
	ID            int64
	Key           string
	Kind          Kind
	UserID        string
	To            string
	Params        Params
	Status        Status
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	SentAt        time.Time
	// TraceParent is the W3C traceparent of the request or event that
	// queued the email ("" for none), so its send joins that trace.
	TraceParent string
}

// Message is a rendered email, ready for a mailer.
type Message struct {
	// Key is the email's idempotency key; the mailer derives the
	// Message-ID from it so every attempt carries the same one.
	Key     string
	To      string
	Subject string
	Text    string
	HTML    string
	// Unsubscribe is the one-click unsubscribe URL for the List-Unsubscribe
	// header (RFC 8058); empty for transactional mail, which has none.
	Unsubscribe string
}

// maxNameRunes bounds a display name in copy; names come from sign-up forms.
const maxNameRunes = 80

// NewWelcome is the welcome email for a new user. Its key is the user id: a
// user is welcomed once, however often UserCreated is delivered.
func NewWelcome(userID, to, displayName string) (Email, error) {
	if strings.TrimSpace(userID) == "" {
		return Email{}, ErrMissingID
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	name := cleanName(displayName)
	if name == "" {
		name = strings.SplitN(addr, "@", 2)[0]
	}
	return pending("welcome:"+userID, KindWelcome, userID, addr, Params{DisplayName: name}), nil
}

// NewEmailChanged is the pair of emails for a change of sign-in email: a
// notice to the old address and a confirmation to the new one. The key
// includes when the change happened, so changing A→B, back to A and to B
// again notifies each time, while a repeat of the same change does not.
func NewEmailChanged(userID, oldEmail, newEmail string, at time.Time) (notice, confirmation Email, err error) {
	if strings.TrimSpace(userID) == "" {
		return Email{}, Email{}, ErrMissingID
	}
	oldAddr, err := ParseAddress(oldEmail)
	if err != nil {
		return Email{}, Email{}, fmt.Errorf("old email: %w", err)
	}
	newAddr, err := ParseAddress(newEmail)
	if err != nil {
		return Email{}, Email{}, fmt.Errorf("new email: %w", err)
	}
	suffix := userID + ":" + strings.ToLower(newAddr)
	if !at.IsZero() {
		suffix += ":" + at.UTC().Format(time.RFC3339Nano)
	}
	p := Params{OldEmail: oldAddr, NewEmail: newAddr}
	return pending("email-changed:"+suffix, KindEmailChanged, userID, oldAddr, p),
		pending("email-confirmed:"+suffix, KindEmailConfirmed, userID, newAddr, p), nil
}

// NewPasswordReset is a password-reset email. requestID names the request
// (one email per request); userID may be empty when the caller does not
// know it, in which case deleting the user does not reach this row.
func NewPasswordReset(requestID, userID, to, link string) (Email, error) {
	return linkEmail(requestID, "password-reset:", KindPasswordReset, userID, to, link)
}

// SignUpAttemptEvery is how often an address hears of sign-ups with it at
// most: the first try in each period is told, so a stranger repeating the
// sign-up cannot flood the owner's inbox.
const SignUpAttemptEvery = time.Hour

// NewSignUpAttempt is the notice that someone tried to sign up with to, the
// email of an existing account, at at; userID may be empty (an account with
// no stored user). One per address per SignUpAttemptEvery.
func NewSignUpAttempt(userID, to string, at time.Time) (Email, error) {
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	period := at.UTC().Truncate(SignUpAttemptEvery).Format(time.RFC3339)
	return pending("sign-up-attempt:"+strings.ToLower(addr)+":"+period, KindSignUpAttempt, userID, addr, Params{}), nil
}

// NewShopMoved is the notice to the owner userID (at to) that shop left
// their account at at, connected to another one: once per shop and move.
func NewShopMoved(userID, to, shop string, at time.Time) (Email, error) {
	if strings.TrimSpace(userID) == "" || strings.TrimSpace(shop) == "" {
		return Email{}, ErrMissingID
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	key := "shop-moved:" + strings.ToLower(shop) + ":" + userID + ":" + at.UTC().Format(time.RFC3339Nano)
	return pending(key, KindShopMoved, userID, addr, Params{Shop: shop}), nil
}

// NewEmailVerification is the email that confirms userID's new address
// with link (from the Firebase Admin SDK), once per account.
func NewEmailVerification(userID, to, link string) (Email, error) {
	return linkEmail(userID, "verify-email:", KindVerifyEmail, userID, to, link)
}

// linkEmail is an email whose point is one link (a reset, a verification),
// kept once per id under prefix+id.
func linkEmail(id, prefix string, kind Kind, userID, to, link string) (Email, error) {
	if strings.TrimSpace(id) == "" {
		return Email{}, ErrMissingID
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	if !isWebLink(link) {
		return Email{}, ErrInvalidLink
	}
	return pending(prefix+id, kind, userID, addr, Params{Link: link}), nil
}

// isWebLink reports whether link is an absolute http(s) address.
func isWebLink(link string) bool {
	u, err := url.Parse(link)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// Bounds on what one AI digest shows, so a huge request stays an email.
const (
	MaxDigestInsights = 10
	MaxDigestIdeas    = 10
	maxDigestTextRune = 600
)

// AIDigest is a request for the AI email digest of a category.
type AIDigest struct {
	CategoryID, OwnerUserID string
	StoreName, SiteURL      string
	Insights                []Insight
	Ideas                   []Idea
	// At is when it was requested; the email is keyed by its minute.
	At time.Time
}

// NewAIDigest is the AI digest email of d to the owner's address to. It is
// keyed by category and the minute of the request: a repeated request
// event queues nothing new.
func NewAIDigest(d AIDigest, to string) (Email, error) {
	if strings.TrimSpace(d.CategoryID) == "" || strings.TrimSpace(d.OwnerUserID) == "" {
		return Email{}, ErrMissingID
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	p := Params{CategoryID: d.CategoryID, StoreName: cleanName(d.StoreName), SiteURL: safeLink(d.SiteURL)}
	for _, in := range d.Insights {
		if len(p.Insights) == MaxDigestInsights {
			break
		}
		if t := clip(in.Text); t != "" {
			p.Insights = append(p.Insights, Insight{Text: t, Evidence: clip(in.Evidence)})
		}
	}
	for _, i := range d.Ideas {
		if len(p.Ideas) == MaxDigestIdeas {
			break
		}
		if i.ID != "" && url.PathEscape(i.ID) == i.ID && strings.TrimSpace(i.Title) != "" {
			p.Ideas = append(p.Ideas, Idea{ID: i.ID, Title: clip(i.Title), Channel: clip(i.Channel), WhyNow: clip(i.WhyNow)})
		}
	}
	key := "ai-digest:" + d.CategoryID + ":" + AIDigestMinute(d.At)
	return pending(key, KindAIDigest, d.OwnerUserID, addr, p), nil
}

// AIDigestMinute is the minute of a request as it appears in its key.
func AIDigestMinute(at time.Time) string { return at.UTC().Format("2006-01-02T15:04Z") }

// safeLink keeps an http(s) URL and drops anything else (javascript: …).
func safeLink(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	return u.String()
}

// clip folds whitespace and bounds a piece of copy.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxDigestTextRune {
		s = string([]rune(s)[:maxDigestTextRune]) + "…"
	}
	return s
}

func pending(key string, kind Kind, userID, to string, p Params) Email {
	return Email{Key: key, Kind: kind, UserID: userID, To: to, Params: p, Status: StatusPending}
}

// ParseAddress accepts a bare address ("a@b.co", no display name) and
// returns it trimmed; anything else, including header-breaking characters,
// is ErrInvalidAddress.
func ParseAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || !strings.Contains(s, "@") {
		return "", ErrInvalidAddress
	}
	return s, nil
}

// cleanName folds whitespace (a name is one line of copy) and bounds length.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxNameRunes {
		s = string([]rune(s)[:maxNameRunes]) + "…"
	}
	return s
}

// RetryPolicy says when a failed send is tried again: the delay doubles from
// Base up to Max, and after MaxAttempts the email is marked failed so a
// dead address does not retry forever (it stays in the table, not lost).
type RetryPolicy struct {
	Base, Max   time.Duration
	MaxAttempts int
}

// Delay is the wait after the attempts-th failed attempt (1-based).
func (p RetryPolicy) Delay(attempts int) time.Duration {
	d := p.Base
	for i := 1; i < attempts && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// MarkSent records a successful send and drops the secret link, which is
// of no use once delivered.
func (e *Email) MarkSent(now time.Time) {
	e.Status, e.SentAt, e.LastError = StatusSent, now, ""
	e.Attempts++
	e.Params.Link = ""
}

// MarkSuppressed records that the email was not sent because its kind is
// turned off for the recipient. It is final: turning the kind back on later
// does not send an old email.
func (e *Email) MarkSuppressed() {
	e.Status, e.LastError = StatusSuppressed, ""
}

// MarkFailed records a failed attempt and schedules the next one, or gives
// up after p.MaxAttempts. The error text is kept short, on one line and
// without the link, since operators read it in logs and the table.
func (e *Email) MarkFailed(now time.Time, cause error, p RetryPolicy) {
	e.Attempts++
	e.LastError = sanitize(cause.Error(), e.Params.Link)
	if p.MaxAttempts > 0 && e.Attempts >= p.MaxAttempts {
		e.Status = StatusFailed
		return
	}
	e.NextAttemptAt = now.Add(p.Delay(e.Attempts))
}

const maxErrorLen = 300

func sanitize(msg, secret string) string {
	if secret != "" {
		msg = strings.ReplaceAll(msg, secret, "[link]")
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) > maxErrorLen {
		msg = msg[:maxErrorLen]
	}
	return msg
}

// MessageID is the Message-ID header for the email keyed key, sent from
// host. It is the same on every attempt, so a copy resent after a lost
// server reply is recognisable as the same message, and it is a hash so the
// key's user id and address do not leak into mail headers.
func MessageID(key, host string) string {
	sum := sha256.Sum256([]byte(key))
	return "<" + hex.EncodeToString(sum[:16]) + "@" + host + ">"
}
