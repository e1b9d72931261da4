// Package auth verifies the Firebase ID token on every gRPC call and puts
// the caller's identity in the context. A call without a valid token is
// refused unless its method is declared public. Revocation is checked too
// (a deleted or disabled user, a session ended by an email change), with
// each verdict cached for RevocationCheckTTL (Cache). A backend (another
// team's program, named by its client certificate) calls as itself instead,
// within its Grants (BackendInterceptors).
package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	firebase "firebase.google.com/go/v4"
	fbauth "firebase.google.com/go/v4/auth"
	"firebase.google.com/go/v4/errorutils"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Claims is who is calling.
type Claims struct {
	UID   string
	Email string
	// EmailVerified is Firebase's email_verified claim: the identity
	// provider (Google) or a verification link proved the caller owns Email.
	EmailVerified bool
	// Admin comes from the custom claim "admin".
	Admin bool
	// Uplifter comes from the custom claim "uplifter".
	Uplifter bool
	// ExpiresAt is when the token expires (zero if unknown).
	ExpiresAt time.Time
	// AuthTime is when the person last proved who they are (signed in or
	// reauthenticated), not when the token was refreshed; zero if unknown.
	AuthTime time.Time
	// Backend names the backend calling as itself (its client certificate,
	// within its Grants); no person is calling then, and UID is empty.
	Backend string
}

// ErrCheckUnavailable: the token could not be checked just now.
var ErrCheckUnavailable = errors.New("auth: the token could not be checked")

// Verifier checks an ID token.
type Verifier interface {
	Verify(ctx context.Context, idToken string) (Claims, error)
}

// ErrEmulatorNotDemo refuses emulator mode outside demo- projects, because
// the emulator accepts unsigned (forged) tokens.
var ErrEmulatorNotDemo = errors.New("FIREBASE_AUTH_EMULATOR_HOST is set but FIREBASE_PROJECT_ID does not start with \"demo-\": the emulator accepts forged tokens, so it is only allowed for demo projects")

// NewFirebaseClient returns the Admin SDK auth client for projectID. With
// emulatorHost set, the SDK talks to the Auth emulator and the project must
// be a demo- project.
func NewFirebaseClient(ctx context.Context, projectID, emulatorHost string) (*fbauth.Client, error) {
	if projectID == "" {
		return nil, errors.New("FIREBASE_PROJECT_ID is required")
	}
	if emulatorHost != "" && !strings.HasPrefix(projectID, "demo-") {
		return nil, ErrEmulatorNotDemo
	}
	// The SDK reads the emulator address from the environment only; the
	// caller's config is the source of truth, so mirror it there.
	if err := setEmulatorEnv(emulatorHost); err != nil {
		return nil, err
	}
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("firebase: %w", err)
	}
	client, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("firebase auth: %w", err)
	}
	return client, nil
}

// TokenClient is the part of the Admin SDK's auth client that verifies ID
// tokens; *fbauth.Client implements it.
type TokenClient interface {
	VerifyIDTokenAndCheckRevoked(ctx context.Context, idToken string) (*fbauth.Token, error)
}

// FirebaseVerifier verifies tokens with the Admin SDK, revocation included.
//
// The SDK's plain VerifyIDToken checks revocation only in emulator mode; in
// production it checks the signature and expiry alone, so a deleted user's
// token, or one from a session that an email change or "sign out
// everywhere" ended, kept working until it expired (up to an hour).
// VerifyIDTokenAndCheckRevoked also looks the user up (deleted, disabled,
// tokens revoked after this one was issued), which costs a call to Firebase
// and, in production, needs the Admin SDK's credentials. Wrap the verifier
// in a Cache so that call is made at most once per token per
// RevocationCheckTTL; grpcserver does.
type FirebaseVerifier struct{ Client TokenClient }

// Verify implements Verifier. A token that is bad, revoked or whose user is
// gone or disabled is an error; when Firebase could not be asked, the error
// is ErrCheckUnavailable (the call is refused all the same).
func (v FirebaseVerifier) Verify(ctx context.Context, idToken string) (Claims, error) {
	tok, err := v.Client.VerifyIDTokenAndCheckRevoked(ctx, idToken)
	if err != nil {
		if transient(err) {
			return Claims{}, fmt.Errorf("%w: %w", ErrCheckUnavailable, err)
		}
		return Claims{}, err
	}
	c := Claims{UID: tok.UID, ExpiresAt: time.Unix(tok.Expires, 0)}
	if tok.AuthTime > 0 {
		c.AuthTime = time.Unix(tok.AuthTime, 0)
	}
	c.Email, _ = tok.Claims["email"].(string)
	c.EmailVerified, _ = tok.Claims["email_verified"].(bool)
	c.Admin, _ = tok.Claims["admin"].(bool)
	c.Uplifter, _ = tok.Claims["uplifter"].(bool)
	return c, nil
}

// transient tells a failure to reach Firebase (its keys or the user lookup)
// from a verdict on the token.
func transient(err error) bool {
	return fbauth.IsCertificateFetchFailed(err) || errorutils.IsUnavailable(err) ||
		errorutils.IsDeadlineExceeded(err) || errorutils.IsInternal(err) || errorutils.IsUnknown(err) ||
		errorutils.IsResourceExhausted(err) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

type claimsKey struct{}

// WithClaims returns ctx carrying c; tests use it to call handlers directly.
func WithClaims(ctx context.Context, c Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, c)
}

// FromContext returns the caller, if the call carried a valid token.
func FromContext(ctx context.Context) (Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(Claims)
	return c, ok
}

// UnaryInterceptor verifies the bearer token in the "authorization"
// metadata. 'unauthed' (what the web sends when signed out) and no token at
// all mean anonymous, which only the public methods accept. A token that is
// present but invalid is always refused.
func UnaryInterceptor(v Verifier, public map[string]bool) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		ctx, err := check(ctx, v, public, info.FullMethod)
		if err != nil {
			return nil, err
		}
		return next(ctx, req)
	}
}

// StreamInterceptor is UnaryInterceptor for streaming calls (an upload):
// the token is checked once, before the first message is read.
func StreamInterceptor(v Verifier, public map[string]bool) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		ctx, err := check(ss.Context(), v, public, info.FullMethod)
		if err != nil {
			return err
		}
		return next(srv, &contextStream{ServerStream: ss, ctx: ctx})
	}
}

// contextStream is a stream whose handler sees the caller's claims.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *contextStream) Context() context.Context { return s.ctx }

// check returns ctx with the caller's claims, or the error that refuses the call.
func check(ctx context.Context, v Verifier, public map[string]bool, method string) (context.Context, error) {
	if health(method) {
		return ctx, nil
	}
	if c, ok := FromContext(ctx); ok && c.Backend != "" {
		return ctx, nil // admitted by BackendInterceptors, by its grants
	}
	token := bearer(ctx)
	if token == "" {
		if public[method] {
			return ctx, nil
		}
		return nil, status.Error(codes.Unauthenticated, "Please sign in to continue.")
	}
	claims, err := v.Verify(ctx, token)
	if errors.Is(err, ErrCheckUnavailable) {
		return nil, status.Error(codes.Unavailable, "We could not check your sign-in just now. Please try again in a moment.")
	}
	if err != nil {
		return nil, status.Error(codes.Unauthenticated, "Your session is not valid. Please sign in again.")
	}
	return WithClaims(ctx, claims), nil
}

func bearer(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		scheme, tok, ok := strings.Cut(strings.TrimSpace(v), " ")
		if ok && strings.EqualFold(scheme, "bearer") {
			tok = strings.TrimSpace(tok)
			if tok != "" && tok != "unauthed" {
				return tok
			}
		}
	}
	return ""
}
