package events

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Publishers says which service may publish each subject. It is the one
// table both sides of the bus are built from: the NATS server's publish
// permissions (package natsauth) and every consumer's check of the sender
// (Trust.Check). A subject missing here may be published by nobody; a "*"
// token stands for any one token, as in NATS.
var Publishers = map[string][]string{
	SubjectUserCreated:                {"users"},
	SubjectUserDeleted:                {"users"},
	SubjectUserEmailChanged:           {"users"},
	SubjectPasswordResetRequested:     {"users"},
	SubjectEmailVerificationRequested: {"users"},
	SubjectSignUpAttempted:            {"users"},
	SubjectUserUnsubscribed:           {"users"},
	SubjectUserRoleChanged:            {"users"},
	SubjectBillingChanged:             {"billing"},
	SubjectDigestRequested:            {"categories"},
	SubjectEmailKindUnsubscribed:      {"digest"},
	SubjectCategoryUpdated:            {"categories"},
	SubjectReviewRequested:            {"categories"},
	SubjectReportUpdated:              {"categories"},
	SubjectStoreSignalsUpdated:        {"stores"},
	SubjectShopifyShopMoved:           {"stores"},
	// The daily report comes from stores for a connected shop and from
	// categories for a business with no data yet.
	SubjectDailyReportReady:  {"stores", "categories"},
	SubjectWeeklyReviewReady: {"categories"},
	SubjectActedOnBehalf:     {"categories", "billing"},
	SubjectReviewProgressed:  {"review"},
	SubjectReviewCompleted:   {"review"},
	SubjectReviewFailed:      {"review"},
}

// MayPublish reports whether service may publish subject.
func MayPublish(service, subject string) bool {
	return slices.Contains(PublishersOf(subject), service)
}

// PublishersOf lists the services that may publish subject, a subject a
// message is published on (no wildcards).
func PublishersOf(subject string) []string {
	for pattern, senders := range Publishers {
		if matches(pattern, subject) {
			return senders
		}
	}
	return nil
}

// matches reports whether subject is one of pattern's subjects. A subject
// with a wildcard of its own names many subjects and matches none.
func matches(pattern, subject string) bool {
	want, got := strings.Split(pattern, "."), strings.Split(subject, ".")
	if len(want) != len(got) {
		return false
	}
	for i, tok := range got {
		if tok == "" || tok == "*" || tok == ">" || (want[i] != "*" && want[i] != tok) {
			return false
		}
	}
	return true
}

// SubjectsOf lists the subjects service may publish, sorted.
func SubjectsOf(service string) []string {
	var out []string
	for subject, senders := range Publishers {
		if slices.Contains(senders, service) {
			out = append(out, subject)
		}
	}
	sort.Strings(out)
	return out
}

// Headers that say who sent an event. The signature covers the subject, the
// message id and the payload, so a signed event cannot be moved to another
// subject or replayed under a new id without the sender's key.
const (
	HeaderSender    = "Uplift-Sender"
	HeaderSignature = "Uplift-Signature"
)

// Signer signs the events one service publishes with its NATS nkey (the same
// key it authenticates to NATS with).
type Signer struct {
	Service string
	// UserJWT is, on an operator-mode NATS, the program's user JWT for
	// this key (UseJWT), shown when it connects in place of the bare key;
	// empty on a NATS that lists the keys itself.
	UserJWT string
	key     nkeys.KeyPair
}

// NewSigner reads a user nkey seed ("SU...") for service.
func NewSigner(service string, seed []byte) (*Signer, error) {
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		return nil, fmt.Errorf("nkey seed for %s: %w", service, err)
	}
	if pub, _ := kp.PublicKey(); !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("nkey seed for %s: not a user key", service)
	}
	return &Signer{Service: service, key: kp}, nil
}

// UseJWT has the sender sign in to an operator-mode NATS with token, its
// user JWT (natsauth.Operator.UserJWT), which must be for this key: NATS
// would refuse a JWT for another key with a bare "authorization
// violation", so the program says which setting is wrong instead.
func (s *Signer) UseJWT(token string) error {
	claims, err := jwt.DecodeUserClaims(token)
	if err != nil {
		return err
	}
	if claims.Subject != s.PublicKey() {
		return fmt.Errorf("the JWT is for key %s, the seed is key %s", claims.Subject, s.PublicKey())
	}
	s.UserJWT = token
	return nil
}

// PublicKey is the "U..." key NATS and the consumers know this sender by.
func (s *Signer) PublicKey() string {
	pub, _ := s.key.PublicKey()
	return pub
}

// NATSOption authenticates a connection as this sender and has its
// replies (JetStream's answers and the events it pulls) come to the
// sender's own inbox, the only one NATS lets it read (natsauth).
func (s *Signer) NATSOption() nats.Option {
	return func(o *nats.Options) error {
		auth := nats.Nkey(s.PublicKey(), s.key.Sign)
		if s.UserJWT != "" {
			auth = nats.UserJWT(func() (string, error) { return s.UserJWT, nil }, s.key.Sign)
		}
		if err := auth(o); err != nil {
			return err
		}
		return nats.CustomInboxPrefix(InboxPrefix(s.Service))(o)
	}
}

// InboxPrefix is where service's connections receive replies.
func InboxPrefix(service string) string { return "_INBOX_" + service }

// Sign adds the sender headers to msg, published with message id id.
func (s *Signer) Sign(msg *nats.Msg, id string) error {
	sig, err := s.key.Sign(signedBytes(msg.Subject, id, msg.Data))
	if err != nil {
		return fmt.Errorf("sign %s: %w", msg.Subject, err)
	}
	if msg.Header == nil {
		msg.Header = nats.Header{}
	}
	msg.Header.Set(HeaderSender, s.Service)
	msg.Header.Set(HeaderSignature, base64.RawURLEncoding.EncodeToString(sig))
	return nil
}

func signedBytes(subject, id string, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	return []byte(subject + "\n" + id + "\n" + base64.RawStdEncoding.EncodeToString(sum[:]))
}

// Trust knows every sender's public key and checks events against
// Publishers. A nil *Trust checks nothing: only for a test's plain NATS.
type Trust struct {
	keys map[string]nkeys.KeyPair
}

// ErrUntrustedSender is why an event is refused: unsigned, signed by an
// unknown key, badly signed, or by a service that may not publish its subject.
var ErrUntrustedSender = errors.New("event from an untrusted sender")

// ParseTrust reads "users=UAB…,billing=UCD…" (NATS_SENDER_KEYS).
func ParseTrust(spec string) (*Trust, error) {
	t := &Trust{keys: map[string]nkeys.KeyPair{}}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, key, ok := strings.Cut(part, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%q: want service=PUBLICKEY", part)
		}
		if !nkeys.IsValidPublicUserKey(key) {
			return nil, fmt.Errorf("%s: not a public user nkey", name)
		}
		kp, err := nkeys.FromPublicKey(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		t.keys[name] = kp
	}
	if len(t.keys) == 0 {
		return nil, errors.New("no sender keys")
	}
	return t, nil
}

// Check returns the service that sent msg (published with message id id),
// or ErrUntrustedSender.
func (t *Trust) Check(subject, id string, header nats.Header, payload []byte) (string, error) {
	if t == nil {
		return header.Get(HeaderSender), nil
	}
	sender := header.Get(HeaderSender)
	kp, ok := t.keys[sender]
	if !ok {
		return "", fmt.Errorf("%w: sender %q unknown", ErrUntrustedSender, sender)
	}
	if !MayPublish(sender, subject) {
		return "", fmt.Errorf("%w: %s may not publish %s", ErrUntrustedSender, sender, subject)
	}
	sig, err := base64.RawURLEncoding.DecodeString(header.Get(HeaderSignature))
	if err != nil || kp.Verify(signedBytes(subject, id, payload), sig) != nil {
		return "", fmt.Errorf("%w: bad signature claiming %s", ErrUntrustedSender, sender)
	}
	return sender, nil
}
