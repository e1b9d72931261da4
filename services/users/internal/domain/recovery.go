package domain

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Recovery codes let an owner whose authenticator app is lost sign in with
// their password alone: one code turns two-step sign-in off, once.
const (
	// RecoveryCodeCount codes are made at a time; making new ones
	// replaces all the old ones.
	RecoveryCodeCount = 10
	// recoveryCodeLength characters of a 32-letter alphabet: 80 random bits
	// each, so a fast hash is enough (nobody can try 2^80 guesses) and the
	// stored hashes are useless to whoever reads the database.
	recoveryCodeLength = 16
	// RecoveryFreshSignIn is how recent the sign-in must be (the password and
	// a current code) for new codes to be shown: a session left open on a
	// shared computer must not be enough to take them.
	RecoveryFreshSignIn = 10 * time.Minute
	// RecoveryFailuresPerClient wrong codes for one account from one client
	// within RecoveryFailureWindow pause that client's tries at that
	// account's recovery for the rest of the window. Counted per client,
	// not per account alone: five wrong codes from anyone used to lock the
	// owner out too, a denial of service for the price of five requests.
	RecoveryFailuresPerClient = 5
	// RecoveryFailuresPerAccount wrong codes from all clients together
	// pause everyone's tries at the account: a bound on guessing spread
	// over many clients (an IPv6 /48 holds 65,536 of the /64s counted as
	// one each). With 80-bit codes, 100 guesses an hour is nothing to fear,
	// and the owner is locked out only by 20 clients' worth of failures.
	RecoveryFailuresPerAccount = 100
	RecoveryFailureWindow      = time.Hour
)

// Crockford's base32: no I, L, O or U, so a code read aloud or copied by
// hand is not misread.
const recoveryAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Audit actions of recovery codes; the owner acts on their own account.
const (
	ActionNewRecoveryCodes = "new_recovery_codes"
	ActionUseRecoveryCode  = "use_recovery_code"
)

var (
	// ErrRecoveryCodeRejected answers every failed recovery the same way: a
	// wrong, used or malformed code, an unknown email, an account without
	// two-step sign-in, or too many tries. Telling them apart would tell a
	// stranger which emails have accounts.
	ErrRecoveryCodeRejected = errors.New("recovery code rejected")
	// ErrSignInNotFresh: new codes need a sign-in within RecoveryFreshSignIn.
	ErrSignInNotFresh = errors.New("the sign-in is not recent enough")
	// ErrNoSecondFactor: codes are only for an account with two-step sign-in on.
	ErrNoSecondFactor = errors.New("two-step sign-in is not on")
)

// NewRecoveryCodes makes RecoveryCodeCount codes from random, formatted
// XXXX-XXXX-XXXX-XXXX for people to keep.
func NewRecoveryCodes(random io.Reader) ([]string, error) {
	codes := make([]string, RecoveryCodeCount)
	buf := make([]byte, recoveryCodeLength)
	for i := range codes {
		if _, err := io.ReadFull(random, buf); err != nil {
			return nil, fmt.Errorf("recovery codes: %w", err)
		}
		var b strings.Builder
		for j, c := range buf {
			if j > 0 && j%4 == 0 {
				b.WriteByte('-')
			}
			// 256 is a multiple of 32: each byte gives 5 unbiased bits.
			b.WriteByte(recoveryAlphabet[c%32])
		}
		codes[i] = b.String()
	}
	return codes, nil
}

// NormalizeRecoveryCode reads a code as a person may type it: any case,
// with or without dashes and spaces, O for 0 and I or L for 1. ok is false
// when it cannot be a code.
func NormalizeRecoveryCode(s string) (code string, ok bool) {
	if len(s) > 64 {
		return "", false
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == '-' || r == ' ':
			continue
		case r == 'O':
			r = '0'
		case r == 'I' || r == 'L':
			r = '1'
		}
		if !strings.ContainsRune(recoveryAlphabet, r) {
			return "", false
		}
		b.WriteRune(r)
	}
	if b.Len() != recoveryCodeLength {
		return "", false
	}
	return b.String(), true
}

// HashRecoveryCode is what is stored of a normalised code: bound to the
// user, so one account's code never matches another's.
func HashRecoveryCode(userID, code string) []byte {
	h := sha256.New()
	h.Write([]byte("uplift recovery code v1\x00"))
	h.Write([]byte(userID))
	h.Write([]byte{0})
	h.Write([]byte(code))
	return h.Sum(nil)
}

// MatchRecoveryCode returns the index of the stored hash equal to hash, or
// -1. Every stored hash is compared in constant time, so the time taken
// says nothing about which one matched or how closely.
func MatchRecoveryCode(hash []byte, stored [][]byte) int {
	found := -1
	for i, s := range stored {
		if subtle.ConstantTimeCompare(hash, s) == 1 {
			found = i
		}
	}
	return found
}

// ErrRecoveryLocked: the client, or everyone, had too many wrong codes for
// the account within RecoveryFailureWindow (RecoveryPaused). Only the log
// tells it from ErrRecoveryCodeRejected; the caller hears the same answer.
var ErrRecoveryLocked = errors.New("recovery locked after too many wrong codes")

// RecoveryPaused reports whether a try at an account's codes is refused
// unseen, given the wrong codes within RecoveryFailureWindow from the
// trying client and from all clients.
func RecoveryPaused(fromClient, fromAll int) bool {
	return fromClient >= RecoveryFailuresPerClient || fromAll >= RecoveryFailuresPerAccount
}

// RecoveryAttempt is one try at a user's recovery codes.
type RecoveryAttempt struct {
	UserID string
	// Client is the address the try came from (clientaddr; "" when not
	// known), which its failure is counted against.
	Client string
	// Hash is HashRecoveryCode of the code tried.
	Hash []byte
	At   time.Time
	// Audit is written when a code is used, with Detail(codes left).
	Audit  AuditEntry
	Detail func(remaining int) string
	// Then runs once a code matched, before the use is committed; its
	// error undoes the use.
	Then func(ctx context.Context) error
}
