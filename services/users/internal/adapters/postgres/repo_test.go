package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
	"uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/domain"
	"uplift.dev/users/migrations"
)

func newRepo(t *testing.T) postgres.Repo {
	t.Helper()
	pool := pgtest.Pool(t, "users")
	if err := platformpg.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return postgres.Repo{Pool: pool}
}

// count runs a count(*) query.
func count(t *testing.T, r postgres.Repo, query string, args ...any) int {
	t.Helper()
	var n int
	if err := r.Pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func outbox(t *testing.T, r postgres.Repo, subject string) int {
	t.Helper()
	return count(t, r, `SELECT count(*) FROM outbox WHERE subject = $1`, subject)
}

func owner(id, email string) domain.User {
	return domain.User{ID: id, Email: email, DisplayName: "Owner " + id, SignUpSource: "web", CategoryID: "cat-" + id, OriginalCategoryID: "cat-" + id}
}

var t0 = time.Date(2026, 3, 29, 0, 30, 0, 0, time.UTC)

func TestCreateRecordsTheUserAndItsEventTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if err := r.Create(ctx, owner("u1", "Ada@Example.com"), false); err != nil {
		t.Fatal(err)
	}
	// An address differing only in case is the same person's.
	if err := r.Create(ctx, owner("u2", "ada@example.COM"), false); !errors.Is(err, domain.ErrEmailTaken) {
		t.Fatalf("same email in another case: %v, want ErrEmailTaken", err)
	}
	if n := outbox(t, r, events.SubjectUserCreated); n != 1 {
		t.Fatalf("%d UserCreated events, want 1 (the refused sign-up must record none)", n)
	}
	u, err := r.GetByEmail(ctx, "ADA@example.com")
	if err != nil || u.ID != "u1" || u.Email != "Ada@Example.com" || u.Billing != nil || u.CreatedAt.IsZero() {
		t.Fatalf("by email: %+v %v", u, err)
	}
	if _, err := r.Get(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown id: %v, want ErrNotFound", err)
	}
	if got, err := r.OwnerOfCategory(ctx, "cat-u1"); err != nil || got.ID != "u1" {
		t.Fatalf("owner of cat-u1: %+v %v", got, err)
	}
}

func TestUpdateIsOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	for _, u := range []domain.User{owner("u1", "a@example.com"), owner("u2", "b@example.com")} {
		if err := r.Create(ctx, u, false); err != nil {
			t.Fatal(err)
		}
	}
	audit := domain.AuditEntry{ActorID: "u1", OnBehalfOfID: "u1", CategoryID: "cat-u1", Action: "change_email", At: t0}
	changed, err := r.Update(ctx, "u1", func(u *domain.User) (domain.Change, error) {
		before := *u
		u.Email = "new@example.com"
		u.Billing = &domain.BillingInfo{Tier: "pro", IsManuallySet: true}
		return domain.Change{Audit: []domain.AuditEntry{audit}, Events: domain.ChangeEvents(before, *u, t0)}, nil
	})
	if err != nil || changed.Email != "new@example.com" {
		t.Fatalf("update: %+v %v", changed, err)
	}
	got, err := r.Get(ctx, "u1")
	if err != nil || got.Email != "new@example.com" || got.Billing == nil || got.Billing.Tier != "pro" || !got.Billing.IsManuallySet {
		t.Fatalf("stored: %+v %v", got, err)
	}
	if n := outbox(t, r, events.SubjectUserEmailChanged); n != 1 {
		t.Fatalf("%d UserEmailChanged, want 1", n)
	}
	if n := count(t, r, `SELECT count(*) FROM audit_log WHERE action = 'change_email'`); n != 1 {
		t.Fatalf("%d audit rows, want 1", n)
	}

	// Taking another user's address changes nothing at all: no row, no audit, no event.
	_, err = r.Update(ctx, "u2", func(u *domain.User) (domain.Change, error) {
		before := *u
		u.Email = "NEW@example.com"
		return domain.Change{Audit: []domain.AuditEntry{audit}, Events: domain.ChangeEvents(before, *u, t0)}, nil
	})
	if !errors.Is(err, domain.ErrEmailTaken) {
		t.Fatalf("taken email: %v, want ErrEmailTaken", err)
	}
	// A refusal by the app's own rule leaves everything as it was too.
	refused := errors.New("refused")
	if _, err := r.Update(ctx, "u2", func(u *domain.User) (domain.Change, error) {
		u.DisplayName = "changed"
		return domain.Change{}, refused
	}); !errors.Is(err, refused) {
		t.Fatalf("refused update: %v", err)
	}
	if got, _ := r.Get(ctx, "u2"); got.Email != "b@example.com" || got.DisplayName != "Owner u2" {
		t.Fatalf("u2 changed by failed updates: %+v", got)
	}
	if n := outbox(t, r, events.SubjectUserEmailChanged); n != 1 {
		t.Fatalf("%d UserEmailChanged after the failures, want still 1", n)
	}
	if n := count(t, r, `SELECT count(*) FROM audit_log`); n != 1 {
		t.Fatalf("%d audit rows after the failures, want still 1", n)
	}
	if _, err := r.Update(ctx, "nobody", func(*domain.User) (domain.Change, error) { return domain.Change{}, nil }); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
}

func TestRecordWritesEveryKindOfEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	change := domain.Change{
		Audit: []domain.AuditEntry{{ActorID: "usersctl:ops", OnBehalfOfID: "u1", Action: "grant_role", Detail: "uplifter", At: t0}},
		Events: []domain.Event{
			domain.RoleChanged{UserID: "u1", Role: "uplifter", Granted: true, At: t0},
			domain.Unsubscribed{UserID: "u1", Email: "a@example.com", CategoryID: "cat-u1", At: t0},
		},
	}
	if err := r.Record(ctx, change); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{events.SubjectUserRoleChanged, events.SubjectUserUnsubscribed} {
		if n := outbox(t, r, s); n != 1 {
			t.Errorf("%s: %d events, want 1", s, n)
		}
	}
	if n := count(t, r, `SELECT count(*) FROM audit_log WHERE actor_id = 'usersctl:ops'`); n != 1 {
		t.Fatalf("%d audit rows, want 1", n)
	}
}

func TestDeleteSendsViewersHome(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	gone, helper := owner("u1", "gone@example.com"), owner("u2", "helper@example.com")
	helper.CategoryID = gone.OriginalCategoryID // viewing as the owner about to leave
	for _, u := range []domain.User{gone, helper} {
		if err := r.Create(ctx, u, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.ClaimPasswordReset(ctx, "gone@example.com", time.Minute); err != nil {
		t.Fatal(err)
	}
	deleted, err := r.Delete(ctx, "u1", domain.AuditEntry{ActorID: "admin", OnBehalfOfID: "u1", Action: "delete_user", At: t0})
	if err != nil || deleted.ID != "u1" {
		t.Fatalf("delete: %+v %v", deleted, err)
	}
	if got, err := r.Get(ctx, "u2"); err != nil || got.CategoryID != "cat-u2" {
		t.Fatalf("the viewer stayed in the deleted category: %+v %v", got, err)
	}
	if n := count(t, r, `SELECT count(*) FROM password_reset_requests`); n != 0 {
		t.Fatalf("%d reset slots left for a deleted user", n)
	}
	if n := outbox(t, r, events.SubjectUserDeleted); n != 1 {
		t.Fatalf("%d UserDeleted, want 1", n)
	}
	if _, err := r.Delete(ctx, "u1"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
}

func TestPasswordResetSlot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	claimed, err := r.ClaimPasswordReset(ctx, "a@example.com", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClaimPasswordReset(ctx, "a@example.com", time.Hour); !errors.Is(err, domain.ErrRateLimited) {
		t.Fatalf("second claim within the interval: %v, want ErrRateLimited", err)
	}
	// Releasing an older claim's time frees nothing.
	if err := r.ReleasePasswordReset(ctx, "a@example.com", claimed.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClaimPasswordReset(ctx, "a@example.com", time.Hour); !errors.Is(err, domain.ErrRateLimited) {
		t.Fatalf("claim after releasing another time: %v, want ErrRateLimited", err)
	}
	if err := r.ReleasePasswordReset(ctx, "a@example.com", claimed); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClaimPasswordReset(ctx, "a@example.com", time.Hour); err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	// A zero interval always lets the next one through.
	if _, err := r.ClaimPasswordReset(ctx, "b@example.com", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClaimPasswordReset(ctx, "b@example.com", 0); err != nil {
		t.Fatalf("zero interval: %v", err)
	}
}

func TestSearchPagesInEmailOrderAndMatchesLiterally(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	for i, email := range []string{"a_b@example.com", "axb@example.com", "Carol@example.com", "bob@example.com", "100%@example.com"} {
		u := owner(fmt.Sprintf("u%d", i), email)
		if i == 3 {
			u.CategoryID, u.OriginalCategoryID = "", "" // not set up yet
		}
		if err := r.Create(ctx, u, false); err != nil {
			t.Fatal(err)
		}
	}
	emails := func(us []domain.User) (out []string) {
		for _, u := range us {
			out = append(out, u.Email)
		}
		return out
	}
	// "_" and "%" are letters in a search box, not LIKE's wildcards.
	if got, err := r.Search(ctx, domain.Search{Query: "a_", PageSize: 10}); err != nil || fmt.Sprint(emails(got)) != "[a_b@example.com]" {
		t.Fatalf("a_: %v %v", emails(got), err)
	}
	if got, err := r.Search(ctx, domain.Search{Query: "100%", PageSize: 10}); err != nil || len(got) != 1 {
		t.Fatalf("100%%: %v %v", emails(got), err)
	}
	// Pages in lower(email) order; the repository reads one more than a
	// page so the app knows whether another follows.
	first, err := r.Search(ctx, domain.Search{PageSize: 2, WithProfileOnly: true})
	if err != nil || fmt.Sprint(emails(first)) != "[100%@example.com a_b@example.com axb@example.com]" {
		t.Fatalf("first page: %v %v", emails(first), err)
	}
	last := first[1]
	rest, err := r.Search(ctx, domain.Search{PageSize: 2, WithProfileOnly: true, After: &domain.Cursor{Email: "a_b@example.com", ID: last.ID}})
	if err != nil || fmt.Sprint(emails(rest)) != "[axb@example.com Carol@example.com]" {
		t.Fatalf("second page (without the user with no profile): %v %v", emails(rest), err)
	}
}

func TestAuditLogSidesAndPurge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	for _, u := range []domain.User{owner("owner", "owner@example.com"), owner("helper", "helper@example.com")} {
		if err := r.Create(ctx, u, false); err != nil {
			t.Fatal(err)
		}
	}
	entries := []domain.AuditEntry{
		{ActorID: "helper", OnBehalfOfID: "owner", CategoryID: "cat-owner", Action: "update_category", At: t0},
		{ActorID: "helper", OnBehalfOfID: "owner", CategoryID: "cat-owner", Action: "switch_category", At: t0.Add(time.Hour)},
		{ActorID: "owner", OnBehalfOfID: "owner", CategoryID: "cat-owner", Action: "own_change", At: t0.Add(2 * time.Hour)},
		{ActorID: "helper", OnBehalfOfID: "owner", CategoryID: "cat-owner", Action: "too_old", At: t0.Add(-100 * 24 * time.Hour)},
	}
	if err := r.Audit(ctx, entries...); err != nil {
		t.Fatal(err)
	}
	since := t0.Add(-90 * 24 * time.Hour)
	subject, err := r.AuditLog(ctx, domain.AuditQuery{UserID: "owner", Role: domain.AuditAsSubject, Since: since, Limit: 10})
	if err != nil || len(subject) != 2 || subject[0].Action != "switch_category" || subject[0].ActorEmail != "helper@example.com" || subject[0].OwnerEmail != "owner@example.com" {
		t.Fatalf("owner's log (newest first, others' acts only): %+v %v", subject, err)
	}
	actor, err := r.AuditLog(ctx, domain.AuditQuery{UserID: "helper", Role: domain.AuditAsActor, Since: since, Limit: 1})
	if err != nil || len(actor) != 1 || actor[0].Action != "switch_category" {
		t.Fatalf("helper's own acts, limit 1: %+v %v", actor, err)
	}
	// A deleted person's rows stay, with their email gone.
	if _, err := r.Delete(ctx, "helper"); err != nil {
		t.Fatal(err)
	}
	subject, _ = r.AuditLog(ctx, domain.AuditQuery{UserID: "owner", Role: domain.AuditAsSubject, Since: since, Limit: 10})
	if len(subject) != 2 || subject[0].ActorEmail != "" || subject[0].ActorID != "helper" {
		t.Fatalf("after the helper's deletion: %+v", subject)
	}
	n, err := r.PurgeAudit(ctx, since)
	if err != nil || n != 1 {
		t.Fatalf("purge: %d %v, want the one row older than 90 days", n, err)
	}
}

func TestRecoveryCodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	if err := r.Create(ctx, owner("u1", "a@example.com"), false); err != nil {
		t.Fatal(err)
	}
	codes := []string{"aaaa-1111", "bbbb-2222"}
	var hashes [][]byte
	for _, c := range codes {
		hashes = append(hashes, domain.HashRecoveryCode("u1", c))
	}
	if err := r.ReplaceRecoveryCodes(ctx, "u1", hashes, t0, domain.AuditEntry{ActorID: "u1", OnBehalfOfID: "u1", Action: "recovery_codes", At: t0}); err != nil {
		t.Fatal(err)
	}
	try := func(code, client string, then func(context.Context) error) (int, error) {
		if then == nil {
			then = func(context.Context) error { return nil }
		}
		return r.UseRecoveryCode(ctx, domain.RecoveryAttempt{
			UserID: "u1", Client: client, Hash: domain.HashRecoveryCode("u1", code), At: t0,
			Audit:  domain.AuditEntry{ActorID: "u1", OnBehalfOfID: "u1", Action: "recovery_code_used", At: t0},
			Detail: func(left int) string { return fmt.Sprint(left, " left") }, Then: then,
		})
	}
	if _, err := try("wrong", "198.51.100.7", nil); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
		t.Fatalf("wrong code: %v", err)
	}
	if n := count(t, r, `SELECT count(*) FROM recovery_failures`); n != 1 {
		t.Fatalf("%d failures recorded, want the wrong code counted", n)
	}
	// When what follows a match fails, the code is not spent.
	failed := errors.New("second factor not removed")
	if _, err := try(codes[0], "203.0.113.9", func(context.Context) error { return failed }); !errors.Is(err, failed) {
		t.Fatalf("failing Then: %v", err)
	}
	left, err := try(codes[0], "203.0.113.9", nil)
	if err != nil || left != 1 {
		t.Fatalf("first use: %d left, %v", left, err)
	}
	if _, err := try(codes[0], "203.0.113.9", nil); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
		t.Fatalf("a used code again: %v", err)
	}
	if n := count(t, r, `SELECT count(*) FROM audit_log WHERE action = 'recovery_code_used' AND detail = '1 left'`); n != 1 {
		t.Fatalf("%d use audits with the codes left, want 1", n)
	}
	// The stranger's failure still counts after the owner's success.
	if n := count(t, r, `SELECT count(*) FROM recovery_failures WHERE client = '198.51.100.7'`); n != 1 {
		t.Fatalf("the stranger's failures were forgotten (%d)", n)
	}
	if _, err := try(codes[1], "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.UseRecoveryCode(ctx, domain.RecoveryAttempt{UserID: "nobody", Hash: []byte("x"), At: t0}); !errors.Is(err, domain.ErrRecoveryCodeRejected) {
		t.Fatalf("unknown user: %v", err)
	}
}
