package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// publish sends ev on subject as the users service's relay would, with a
// fresh message id each time, so a repeat is a redelivery the consumer
// itself must make harmless.
func (h harness) publish(t *testing.T, subject string, ev proto.Message) {
	t.Helper()
	data, err := proto.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := natstest.PublishAsOwner(t, h.base.NATSURL, subject, uuid.NewString(), data); err != nil {
		t.Fatal(err)
	}
}

// count runs a SELECT count(*) in the service's schema.
func (h harness) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := h.db.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// rowsUnder counts what is stored for a category: the category itself,
// its reports, their insights, its ideas, its audit rows and its store
// signals.
func (h harness) rowsUnder(t *testing.T, cat string) map[string]int {
	t.Helper()
	return map[string]int{
		"categories": h.count(t, `SELECT count(*) FROM categories WHERE id = $1`, cat),
		"reports":    h.count(t, `SELECT count(*) FROM reports WHERE category_id = $1`, cat),
		"insights": h.count(t, `SELECT count(*) FROM insights i JOIN reports r ON r.id = i.report_id
			WHERE r.category_id = $1`, cat),
		"ideas":         h.count(t, `SELECT count(*) FROM ideas WHERE category_id = $1`, cat),
		"audit":         h.count(t, `SELECT count(*) FROM on_behalf_audit WHERE category_id = $1`, cat),
		"store signals": h.count(t, `SELECT count(*) FROM store_signals WHERE category_id = $1`, cat),
	}
}

// reviewed saves the good site on cat as its owner and waits for the
// READY report, so the category has reports, insights and ideas.
func (h harness) reviewed(t *testing.T, cat, tok string) {
	t.Helper()
	if _, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String("good-store.test"),
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(as(tok), &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		return err == nil && r.GetReport().GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_READY
	})
}

// TestUserDeletedRemovesOnlyTheOwnersData deletes one of two users: every
// category the deleted user owns goes with all under it, including one the
// event does not name; the other user's category keeps everything.
func TestUserDeletedRemovesOnlyTheOwnersData(t *testing.T) {
	t.Parallel()
	h := start(t)
	gone, goneCat, goneTok := h.ownerUser(t)
	_, keptCat, keptTok := h.ownerUser(t)
	_, uplifterTok := h.signUp(t, true)
	h.reviewed(t, goneCat, goneTok)
	h.reviewed(t, keptCat, keptTok)

	// A second category of the same user, which the UserDeleted event will
	// not name: deletion goes by owner, not by the event's category id.
	extraCat := uuid.NewString()
	h.publish(t, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: gone, CategoryId: extraCat,
		DisplayName: "Second shop", OccurTime: timestamppb.Now()})
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM categories WHERE id = $1 AND owner_id = $2`, extraCat, gone) == 1
	})
	// On-behalf changes to both users' categories leave audit rows.
	for _, cat := range []string{goneCat, keptCat} {
		if _, err := h.client.UpdateLabel(as(uplifterTok), &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "By uplifter"}); err != nil {
			t.Fatal(err)
		}
	}
	// Both stores sent their numbers.
	for _, cat := range []string{goneCat, keptCat} {
		h.publish(t, events.SubjectStoreSignalsUpdated, storeSignals(cat))
	}
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM store_signals WHERE category_id IN ($1, $2)`, goneCat, keptCat) == 2
	})
	before := h.rowsUnder(t, keptCat)
	for table, n := range before {
		if n == 0 {
			t.Fatalf("the kept category has no %s to protect: %v", table, before)
		}
	}
	if g := h.rowsUnder(t, goneCat); g["ideas"] == 0 || g["insights"] == 0 || g["audit"] == 0 || g["store signals"] == 0 {
		t.Fatalf("the deleted user's category has nothing to delete: %v", g)
	}

	// Published twice: the second finds nothing left and changes nothing.
	for range 2 {
		h.publish(t, events.SubjectUserDeleted, &eventsv1.UserDeleted{UserId: gone, CategoryId: goneCat, OccurTime: timestamppb.Now()})
	}
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM categories WHERE owner_id = $1`, gone) == 0
	})
	for _, cat := range []string{goneCat, extraCat} {
		for table, n := range h.rowsUnder(t, cat) {
			if n != 0 {
				t.Errorf("%s of deleted category %s left behind: %d", table, cat, n)
			}
		}
		_, err := h.client.GetLabel(as(uplifterTok), &categoriesv1.GetLabelRequest{CategoryId: cat})
		if status.Code(err) != codes.NotFound {
			t.Errorf("deleted category %s still answers: %v", cat, err)
		}
	}
	if n := h.count(t, `SELECT count(*) FROM on_behalf_audit WHERE owner_id = $1`, gone); n != 0 {
		t.Errorf("audit rows naming the deleted owner left behind: %d", n)
	}
	// Signals the stores service sent before it saw the deletion arrive
	// late: they find no category and bring nothing back.
	h.publish(t, events.SubjectStoreSignalsUpdated, storeSignals(goneCat))
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM processed_messages WHERE consumer = 'categories-store-signals'`) == 3
	})
	if g := h.rowsUnder(t, goneCat); g["store signals"] != 0 || g["ideas"] != 0 {
		t.Errorf("late signals brought a deleted user's data back: %v", g)
	}
	// Wait until both deliveries are recorded, so "untouched" is checked
	// after the repeat too.
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM processed_messages WHERE consumer = 'categories-users-deleted'`) == 2
	})
	after := h.rowsUnder(t, keptCat)
	for table, n := range before {
		if after[table] != n {
			t.Errorf("other user's %s changed: %d -> %d", table, n, after[table])
		}
	}
	lbl, err := h.client.GetLabel(as(keptTok), &categoriesv1.GetLabelRequest{CategoryId: keptCat})
	if err != nil || lbl.GetName() != "By uplifter" {
		t.Fatalf("other user's category: %v %v", lbl, err)
	}
}

// TestUserUnsubscribedTurnsBothEmailsOff unsubscribes one of two users:
// both switches go off on their category, again harmlessly on a repeat,
// and the other user's stay on.
func TestUserUnsubscribedTurnsBothEmailsOff(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, cat, tok := h.ownerUser(t)
	_, otherCat, otherTok := h.ownerUser(t)
	for range 2 {
		h.publish(t, events.SubjectUserUnsubscribed, &eventsv1.UserUnsubscribed{UserId: uid, Email: "x@example.com",
			CategoryId: cat, OccurTime: timestamppb.Now()})
	}
	eventually(t, func() bool {
		return h.count(t, `SELECT count(*) FROM processed_messages WHERE consumer = 'categories-users-unsubscribed'`) == 2
	})
	got, err := h.client.GetEmailPreferences(as(tok), &categoriesv1.GetEmailPreferencesRequest{CategoryId: cat})
	if err != nil || !got.GetDisableWeeklyEmail() || !got.GetDisableBusinessReport() {
		t.Fatalf("unsubscribed user's switches: %v %v", got, err)
	}
	other, err := h.client.GetEmailPreferences(as(otherTok), &categoriesv1.GetEmailPreferencesRequest{CategoryId: otherCat})
	if err != nil || other.GetDisableWeeklyEmail() || other.GetDisableBusinessReport() {
		t.Fatalf("other user's switches changed: %v %v", other, err)
	}
}

// TestOnBehalfChangesAreAudited makes every mutating call as an uplifter
// on an owner's category, then as the owner: each uplifter call writes one
// row naming both, the owner's own calls and refused calls write none.
func TestOnBehalfChangesAreAudited(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner, cat, ownerTok := h.ownerUser(t)
	uplifter, uplifterTok := h.signUp(t, true)
	c := h.client
	calls := []struct {
		action string
		call   func(context.Context) error
	}{
		{"UpdateLabel", func(ctx context.Context) error {
			_, err := c.UpdateLabel(ctx, &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "On behalf"})
			return err
		}},
		{"UpdateContentGenerationParams", func(ctx context.Context) error {
			_, err := c.UpdateContentGenerationParams(ctx, &categoriesv1.UpdateContentGenerationParamsRequest{CategoryId: cat, DisableWeeklyEmail: proto.Bool(true)})
			return err
		}},
		{"UpdateEmailPreferences", func(ctx context.Context) error {
			_, err := c.UpdateEmailPreferences(ctx, &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: cat, DisableBusinessReport: proto.Bool(false)})
			return err
		}},
		{"DisableBusinessReport", func(ctx context.Context) error {
			_, err := c.DisableBusinessReport(ctx, &categoriesv1.DisableBusinessReportRequest{CategoryId: cat})
			return err
		}},
		{"InvalidateCampaignIdeas", func(ctx context.Context) error {
			_, err := c.InvalidateCampaignIdeas(ctx, &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: cat})
			return err
		}},
		{"SendAIEmailDigest", func(ctx context.Context) error {
			_, err := c.SendAIEmailDigest(ctx, &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat})
			return err
		}},
	}
	audit := func() int { return h.count(t, `SELECT count(*) FROM on_behalf_audit WHERE category_id = $1`, cat) }

	// The owner's own calls write nothing.
	for _, cl := range calls {
		if err := cl.call(as(ownerTok)); err != nil {
			t.Fatalf("owner %s: %v", cl.action, err)
		}
	}
	if n := audit(); n != 0 {
		t.Fatalf("owner's own calls wrote %d audit rows", n)
	}
	// A refused change (bad label) is rolled back with its audit row.
	if _, err := c.UpdateLabel(as(uplifterTok), &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "  "}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("blank label: %v", err)
	}
	if n := audit(); n != 0 {
		t.Fatalf("a refused call wrote %d audit rows", n)
	}

	// The uplifter's UpdateLabel: exactly one row, naming both.
	since := time.Now().Add(-time.Minute)
	if err := calls[0].call(as(uplifterTok)); err != nil {
		t.Fatal(err)
	}
	var actor, ownerID, category, action string
	var at time.Time
	if err := h.db.QueryRow(context.Background(), `SELECT actor_id, owner_id, category_id, action, occurred_at
		FROM on_behalf_audit WHERE category_id = $1`, cat).Scan(&actor, &ownerID, &category, &action, &at); err != nil {
		t.Fatalf("exactly one audit row expected: %v", err)
	}
	if actor != uplifter || ownerID != owner || category != cat || action != "UpdateLabel" ||
		at.Before(since) || at.After(time.Now().Add(time.Minute)) {
		t.Fatalf("audit row = %q %q %q %q %v", actor, ownerID, category, action, at)
	}
	// The owner's own rename after it adds nothing.
	if err := calls[0].call(as(ownerTok)); err != nil {
		t.Fatal(err)
	}
	if n := audit(); n != 1 {
		t.Fatalf("audit rows after the owner's rename = %d, want 1", n)
	}

	// Every other mutating call on behalf writes one row under its own name.
	// (The owner asked for a digest a moment ago: let a minute pass.)
	if _, err := h.db.Exec(context.Background(), `UPDATE categories SET last_digest_requested_at = now() - interval '2 minutes' WHERE id = $1`, cat); err != nil {
		t.Fatal(err)
	}
	for _, cl := range calls[1:] {
		if err := cl.call(as(uplifterTok)); err != nil {
			t.Fatalf("uplifter %s: %v", cl.action, err)
		}
		if n := h.count(t, `SELECT count(*) FROM on_behalf_audit WHERE category_id = $1 AND action = $2
			AND actor_id = $3 AND owner_id = $4`, cat, cl.action, uplifter, owner); n != 1 {
			t.Errorf("%s on behalf: %d audit rows, want 1", cl.action, n)
		}
	}
	if n := audit(); n != len(calls) {
		t.Fatalf("audit rows = %d, want %d", n, len(calls))
	}
}
