package natsauth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nkeys"
)

// LoadKeyring reads each program's seed from dir/<program>.nk and makes a
// key only for a program that has none yet, writing it there (0600). So a
// program's key never changes because another program changed: adding a
// consumer changes only its program's permissions (the rendered auth.conf,
// reloaded by the servers without a restart), and the events every other
// program signed stay believed. It returns the programs that got a new key.
// To rotate one program's key, delete its file and run it again.
func LoadKeyring(dir string, programs ...string) (*Keyring, []string, error) {
	k := &Keyring{seeds: map[string][]byte{}}
	var made []string
	for _, p := range programs {
		seed, isNew, err := loadOrMake(filepath.Join(dir, p+".nk"), nkeys.CreateUser, nkeys.PrefixByteUser)
		if err != nil {
			return nil, nil, fmt.Errorf("nkey for %s: %w", p, err)
		}
		if isNew {
			made = append(made, p)
		}
		k.seeds[p] = seed
	}
	return k, made, nil
}

// loadOrMake reads the seed at path, which must be a key of kind, or makes
// one with create and writes it (isNew).
func loadOrMake(path string, create func() (nkeys.KeyPair, error), kind nkeys.PrefixByte) (seed []byte, isNew bool, err error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		seed = []byte(strings.TrimSpace(string(b)))
		prefix, _, err := nkeys.DecodeSeed(seed)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		if prefix != kind {
			return nil, false, fmt.Errorf("%s: a %s key, want a %s key", path, prefix, kind)
		}
		return seed, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, err
	}
	kp, err := create()
	if err != nil {
		return nil, false, err
	}
	if seed, err = kp.Seed(); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, err
	}
	// O_EXCL: two runs at once must not each write a key over the other's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, false, err
	}
	if _, err := f.Write(append(seed, '\n')); err != nil {
		f.Close()
		return nil, false, err
	}
	return seed, true, f.Close()
}
