package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Unsubscribe token errors; both are the link's fault, not ours.
var (
	// ErrTokenInvalid is a token that is malformed, tampered with or signed
	// with another secret.
	ErrTokenInvalid = errors.New("unsubscribe token is not valid")
	// ErrTokenExpired is a genuine token past its expiry.
	ErrTokenExpired = errors.New("unsubscribe token has expired")
)

// UnsubscribeValidFor is how long an unsubscribe link works: long enough
// for an old email in the inbox, short enough that a leaked link dies.
const UnsubscribeValidFor = 60 * 24 * time.Hour

// MinSecretBytes is the shortest UNSUBSCRIBE_SECRET accepted.
const MinSecretBytes = 32

// Unsubscription is what an unsubscribe token allows: turning Kind off (or
// back on) for UserID, until Expires.
type Unsubscription struct {
	UserID  string
	Kind    Kind
	Expires time.Time
}

// TokenSigner signs and verifies unsubscribe tokens with HMAC-SHA256. A
// token is base64url(payload) "." base64url(mac); the payload binds the
// user, the kind and the expiry, so changing any of them breaks the mac.
type TokenSigner struct {
	secret []byte
}

// NewTokenSigner returns a signer over secret, which must be at least
// MinSecretBytes long.
func NewTokenSigner(secret string) (TokenSigner, error) {
	if len(secret) < MinSecretBytes {
		return TokenSigner{}, errors.New("UNSUBSCRIBE_SECRET must be at least 32 bytes")
	}
	return TokenSigner{secret: []byte(secret)}, nil
}

type tokenPayload struct {
	Version int    `json:"v"`
	UserID  string `json:"u"`
	Kind    Kind   `json:"k"`
	Expires int64  `json:"e"`
}

var b64 = base64.RawURLEncoding

// Sign returns the token for u. Only kinds a person may turn off are
// signed: a token never reaches transactional mail.
func (s TokenSigner) Sign(u Unsubscription) (string, error) {
	if u.UserID == "" || !u.Kind.Unsubscribable() || u.Expires.IsZero() {
		return "", ErrTokenInvalid
	}
	payload, err := json.Marshal(tokenPayload{Version: 1, UserID: u.UserID, Kind: u.Kind, Expires: u.Expires.Unix()})
	if err != nil {
		return "", err
	}
	p := b64.EncodeToString(payload)
	return p + "." + b64.EncodeToString(s.mac(p)), nil
}

func (s TokenSigner) mac(encodedPayload string) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("uplift-unsubscribe:" + encodedPayload))
	return m.Sum(nil)
}

// Verify checks token's signature, then its expiry against now, and
// returns what it allows.
func (s TokenSigner) Verify(token string, now time.Time) (Unsubscription, error) {
	p, sig, ok := strings.Cut(token, ".")
	if !ok || p == "" || len(s.secret) == 0 {
		return Unsubscription{}, ErrTokenInvalid
	}
	got, err := b64.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(p)) {
		return Unsubscription{}, ErrTokenInvalid
	}
	raw, err := b64.DecodeString(p)
	if err != nil {
		return Unsubscription{}, ErrTokenInvalid
	}
	var tp tokenPayload
	if err := json.Unmarshal(raw, &tp); err != nil || tp.Version != 1 || tp.UserID == "" || !tp.Kind.Unsubscribable() {
		return Unsubscription{}, ErrTokenInvalid
	}
	u := Unsubscription{UserID: tp.UserID, Kind: tp.Kind, Expires: time.Unix(tp.Expires, 0).UTC()}
	if !now.Before(u.Expires) {
		return Unsubscription{}, ErrTokenExpired
	}
	return u, nil
}
