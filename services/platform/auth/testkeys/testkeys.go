// Package testkeys is a local stand-in for the keys Google signs Firebase
// ID tokens with: an RSA key, its certificate served as Google serves its
// own (a JSON object from key id to PEM, with a max-age), and RS256 ID
// tokens signed with it. The benchmark stack and tests use it with
// auth.KeySetVerifier; no production configuration trusts it
// (auth.NewTestCertsVerifier).
package testkeys

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// KeyID names the key in the served set and in each token's header.
const KeyID = "uplift-test-key-1"

// Keys is a signing key and its certificate.
type Keys struct {
	Private *rsa.PrivateKey
	certPEM []byte
}

// New makes a 2048-bit key (the size Google uses) and a self-signed
// certificate for it.
func New() (*Keys, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	return FromKey(key)
}

// FromKey wraps an existing key with a fresh certificate.
func FromKey(key *rsa.PrivateKey) (*Keys, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "uplift local test tokens"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(30 * 24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	return &Keys{Private: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// Handler serves the certificate set like Google's x509 endpoint.
func (k *Keys) Handler() http.Handler {
	body, _ := json.Marshal(map[string]string{KeyID: string(k.certPEM)})
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(body)
	})
}

// Token describes an ID token to sign.
type Token struct {
	ProjectID, UID, Email string
	Admin, Uplifter       bool
	IssuedAt, ExpiresAt   time.Time
}

// Sign returns the RS256 ID token, with the claims Firebase puts in one.
func (k *Keys) Sign(t Token) (string, error) {
	claims := jwt.MapClaims{
		"iss": "https://securetoken.google.com/" + t.ProjectID, "aud": t.ProjectID,
		"sub": t.UID, "user_id": t.UID, "auth_time": t.IssuedAt.Unix(),
		"iat": t.IssuedAt.Unix(), "exp": t.ExpiresAt.Unix(),
		"email": t.Email, "email_verified": true,
		"firebase": map[string]any{"sign_in_provider": "password"},
	}
	if t.Admin {
		claims["admin"] = true
	}
	if t.Uplifter {
		claims["uplifter"] = true
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = KeyID
	return tok.SignedString(k.Private)
}

// WriteKeyFile saves the private key (PKCS #8 PEM, owner-only) for another
// process of the same stack (the benchmark's load generator).
func (k *Keys) WriteKeyFile(path string) error {
	der, err := x509.MarshalPKCS8PrivateKey(k.Private)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
}

// ReadKeyFile loads what WriteKeyFile saved.
func ReadKeyFile(path string) (*Keys, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("testkeys: not a PEM file")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	rsaKey, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("testkeys: %T is not an RSA key", key)
	}
	return FromKey(rsaKey)
}
