package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"uplift.dev/platform/validation"
	"uplift.dev/users/internal/domain"
)

type fakeIdentity struct {
	users   map[string]string // email -> uid
	deleted []string
	emails  []string // every UpdateEmail, in order
	// resetGate, when set, holds PasswordResetLink until it is closed, as
	// a slow Firebase would; resetAsked is told each email first.
	resetGate  chan struct{}
	resetAsked chan string
	// factors counts each uid's second factors; removeErr fails removal.
	factors   map[string]int
	removeErr error
	// revoked lists the uids whose sessions were ended; revokeErr fails that.
	revoked   []string
	revokeErr error
}

func (f *fakeIdentity) CreateUser(_ context.Context, email, _, _ string) (string, error) {
	if _, ok := f.users[email]; ok {
		return "", domain.ErrEmailTaken
	}
	uid := "uid-" + email
	f.users[email] = uid
	return uid, nil
}
func (f *fakeIdentity) DeleteUser(_ context.Context, uid string) error {
	f.deleted = append(f.deleted, uid)
	return nil
}
func (f *fakeIdentity) SignInToken(_ context.Context, uid string) (string, error) {
	return "token-for-" + uid, nil
}
func (f *fakeIdentity) UpdateEmail(_ context.Context, _, email string) error {
	f.emails = append(f.emails, email)
	return nil
}
func (f *fakeIdentity) PasswordResetLink(_ context.Context, email string) (string, error) {
	if f.resetAsked != nil {
		f.resetAsked <- email
	}
	if f.resetGate != nil {
		<-f.resetGate
	}
	return "https://reset/" + email, nil
}
func (f *fakeIdentity) SetRole(_ context.Context, email string, _ domain.Role, _ bool) (string, error) {
	uid, ok := f.users[email]
	if !ok {
		return "", domain.ErrNotFound
	}
	return uid, nil
}
func (f *fakeIdentity) RevokeSessions(_ context.Context, uid string) error {
	if f.revokeErr != nil {
		return f.revokeErr
	}
	f.revoked = append(f.revoked, uid)
	return nil
}

func (f *fakeIdentity) SecondFactors(_ context.Context, uid string) (int, error) {
	return f.factors[uid], nil
}
func (f *fakeIdentity) RemoveSecondFactors(_ context.Context, uid string) error {
	if f.removeErr != nil {
		return f.removeErr
	}
	delete(f.factors, uid)
	return nil
}

type fakeRepo struct {
	users     map[string]domain.User
	failWrite error
	audit     []domain.AuditEntry
	// auditQueries are the AuditLog reads, for the permission tests.
	auditQueries []domain.AuditQuery
	resets       []string // links recorded
	signUpTries  []string // SignUpAttempted recorded: "uid email"
	// recovery holds each user's unused code hashes; locked users are
	// past the failure limit.
	recovery map[string][][]byte
	locked   map[string]bool
	// events are what Update was asked to record beside its changes.
	events []domain.Event
}

func (f *fakeRepo) Create(_ context.Context, u domain.User, _ bool) error {
	if f.failWrite != nil {
		return f.failWrite
	}
	f.users[u.ID] = u
	return nil
}
func (f *fakeRepo) Get(_ context.Context, id string) (domain.User, error) {
	u, ok := f.users[id]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	return u, nil
}
func (f *fakeRepo) Update(ctx context.Context, id string, fn func(*domain.User) (domain.Change, error)) (domain.User, error) {
	u, err := f.Get(ctx, id)
	if err != nil {
		return u, err
	}
	change, err := fn(&u)
	if err != nil {
		return u, err
	}
	if f.failWrite != nil {
		return domain.User{}, f.failWrite
	}
	f.users[id] = u
	f.audit = append(f.audit, change.Audit...)
	f.events = append(f.events, change.Events...)
	return u, nil
}
func (f *fakeRepo) GetByEmail(_ context.Context, email string) (domain.User, error) {
	for _, u := range f.users {
		if u.Email == email {
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}
func (f *fakeRepo) OwnerOfCategory(_ context.Context, categoryID string) (domain.User, error) {
	for _, u := range f.users {
		if u.OriginalCategoryID == categoryID {
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}
func (f *fakeRepo) Search(context.Context, domain.Search) ([]domain.User, error) { return nil, nil }
func (f *fakeRepo) Delete(ctx context.Context, id string, audit ...domain.AuditEntry) (domain.User, error) {
	u, err := f.Get(ctx, id)
	if err == nil {
		delete(f.users, id)
		f.audit = append(f.audit, audit...)
	}
	return u, err
}
func (f *fakeRepo) ClaimPasswordReset(context.Context, string, time.Duration) (time.Time, error) {
	return time.Now(), nil
}
func (f *fakeRepo) ReleasePasswordReset(context.Context, string, time.Time) error { return nil }
func (f *fakeRepo) RecordPasswordReset(_ context.Context, _, link string, _ time.Time) error {
	f.resets = append(f.resets, link)
	return nil
}
func (f *fakeRepo) RecordSignUpAttempt(_ context.Context, userID, email string, _ time.Time) error {
	f.signUpTries = append(f.signUpTries, userID+" "+email)
	return nil
}
func (f *fakeRepo) Audit(_ context.Context, entries ...domain.AuditEntry) error {
	f.audit = append(f.audit, entries...)
	return nil
}

func (f *fakeRepo) Record(_ context.Context, c domain.Change) error {
	f.audit = append(f.audit, c.Audit...)
	f.events = append(f.events, c.Events...)
	return nil
}

func (f *fakeRepo) AuditLog(_ context.Context, q domain.AuditQuery) ([]domain.AuditRecord, error) {
	f.auditQueries = append(f.auditQueries, q)
	return nil, nil
}
func (f *fakeRepo) PurgeAudit(context.Context, time.Time) (int64, error) { return 0, nil }

func (f *fakeRepo) ReplaceRecoveryCodes(_ context.Context, userID string, hashes [][]byte, _ time.Time, audit domain.AuditEntry) error {
	if f.recovery == nil {
		f.recovery = map[string][][]byte{}
	}
	f.recovery[userID] = hashes
	f.audit = append(f.audit, audit)
	return nil
}

// UseRecoveryCode spends a matching code unless Then fails, as the
// Postgres repository does (its locking and counting are tested there).
func (f *fakeRepo) UseRecoveryCode(ctx context.Context, a domain.RecoveryAttempt) (int, error) {
	if f.locked[a.UserID] {
		return 0, domain.ErrRecoveryLocked
	}
	codes := f.recovery[a.UserID]
	i := domain.MatchRecoveryCode(a.Hash, codes)
	if i < 0 {
		return 0, domain.ErrRecoveryCodeRejected
	}
	if err := a.Then(ctx); err != nil {
		return 0, err
	}
	f.recovery[a.UserID] = append(codes[:i:i], codes[i+1:]...)
	audit := a.Audit
	audit.Detail = a.Detail(len(codes) - 1)
	f.audit = append(f.audit, audit)
	return len(codes) - 1, nil
}

func newApp() (*App, *fakeIdentity, *fakeRepo) {
	id := &fakeIdentity{users: map[string]string{}}
	repo := &fakeRepo{users: map[string]domain.User{}}
	a := New(id, repo, slog.New(slog.NewTextHandler(io.Discard, nil)))
	n := 0
	a.newID = func() string {
		n++
		return []string{"", "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"}[n]
	}
	return a, id, repo
}

func TestCreateUserStoresUserWithOwnCategory(t *testing.T) {
	a, _, repo := newApp()
	res, err := a.CreateUser(context.Background(), CreateUserInput{Email: "Shop@Example.com", Password: "secret1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "uid-shop@example.com" || res.SignInToken != "token-for-uid-shop@example.com" {
		t.Fatalf("result %+v", res)
	}
	u := repo.users[res.ID]
	if u.DisplayName != "shop" || u.SignUpSource != "web" || u.CategoryID == "" || u.CategoryID != u.OriginalCategoryID {
		t.Fatalf("stored %+v", u)
	}
}

func TestCreateUserUndoesIdentityWhenStoreFails(t *testing.T) {
	a, id, repo := newApp()
	repo.failWrite = errors.New("db down")
	_, err := a.CreateUser(context.Background(), CreateUserInput{Email: "a@b.co", Password: "secret1"})
	if err == nil {
		t.Fatal("want error")
	}
	if len(id.deleted) != 1 || id.deleted[0] != "uid-a@b.co" {
		t.Fatalf("identity not undone: %v", id.deleted)
	}
}

// TestSignUpWithATakenEmailAnswersAsANewOne: a sign-up with the email of
// an account is not an error saying so (which would tell anyone who has an
// account); it
// succeeds without a way in, and the owner is told by email.
func TestSignUpWithATakenEmailAnswersAsANewOne(t *testing.T) {
	a, id, repo := newApp()
	ctx := context.Background()
	first, err := a.CreateUser(ctx, CreateUserInput{Email: "shop@example.com", Password: "secret1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.CreateUser(ctx, CreateUserInput{Email: "SHOP@example.com", Password: "other12"})
	if err != nil || res != (CreateUserResult{}) {
		t.Fatalf("sign-up with a taken email: %+v %v, want an empty success", res, err)
	}
	if want := []string{first.ID + " shop@example.com"}; len(repo.signUpTries) != 1 || repo.signUpTries[0] != want[0] {
		t.Fatalf("owner told %q, want %q", repo.signUpTries, want)
	}
	if len(id.deleted) != 0 {
		t.Fatalf("the existing account was touched: %v", id.deleted)
	}

	// An account in Firebase without a stored user is still told, by email.
	id.users["fb-only@example.com"] = "uid-fb"
	if res, err := a.CreateUser(ctx, CreateUserInput{Email: "fb-only@example.com", Password: "secret1"}); err != nil || res.SignInToken != "" {
		t.Fatalf("Firebase-only account: %+v %v", res, err)
	}
	if got := repo.signUpTries[1]; got != " fb-only@example.com" {
		t.Fatalf("told %q", got)
	}
}

func TestCreateUserRejectsBadInputBeforeTouchingIdentity(t *testing.T) {
	a, id, _ := newApp()
	_, err := a.CreateUser(context.Background(), CreateUserInput{Email: "nope", Password: "secret1"})
	wantInvalid(t, err, "email")
	if len(id.users) != 0 {
		t.Fatal("identity created for invalid input")
	}
}

func TestGetUserPermissions(t *testing.T) {
	a, _, repo := newApp()
	repo.users["u1"] = domain.User{ID: "u1"}
	if _, err := a.GetUser(context.Background(), domain.Caller{UID: "u2"}, "u1"); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("other user: %v", err)
	}
	if _, err := a.GetUser(context.Background(), domain.Caller{UID: "u1"}, "u1"); err != nil {
		t.Fatalf("owner: %v", err)
	}
	if _, err := a.GetUser(context.Background(), domain.Caller{UID: "up", Uplifter: true}, "missing"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestCreateOnboarding(t *testing.T) {
	a, _, repo := newApp()
	repo.users["u1"] = domain.User{ID: "u1"}
	owner := domain.Caller{UID: "u1"}
	p, err := a.CreateOnboarding(context.Background(), owner, "u1", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.CategoryID != "11111111-1111-4111-8111-111111111111" || p.OriginalCategoryID != p.CategoryID {
		t.Fatalf("profile %+v", p)
	}
	again, err := a.CreateOnboarding(context.Background(), owner, "u1", "")
	if err != nil || again != p {
		t.Fatalf("second onboarding changed the profile: %+v, %v", again, err)
	}
	_, err = a.CreateOnboarding(context.Background(), owner, "u1", "not-a-uuid")
	wantInvalid(t, err, "categoryId")
	if _, err := a.CreateOnboarding(context.Background(), domain.Caller{UID: "up", Uplifter: true}, "u1", ""); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("uplifter may not onboard others: %v", err)
	}
}

// wantInvalid fails unless err is the caller's mistake in field (the
// platform's validation.Error, which the port maps to 400).
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ve *validation.Error
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("err = %v, want a validation error on %s", err, field)
	}
}
