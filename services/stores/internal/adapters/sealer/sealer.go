// Package sealer encrypts secrets at rest (shop access tokens) with
// AES-256-GCM, so a copy of the database alone does not open anyone's shop.
package sealer

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
)

// version prefixes every sealed value, so a later key rotation can tell
// values sealed with the old key apart.
const version = 1

// Sealer implements app.Sealer.
type Sealer struct{ aead cipher.AEAD }

// New returns a sealer for a base64-encoded 32-byte key.
func New(keyBase64 string) (*Sealer, error) {
	key, err := base64.StdEncoding.DecodeString(keyBase64)
	if err != nil || len(key) != 32 {
		return nil, errors.New("the key must be 32 random bytes, base64-encoded (openssl rand -base64 32)")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts plain with a fresh random nonce.
func (s *Sealer) Seal(plain string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append([]byte{version}, nonce...)
	return s.aead.Seal(out, nonce, []byte(plain), []byte{version}), nil
}

// Open decrypts what Seal made; anything altered or sealed with another key fails.
func (s *Sealer) Open(sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != version {
		return "", errors.New("sealed value is malformed")
	}
	plain, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], sealed[:1])
	if err != nil {
		return "", fmt.Errorf("sealed value does not open: %w", err)
	}
	return string(plain), nil
}
