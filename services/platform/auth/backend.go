package auth

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"uplift.dev/platform/mtls"
	"uplift.dev/platform/ratelimit"
)

// Grant is what one backend (another team's program calling a service
// directly, as itself) may do: the methods it may call, at most PerMinute
// calls a minute per copy of the service.
type Grant struct {
	Methods   []string
	PerMinute int
}

// Grants name the backends a service answers, by the name in their
// certificate (spiffe://uplift/backend/NAME). They are a service's
// authorization rules beside its public methods and its owner, uplifter
// and admin rules, kept in its grpcport package and its README's table.
type Grants map[string]Grant

// DefaultBackendPerMinute is a backend's limit when its grant names none.
const DefaultBackendPerMinute = 600

// backends decides the calls whose client certificate names a backend.
type backends struct {
	grants map[string]map[string]bool
	limits map[string]*ratelimit.Limiter
}

func newBackends(g Grants, log *slog.Logger) (*backends, error) {
	b := &backends{grants: map[string]map[string]bool{}, limits: map[string]*ratelimit.Limiter{}}
	for name, grant := range g {
		methods := map[string]bool{}
		for _, m := range grant.Methods {
			methods[m] = true
		}
		b.grants[name] = methods
		// In the service's own process: a backend's limit holds per copy
		// (services have no rights on the shared limits bucket, which the
		// gateway's per-client limits use).
		l, err := ratelimit.New("backend-"+name, cmp.Or(grant.PerMinute, DefaultBackendPerMinute), time.Minute, nil, log)
		if err != nil {
			return nil, fmt.Errorf("backend %s: %w", name, err)
		}
		b.limits[name] = l
	}
	return b, nil
}

// admit returns ctx carrying the backend as the caller, or the error
// that refuses the call.
func (b *backends) admit(ctx context.Context, name, method string) (context.Context, error) {
	methods, known := b.grants[name]
	if !methods[method] {
		what := "is granted no method of this service"
		if known {
			granted := make([]string, 0, len(methods))
			for m := range methods {
				granted = append(granted, m)
			}
			slices.Sort(granted)
			what = "is granted only " + strings.Join(granted, ", ")
		}
		return nil, status.Errorf(codes.PermissionDenied, "Backend %q may not call %s: it %s.", name, method, what)
	}
	if ok, wait := b.limits[name].Take(ctx, name); !ok {
		return nil, status.Errorf(codes.ResourceExhausted, "Backend %q is over its limit of calls a minute; try again in %s.", name, wait.Round(time.Second))
	}
	return WithClaims(ctx, Claims{Backend: name}), nil
}

// peerCaller applies the caller's certificate: a backend is judged by its
// grants alone (a token it sends is not looked at: it calls as itself); a
// service or the gateway goes on to the token check for the person it
// calls for. On a TLS port a certificate that names no Uplift identity is
// refused.
func (b *backends) peerCaller(ctx context.Context, method string) (context.Context, error) {
	id, isTLS, ok := mtls.Peer(ctx)
	switch {
	case !isTLS:
		return ctx, nil
	case !ok:
		return nil, status.Error(codes.Unauthenticated, "Your client certificate names no Uplift identity (a URI SAN spiffe://uplift/service/NAME or spiffe://uplift/backend/NAME).")
	case id.Kind == mtls.KindBackend:
		return b.admit(ctx, id.Name, method)
	}
	return ctx, nil
}

// BackendInterceptors admit the calls whose client certificate names a
// backend, by grants; they run before UnaryInterceptor and
// StreamInterceptor, which then leave a backend's call alone. On a
// plaintext port (local mode without certificates) they do nothing.
func BackendInterceptors(g Grants, log *slog.Logger) (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor, error) {
	b, err := newBackends(g, log)
	if err != nil {
		return nil, nil, err
	}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		if health(info.FullMethod) {
			return next(ctx, req)
		}
		ctx, err := b.peerCaller(ctx, info.FullMethod)
		if err != nil {
			return nil, err
		}
		return next(ctx, req)
	}
	stream := func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		if health(info.FullMethod) {
			return next(srv, ss)
		}
		ctx, err := b.peerCaller(ss.Context(), info.FullMethod)
		if err != nil {
			return err
		}
		return next(srv, &contextStream{ServerStream: ss, ctx: ctx})
	}
	return unary, stream, nil
}

// health is the gRPC health service, which every caller may ask: the
// callers' balancers do, with no token and whatever certificate.
func health(method string) bool { return strings.HasPrefix(method, "/grpc.health.v1.Health/") }
