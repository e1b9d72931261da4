// Package categoryaccess asks the categories service whether the caller may
// act on a category (CheckCategoryAccess, with the caller's own token: the
// categories service owns that rule, the owner or an uplifter on their
// behalf) and remembers each yes for a few seconds, so a page that makes
// several calls on one category asks once.
//
// It is the one client of that check for stores, studio and the gateway. It
// lives in the proto module, beside the generated code it wraps, because
// every one of them already imports that module and none may import
// another service's, and the platform kit must not know a service's API.
//
// A remembered yes is dropped when it expires (TTL), and at once when an
// event says the answer may have changed: the category changed
// (CategoryUpdated, e.g. a new owner) or an operator granted or revoked a
// user's role (UserRoleChanged). Each copy of a program subscribes itself
// (platform/events.Listen), so every copy forgets.
package categoryaccess

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
)

// Refusals; callers map them to their own domain errors. The error Check
// returns is one of them (errors.Is) and still carries the categories
// service's status, so a caller that answers with it (the gateway) says
// what categories said.
var (
	ErrNotFound         = errors.New("category not found")
	ErrPermissionDenied = errors.New("not allowed on this category")
)

type refusal struct {
	kind error
	st   *status.Status
}

func (r refusal) Error() string              { return r.st.Message() }
func (r refusal) Is(target error) bool       { return target == r.kind }
func (r refusal) GRPCStatus() *status.Status { return r.st }

// TTL is how long a yes is believed without asking again: the longest a
// revoked uplifter keeps access through one copy whose event went missing.
const TTL = 5 * time.Second

// Size bounds the answers a Checker keeps (about 150 bytes each).
const Size = 10_000

// Clock is where a Checker reads the time; a service passes its own.
type Clock interface{ Now() time.Time }

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// Options tune a Checker; zero values mean TTL, Size and the wall clock.
type Options struct {
	TTL   time.Duration
	Size  int
	Clock Clock
}

// Checker checks access through the categories service and caches the
// answers that allow, keyed by the caller's token and the category. Only a
// yes is kept: a refusal costs the refused caller a call, and keeping it
// could hold a new owner out of their own category. Safe for concurrent use.
type Checker struct {
	client categoriesv1.CategoriesServiceClient
	ttl    time.Duration
	max    int
	clock  Clock

	mu      sync.Mutex
	entries map[key]entry
	// asking holds the calls in flight, so the checks a page makes at once
	// (Analytics asks for its numbers and its top products together) share
	// one call to categories.
	asking map[key]*call
	// forgets counts the invalidations, so an answer that was on its way
	// while one arrived is not kept: it may be from before the change.
	forgets uint64
}

type key struct {
	token    [sha256.Size]byte
	category string
}

type entry struct {
	userID  string
	expires time.Time
}

type call struct {
	done   chan struct{}
	userID string
	err    error
}

// New returns a Checker over conn, a connection that forwards the caller's
// token (platform/grpcclient) or a call that carries one itself.
func New(conn grpc.ClientConnInterface, o Options) *Checker {
	if o.TTL <= 0 {
		o.TTL = TTL
	}
	if o.Size <= 0 {
		o.Size = Size
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	return &Checker{client: categoriesv1.NewCategoriesServiceClient(conn), ttl: o.TTL, max: o.Size,
		clock: o.Clock, entries: map[key]entry{}, asking: map[key]*call{}}
}

// Check returns the caller's user id when they may act on categoryID, else
// ErrNotFound or ErrPermissionDenied (any other failure as is). A call
// without a token is never cached: the categories service refuses it.
func (c *Checker) Check(ctx context.Context, categoryID string) (string, error) {
	tok, ok := bearer(ctx)
	if !ok {
		return c.ask(ctx, categoryID)
	}
	k := key{token: sha256.Sum256([]byte(tok)), category: categoryID}
	now := c.clock.Now()
	c.mu.Lock()
	if e, hit := c.entries[k]; hit {
		if now.Before(e.expires) {
			c.mu.Unlock()
			return e.userID, nil
		}
		delete(c.entries, k)
	}
	if inFlight, ok := c.asking[k]; ok {
		c.mu.Unlock()
		select {
		case <-inFlight.done:
			if code := status.Code(inFlight.err); code == codes.Canceled || code == codes.DeadlineExceeded {
				// The first asker gave up; this one has not.
				return c.ask(ctx, categoryID)
			}
			return inFlight.userID, inFlight.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	cl := &call{done: make(chan struct{})}
	c.asking[k] = cl
	forgets := c.forgets
	c.mu.Unlock()

	cl.userID, cl.err = c.ask(ctx, categoryID)
	c.mu.Lock()
	delete(c.asking, k)
	if cl.err == nil {
		c.remember(k, entry{userID: cl.userID, expires: now.Add(c.ttl)}, forgets, now)
	}
	c.mu.Unlock()
	close(cl.done)
	return cl.userID, cl.err
}

// ask is one call to categories, its refusals as ErrNotFound or
// ErrPermissionDenied.
func (c *Checker) ask(ctx context.Context, categoryID string) (string, error) {
	res, err := c.client.CheckCategoryAccess(ctx, &categoriesv1.CheckCategoryAccessRequest{CategoryId: categoryID})
	switch st := status.Convert(err); st.Code() {
	case codes.OK:
		return res.GetUserId(), nil
	case codes.NotFound:
		return "", refusal{ErrNotFound, st}
	case codes.PermissionDenied, codes.Unauthenticated:
		return "", refusal{ErrPermissionDenied, st}
	}
	return "", err
}

// remember keeps e unless an event came while it was asked for; c.mu held.
func (c *Checker) remember(k key, e entry, forgets uint64, now time.Time) {
	if c.forgets != forgets {
		return
	}
	if len(c.entries) >= c.max {
		c.evict(now)
	}
	c.entries[k] = e
}

// evict drops the expired entries, and if none had expired, any: a dropped
// answer is only asked for again.
func (c *Checker) evict(now time.Time) {
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	for k := range c.entries {
		if len(c.entries) < c.max {
			return
		}
		delete(c.entries, k)
	}
}

// OnCategoryUpdated forgets every answer about the category: its owner may
// have changed, or it may be new (platform/events.Listen handler).
func (c *Checker) OnCategoryUpdated(_ context.Context, ev *eventsv1.CategoryUpdated) {
	c.forget(func(k key, _ entry) bool { return k.category == ev.GetCategoryId() })
}

// OnUserRoleChanged forgets every answer given to the user: an uplifter's
// role may have been taken away (platform/events.Listen handler).
func (c *Checker) OnUserRoleChanged(_ context.Context, ev *eventsv1.UserRoleChanged) {
	c.forget(func(_ key, e entry) bool { return e.userID == ev.GetUserId() })
}

func (c *Checker) forget(match func(key, entry) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgets++
	for k, e := range c.entries {
		if match(k, e) {
			delete(c.entries, k)
		}
	}
}

// bearer is the authorization the call to categories will carry: the
// outgoing one the caller set (the gateway), else the one of the call being
// served, which platform/grpcclient forwards.
func bearer(ctx context.Context) (string, bool) {
	if out, _ := metadata.FromOutgoingContext(ctx); len(out.Get("authorization")) > 0 {
		return out.Get("authorization")[0], true
	}
	if in, _ := metadata.FromIncomingContext(ctx); len(in.Get("authorization")) > 0 {
		return in.Get("authorization")[0], true
	}
	return "", false
}
