package app

import (
	"context"
	"crypto/subtle"
	"errors"
	"sync"
	"time"

	"uplift.dev/stores/internal/domain"
)

// refreshAhead is how long before expiry an access token is refreshed, so a
// long bulk download never starts with a token about to lapse.
const refreshAhead = 5 * time.Minute

// tokenLocks serialises refreshes per category within this process; across
// replicas Shopify keeps the previous refresh token valid until the new one
// is used, so a rare double refresh is harmless.
type tokenLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func newTokenLocks() *tokenLocks { return &tokenLocks{locks: map[string]*sync.Mutex{}} }

func (l *tokenLocks) lock(key string) func() {
	l.mu.Lock()
	m, ok := l.locks[key]
	if !ok {
		m = &sync.Mutex{}
		l.locks[key] = m
	}
	l.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// tokenSource gives a shop client the category's current access token,
// refreshing expiring ones and, after a 401, rejected ones.
type tokenSource struct {
	a          *App
	categoryID string
}

// Token implements TokenSource.
func (t tokenSource) Token(ctx context.Context) (string, error) {
	conn, access, err := t.current(ctx)
	if err != nil {
		return "", err
	}
	exp := conn.Tokens.AccessExpiresAt
	if !exp.IsZero() && t.a.now().Add(refreshAhead).After(exp) && len(conn.Tokens.Refresh) > 0 {
		return t.Refreshed(ctx, access)
	}
	return access, nil
}

// Refreshed implements TokenSource.
func (t tokenSource) Refreshed(ctx context.Context, rejected string) (string, error) {
	defer t.a.tokens.lock(t.categoryID)()
	conn, access, err := t.current(ctx)
	if err != nil {
		return "", err
	}
	if access != rejected {
		return access, nil // another call refreshed it meanwhile
	}
	if len(conn.Tokens.Refresh) == 0 {
		return "", errors.New("shopify rejected a token that cannot be refreshed")
	}
	refresh, err := t.a.sealer.Open(conn.Tokens.Refresh)
	if err != nil {
		return "", err
	}
	tok, err := t.a.shopify.Refresh(ctx, conn.Shop, refresh)
	if err != nil {
		return "", err
	}
	if len(tok.Scopes) == 0 {
		tok.Scopes = conn.Tokens.Scopes
	}
	sealed, err := t.a.seal(tok)
	if err != nil {
		return "", err
	}
	if err := t.a.repo.SaveTokens(ctx, t.categoryID, sealed); err != nil {
		return "", err
	}
	t.a.log.InfoContext(ctx, "shopify token refreshed", "category", t.categoryID, "shop", conn.Shop)
	return tok.Access, nil
}

func (t tokenSource) current(ctx context.Context) (*Connection, string, error) {
	conn, err := t.a.repo.Connection(ctx, t.categoryID)
	if err != nil {
		return nil, "", err
	}
	if conn == nil || conn.Status != StatusConnected || len(conn.Tokens.Access) == 0 {
		return nil, "", domain.ErrNotConnected
	}
	access, err := t.a.sealer.Open(conn.Tokens.Access)
	if err != nil {
		return nil, "", err
	}
	return conn, access, nil
}

func constantEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
