package gateway

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/clientaddr"
	"uplift.dev/platform/ratelimit"
)

// rpcLimit is one RPC's limit and the error that refuses a call past it.
type rpcLimit struct {
	limiter *ratelimit.Limiter
	refuse  func(wait time.Duration) error
}

// rpcLimits are the per-client limits, keyed by the RPC they guard. They
// sit on the gateway's gRPC clients, not on HTTP routes, so every way of
// reaching an RPC (GET, HEAD, a form POST, whatever grpc-gateway maps next)
// spends the same bucket.
type rpcLimits map[string]rpcLimit

// newRPCLimits makes the limits. With js (the gateway's NATS) every
// replica counts in the shared ratelimits bucket; without it (no NATS_URL:
// one local gateway, or a test) each counts on its own.
func newRPCLimits(o Options, js jetstream.JetStream) (rpcLimits, error) {
	// The website check makes categories fetch a stranger's website: one
	// visitor must not be able to turn it into a crawler.
	website, err := ratelimit.New("website-score", cmp.Or(o.WebsiteScorePerMinute, 10), time.Minute, js, o.Log)
	if err != nil {
		return nil, err
	}
	// Each sign-up makes a Firebase account with the Admin SDK, which skips
	// the abuse checks Firebase applies to accounts made in the browser,
	// and sends a welcome email.
	signUp, err := ratelimit.New("sign-up", cmp.Or(o.SignUpsPerHour, 20), time.Hour, js, o.Log)
	if err != nil {
		return nil, err
	}
	// Each try of a recovery code is a guess at one; the users service also
	// pauses an account after 5 wrong codes, whoever sends them, so guessing
	// is bounded per client and per account.
	recovery, err := ratelimit.New("recovery-code", cmp.Or(o.RecoveryCodesPerHour, 10), time.Hour, js, o.Log)
	if err != nil {
		return nil, err
	}
	// Each reset mails a link to whatever address is given: one client
	// must not be able to send the mail of many accounts (the users
	// service also sends at most one a minute per address, silently).
	reset, err := ratelimit.New("password-reset", cmp.Or(o.PasswordResetsPerHour, 10), time.Hour, js, o.Log)
	if err != nil {
		return nil, err
	}
	return rpcLimits{
		categoriesv1.CategoriesService_GetWebsiteScore_FullMethodName: {
			limiter: website,
			refuse:  func(time.Duration) error { return errWebsiteScoreLimited },
		},
		usersv1.UsersService_CreateUser_FullMethodName: {
			limiter: signUp,
			refuse:  signUpLimited,
		},
		usersv1.UsersService_UseRecoveryCode_FullMethodName: {
			limiter: recovery,
			refuse:  recoveryLimited,
		},
		usersv1.UsersService_ResetPassword_FullMethodName: {
			limiter: reset,
			refuse:  resetLimited,
		},
	}, nil
}

// errWebsiteScoreLimited is the website check's 429; its RetryInfo becomes
// the Retry-After header.
var errWebsiteScoreLimited = limitedError("Too many website checks. Please try again in a minute.", time.Minute)

// signUpLimited is sign-up's 429, saying when to try again.
func signUpLimited(wait time.Duration) error {
	return limitedError(fmt.Sprintf("Too many sign-ups from your network. Please try again %s.", inMinutes(wait)), wait)
}

// recoveryLimited is the recovery code's 429, saying when to try again.
func recoveryLimited(wait time.Duration) error {
	return limitedError(fmt.Sprintf("Too many recovery codes tried from your network. Please try again %s.", inMinutes(wait)), wait)
}

// resetLimited is the password reset's 429, saying when to try again. It
// counts every address a client asks for, so it tells nothing about which
// of them have accounts.
func resetLimited(wait time.Duration) error {
	return limitedError(fmt.Sprintf("Too many password resets from your network. Please try again %s.", inMinutes(wait)), wait)
}

// inMinutes says wait as "in a minute" or "in N minutes", rounded up.
func inMinutes(wait time.Duration) string {
	minutes := int(math.Ceil(wait.Minutes()))
	if minutes > 1 {
		return "in " + strconv.Itoa(minutes) + " minutes"
	}
	return "in a minute"
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
		if allowed, wait := lim.limiter.Take(ctx, bucketKey(clientFrom(ctx))); !allowed {
			return lim.refuse(wait)
		}
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// forwardClient tells the service which client called (clientaddr), as
// the limits count it (an IPv6 client by its /64), replacing whatever the
// request carried, so the users service can count recovery tries per
// client as well as per account.
func forwardClient(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return invoker(clientaddr.Outgoing(ctx, bucketKey(clientFrom(ctx))), method, req, reply, cc, opts...)
}

func bucketKey(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil || a.Is4() {
		return client
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
