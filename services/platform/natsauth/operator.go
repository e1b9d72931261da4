package natsauth

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"
)

// Operator is a NATS in operator (JWT) mode for the keyring's programs, as
// a cluster run by a platform team usually is: an operator key signs one
// account, UPLIFT, which holds every program, and the system account; the
// account key signs one user JWT per program carrying the same permissions
// auth.conf gives it (Permissions), for the same user key, so the events a
// program signs verify alike in both modes (Keyring.SenderKeys).
//
// A user JWT is shown by its program when it connects, so a program whose
// permissions change (a new consumer) gets a new JWT for the same key and
// restarts alone; the servers need no reload and no other program notices.
type Operator struct {
	operator, account, system nkeys.KeyPair
}

// AccountName is the account every Uplift program is a user of.
const AccountName = "UPLIFT"

// LoadOperator reads the operator's, the account's and the system account's
// seeds from dir (operator.nk, account.nk, system.nk), making those that
// are missing, so re-running keeps every JWT's issuer.
func LoadOperator(dir string) (*Operator, error) {
	var keys [3]nkeys.KeyPair
	for i, f := range []struct {
		name   string
		create func() (nkeys.KeyPair, error)
		kind   nkeys.PrefixByte
	}{
		{"operator.nk", nkeys.CreateOperator, nkeys.PrefixByteOperator},
		{"account.nk", nkeys.CreateAccount, nkeys.PrefixByteAccount},
		{"system.nk", nkeys.CreateAccount, nkeys.PrefixByteAccount},
	} {
		seed, _, err := loadOrMake(filepath.Join(dir, f.name), f.create, f.kind)
		if err != nil {
			return nil, err
		}
		if keys[i], err = nkeys.FromSeed(seed); err != nil {
			return nil, err
		}
	}
	return &Operator{operator: keys[0], account: keys[1], system: keys[2]}, nil
}

// ServerConfig is the nats-server configuration block that trusts the
// operator and preloads its two accounts (a MEMORY resolver: the accounts
// change only when this is written again). UPLIFT may use JetStream.
func (o *Operator) ServerConfig() (string, error) {
	opPub, _ := o.operator.PublicKey()
	sysPub, _ := o.system.PublicKey()
	accPub, _ := o.account.PublicKey()
	oc := jwt.NewOperatorClaims(opPub)
	oc.Name = "uplift"
	oc.SystemAccount = sysPub
	opJWT, err := oc.Encode(o.operator)
	if err != nil {
		return "", fmt.Errorf("operator JWT: %w", err)
	}
	sc := jwt.NewAccountClaims(sysPub)
	sc.Name = "SYS"
	sysJWT, err := sc.Encode(o.operator)
	if err != nil {
		return "", fmt.Errorf("system account JWT: %w", err)
	}
	ac := jwt.NewAccountClaims(accPub)
	ac.Name = AccountName
	ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: jwt.NoLimit, DiskStorage: jwt.NoLimit, Streams: jwt.NoLimit, Consumer: jwt.NoLimit}
	accJWT, err := ac.Encode(o.operator)
	if err != nil {
		return "", fmt.Errorf("account JWT: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "operator: %s\nsystem_account: %s\nresolver: MEMORY\nresolver_preload: {\n", opJWT, sysPub)
	fmt.Fprintf(&b, "  # %s\n  %s: %s\n  # SYS\n  %s: %s\n}\n", AccountName, accPub, accJWT, sysPub, sysJWT)
	return b.String(), nil
}

// UserJWT is program's user JWT (NATS_USER_JWT): its key from k, signed by
// the account, with Permissions(program).
func (o *Operator) UserJWT(k *Keyring, program string) (string, error) {
	pub := k.PublicKey(program)
	if pub == "" {
		return "", fmt.Errorf("no key for %s", program)
	}
	uc := jwt.NewUserClaims(pub)
	uc.Name = program
	p := Permissions(program)
	uc.Pub.Allow = jwt.StringList(p.Publish.Allow)
	uc.Pub.Deny = jwt.StringList(p.Publish.Deny)
	uc.Sub.Allow = jwt.StringList(p.Subscribe.Allow)
	uc.Sub.Deny = jwt.StringList(p.Subscribe.Deny)
	token, err := uc.Encode(o.account)
	if err != nil {
		return "", fmt.Errorf("user JWT for %s: %w", program, err)
	}
	return token, nil
}
