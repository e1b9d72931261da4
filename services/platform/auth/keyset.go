package auth

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	fbauth "firebase.google.com/go/v4/auth"
	"github.com/golang-jwt/jwt/v5"

	"uplift.dev/platform/clock"
)

// TestCertsURLEnv names the setting that makes a service trust a local key
// set (KeySetVerifier) instead of asking the Admin SDK. Only the benchmark
// stack sets it; NewTestCertsVerifier refuses it outside a demo- project and
// off loopback, so no production configuration can reach it.
const TestCertsURLEnv = "FIREBASE_TEST_CERTS_URL"

// ErrTestCertsNotLocal refuses FIREBASE_TEST_CERTS_URL where it could let a
// forged key set in: it is for demo- projects and loopback addresses only.
var ErrTestCertsNotLocal = errors.New(TestCertsURLEnv + " is only allowed for a demo- project with the Auth emulator, on a loopback address")

// KeySet is a set of RSA public keys published as Google publishes the keys
// that sign Firebase ID tokens: a JSON object from key id to a PEM x509
// certificate, cacheable for the response's Cache-Control max-age. Keys are
// fetched on first use and again once that age has passed. Safe for
// concurrent use.
type KeySet struct {
	URL    string
	Client *http.Client

	mu      sync.Mutex
	keys    map[string]*rsa.PublicKey
	expires time.Time
}

// minKeyAge keeps a key set without a max-age from being fetched per token.
const minKeyAge = time.Minute

// Key returns the public key named kid, fetching the set when it is stale.
func (k *KeySet) Key(ctx context.Context, kid string, now time.Time) (*rsa.PublicKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys == nil || !now.Before(k.expires) {
		keys, age, err := k.fetch(ctx)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCheckUnavailable, err)
		}
		k.keys, k.expires = keys, now.Add(max(age, minKeyAge))
	}
	key, ok := k.keys[kid]
	if !ok {
		return nil, fmt.Errorf("no public key %q in the key set", kid)
	}
	return key, nil
}

func (k *KeySet) fetch(ctx context.Context) (map[string]*rsa.PublicKey, time.Duration, error) {
	client := k.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.URL, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("key set: %s", resp.Status)
	}
	var certs map[string]string
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&certs); err != nil {
		return nil, 0, fmt.Errorf("key set: %w", err)
	}
	keys := make(map[string]*rsa.PublicKey, len(certs))
	for kid, certPEM := range certs {
		block, _ := pem.Decode([]byte(certPEM))
		if block == nil {
			return nil, 0, fmt.Errorf("key set: %q is not PEM", kid)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, 0, fmt.Errorf("key set: %q: %w", kid, err)
		}
		pub, ok := cert.PublicKey.(*rsa.PublicKey)
		if !ok {
			return nil, 0, fmt.Errorf("key set: %q is not an RSA key", kid)
		}
		keys[kid] = pub
	}
	return keys, maxAge(resp.Header.Get("Cache-Control")), nil
}

func maxAge(cacheControl string) time.Duration {
	for _, d := range strings.Split(cacheControl, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(d), "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return time.Duration(n) * time.Second
			}
		}
	}
	return 0
}

// UserLookup is the part of the Admin SDK's client that reads a user, for
// the revocation check; *fbauth.Client implements it.
type UserLookup interface {
	GetUser(ctx context.Context, uid string) (*fbauth.UserRecord, error)
}

// KeySetVerifier checks a Firebase ID token the way the Admin SDK's
// VerifyIDTokenAndCheckRevoked does in production — RS256 signature by a
// key of Keys, audience and issuer of the project, issued and signed in in
// the past, not expired, a subject of at most 128 characters — then looks
// the user up (disabled, deleted, or tokens revoked after this one was
// issued). The SDK fetches its keys from Google only; this verifier takes
// the key set's address, so the benchmark stack can sign its own tokens
// and measure the production work without the emulator, which accepts
// unsigned tokens. Wrap it in a Cache like FirebaseVerifier.
type KeySetVerifier struct {
	ProjectID string
	Keys      *KeySet
	Users     UserLookup
	// Now is the clock; nil is the wall clock.
	Now clock.Clock
}

// firebaseClaims are the ID token's claims the services read.
type firebaseClaims struct {
	jwt.RegisteredClaims
	AuthTime      int64  `json:"auth_time"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
	Admin         bool   `json:"admin"`
	Uplifter      bool   `json:"uplifter"`
}

// Verify implements Verifier.
func (v KeySetVerifier) Verify(ctx context.Context, idToken string) (Claims, error) {
	t := v.Now.Now()
	var fc firebaseClaims
	var keyErr error
	_, err := jwt.ParseWithClaims(idToken, &fc, func(tok *jwt.Token) (any, error) {
		kid, _ := tok.Header["kid"].(string)
		if kid == "" {
			return nil, errors.New("ID token has no kid")
		}
		key, err := v.Keys.Key(ctx, kid, t)
		keyErr = err
		return key, err
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(v.ProjectID),
		jwt.WithIssuer("https://securetoken.google.com/"+v.ProjectID), jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(), jwt.WithTimeFunc(func() time.Time { return t }))
	if errors.Is(keyErr, ErrCheckUnavailable) {
		return Claims{}, keyErr
	}
	if err != nil {
		return Claims{}, fmt.Errorf("ID token: %w", err)
	}
	switch {
	case fc.Subject == "" || len(fc.Subject) > 128:
		return Claims{}, errors.New("ID token has no usable subject")
	case fc.IssuedAt == nil:
		return Claims{}, errors.New("ID token has no iat")
	case fc.AuthTime == 0 || time.Unix(fc.AuthTime, 0).After(t):
		return Claims{}, errors.New("ID token has a missing or future auth_time")
	}
	u, err := v.Users.GetUser(ctx, fc.Subject)
	if err != nil {
		if transient(err) {
			return Claims{}, fmt.Errorf("%w: %w", ErrCheckUnavailable, err)
		}
		return Claims{}, err
	}
	if u.Disabled {
		return Claims{}, errors.New("the user is disabled")
	}
	// The SDK's own rule: tokens issued before the revocation (kept in
	// whole seconds) are refused.
	if fc.IssuedAt.Unix()*1000 < u.TokensValidAfterMillis {
		return Claims{}, errors.New("ID token has been revoked")
	}
	return Claims{UID: fc.Subject, Email: fc.Email, EmailVerified: fc.EmailVerified, Admin: fc.Admin,
		Uplifter: fc.Uplifter, ExpiresAt: fc.ExpiresAt.Time, AuthTime: time.Unix(fc.AuthTime, 0)}, nil
}

// NewTestCertsVerifier returns the benchmark stack's verifier: tokens
// signed by the key set at certsURL, users looked up in the Auth emulator.
// It refuses unless the project is a demo- one run on the emulator and the
// key set is on loopback.
func NewTestCertsVerifier(projectID, emulatorHost, certsURL string, users UserLookup) (KeySetVerifier, error) {
	u, err := url.Parse(certsURL)
	if err != nil || emulatorHost == "" || !strings.HasPrefix(projectID, "demo-") || u.Scheme != "http" {
		return KeySetVerifier{}, ErrTestCertsNotLocal
	}
	ip := net.ParseIP(u.Hostname())
	if u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return KeySetVerifier{}, ErrTestCertsNotLocal
	}
	return KeySetVerifier{ProjectID: projectID, Keys: &KeySet{URL: certsURL}, Users: users}, nil
}
