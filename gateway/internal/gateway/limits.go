package gateway

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"
)

// bucketLimiter is a token bucket per client: capacity tokens, refilled at
// capacity per period. The buckets live in this process: each gateway
// replica counts on its own, so with N replicas a client gets up to N times
// the limit (see the README).
type bucketLimiter struct {
	mu       sync.Mutex
	capacity float64
	period   time.Duration
	buckets  map[string]*bucket
	now      func() time.Time
	seen     int
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newBucketLimiter(capacity int, period time.Duration) *bucketLimiter {
	return &bucketLimiter{capacity: float64(capacity), period: period, buckets: map[string]*bucket{}, now: time.Now}
}

// newWebsiteScoreLimiter is the public website check's limit: every check
// makes the categories service fetch a stranger's website, so one visitor
// must not be able to turn it into a crawler.
func newWebsiteScoreLimiter(perMinute int) *bucketLimiter {
	if perMinute <= 0 {
		perMinute = 10
	}
	return newBucketLimiter(perMinute, time.Minute)
}

// newSignUpLimiter is sign-up's limit: each sign-up makes a Firebase account
// with the Admin SDK, which skips the abuse checks Firebase applies to
// accounts made in the browser, and sends a welcome email.
func newSignUpLimiter(perHour int) *bucketLimiter {
	if perHour <= 0 {
		perHour = 20
	}
	return newBucketLimiter(perHour, time.Hour)
}

// allow takes a token from key's bucket.
func (l *bucketLimiter) allow(key string) bool {
	ok, _ := l.take(key)
	return ok
}

// take takes a token from key's bucket; when it is empty, wait is how long
// until the next token.
func (l *bucketLimiter) take(key string) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.seen++
	if l.seen%1024 == 0 {
		l.prune(now)
	}
	b, found := l.buckets[key]
	if !found {
		b = &bucket{tokens: l.capacity, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.capacity, b.tokens+float64(now.Sub(b.last))/float64(l.period)*l.capacity)
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.capacity * float64(l.period))
	}
	b.tokens--
	return true, 0
}

// prune forgets buckets that have refilled, so memory stays bounded by the
// clients of the last period.
func (l *bucketLimiter) prune(now time.Time) {
	for key, b := range l.buckets {
		if now.Sub(b.last) > l.period {
			delete(l.buckets, key)
		}
	}
}

// rpcLimit is one RPC's limit and the error that refuses a call past it.
type rpcLimit struct {
	limiter *bucketLimiter
	refuse  func(wait time.Duration) error
}

// rpcLimits are the per-client limits, keyed by the RPC they guard. They
// sit on the gateway's gRPC clients, not on HTTP routes, so every way of
// reaching an RPC (GET, HEAD, a form POST, whatever grpc-gateway maps next)
// spends the same bucket.
type rpcLimits map[string]rpcLimit

func newRPCLimits(o Options) rpcLimits {
	return rpcLimits{
		categoriesv1.CategoriesService_GetWebsiteScore_FullMethodName: {
			limiter: newWebsiteScoreLimiter(o.WebsiteScorePerMinute),
			refuse:  func(time.Duration) error { return errWebsiteScoreLimited },
		},
		usersv1.UsersService_CreateUser_FullMethodName: {
			limiter: newSignUpLimiter(o.SignUpsPerHour),
			refuse:  signUpLimited,
		},
	}
}

// errWebsiteScoreLimited is the website check's 429; its RetryInfo becomes
// the Retry-After header.
var errWebsiteScoreLimited = limitedError("Too many website checks. Please try again in a minute.", time.Minute)

// signUpLimited is sign-up's 429, saying when to try again.
func signUpLimited(wait time.Duration) error {
	minutes := int(math.Ceil(wait.Minutes()))
	when := "in a minute"
	if minutes > 1 {
		when = "in " + strconv.Itoa(minutes) + " minutes"
	}
	return limitedError(fmt.Sprintf("Too many sign-ups from your network. Please try again %s.", when), wait)
}

func limitedError(msg string, wait time.Duration) error {
	st := status.New(codes.ResourceExhausted, msg)
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(wait)}); err == nil {
		st = d
	}
	return st.Err()
}

// intercept refuses a limited RPC once the client's bucket is empty. The
// client is the address withClient put in the context (the peer, or the
// forwarded address when the peer is a trusted proxy); an IPv6 client is
// counted by its /64, the block one subscriber usually holds.
func (l rpcLimits) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if lim, ok := l[method]; ok {
		if allowed, wait := lim.limiter.take(bucketKey(clientFrom(ctx))); !allowed {
			return lim.refuse(wait)
		}
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func bucketKey(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil || a.Is4() {
		return client
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
