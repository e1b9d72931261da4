package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// publish sends ev as another service's outbox would, with a message id.
func publish(t *testing.T, h harness, id string, ev *eventsv1.ActedOnBehalf) {
	t.Helper()
	data, err := proto.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := natstest.PublishAsOwner(t, h.nats, events.SubjectActedOnBehalf, id, data); err != nil {
		t.Fatal(err)
	}
}

// TestAuditLogAsOwnerAndAsUplifter: the owner reads who acted for them
// (users' own switches, and other services' actions that arrive as
// ActedOnBehalf events, once each), the uplifter reads what they did; nobody
// else reads either; rows older than 90 days are not shown; and the rows
// outlive the owner's account.
func TestAuditLogAsOwnerAndAsUplifter(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner := signUp(t, h, freshEmail())
	up := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"uplifter": true})
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	ownerCat, err := h.client.GetMetricsCategory(as(owner.token), &usersv1.GetMetricsCategoryRequest{UserId: owner.id})
	if err != nil {
		t.Fatal(err)
	}
	cat := ownerCat.GetCategoryId()
	upCat, err := h.client.GetMetricsCategory(as(up.token), &usersv1.GetMetricsCategoryRequest{UserId: up.id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.SwitchMetricsCategory(as(up.token), &usersv1.SwitchMetricsCategoryRequest{UserId: up.id, CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	labelID := uuid.NewString()
	publish(t, h, labelID, &eventsv1.ActedOnBehalf{ActorId: up.id, OwnerId: owner.id, CategoryId: cat,
		Action: "UpdateLabel", Service: "categories", OccurTime: timestamppb.New(now.Add(time.Second))})
	publish(t, h, labelID, &eventsv1.ActedOnBehalf{ActorId: up.id, OwnerId: owner.id, CategoryId: cat,
		Action: "UpdateLabel", Service: "categories", OccurTime: timestamppb.New(now.Add(time.Second))})
	publish(t, h, uuid.NewString(), &eventsv1.ActedOnBehalf{ActorId: admin.id, OwnerId: owner.id,
		Action: "set_billing", Detail: "tier pro", Service: "billing", OccurTime: timestamppb.New(now.Add(2 * time.Second))})
	// Too old to show (but kept until the retention period ends).
	publish(t, h, uuid.NewString(), &eventsv1.ActedOnBehalf{ActorId: up.id, OwnerId: owner.id, CategoryId: cat,
		Action: "UpdateLabel", Service: "categories", OccurTime: timestamppb.New(now.Add(-91 * 24 * time.Hour))})

	var got *usersv1.ListAuditLogResponse
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, err = h.client.ListAuditLog(as(owner.token), &usersv1.ListAuditLogRequest{UserId: owner.id})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.GetEntries()) >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	type row struct{ actor, email, action, detail string }
	want := []row{
		{admin.id, admin.email, "set_billing", "tier pro"},
		{up.id, up.email, "UpdateLabel", ""},
		{up.id, up.email, "switch_metrics_category", "from " + upCat.GetOriginalCategoryId()},
	}
	if len(got.GetEntries()) != len(want) {
		t.Fatalf("owner's log %v, want %v", got.GetEntries(), want)
	}
	for i, e := range got.GetEntries() {
		if (row{e.GetActorId(), e.GetActorEmail(), e.GetAction(), e.GetDetail()}) != want[i] || e.GetOwnerEmail() != owner.email {
			t.Errorf("entry %d = %v, want %+v", i, e, want[i])
		}
	}

	_, err = h.client.ListAuditLog(as(up.token), &usersv1.ListAuditLogRequest{UserId: owner.id})
	wantCode(t, err, codes.PermissionDenied, "")
	_, err = h.client.ListAuditLog(as(owner.token), &usersv1.ListAuditLogRequest{UserId: owner.id, Role: "everyone"})
	wantCode(t, err, codes.InvalidArgument, "role")
	_, err = h.client.ListAuditLog(context.Background(), &usersv1.ListAuditLogRequest{UserId: owner.id})
	wantCode(t, err, codes.Unauthenticated, "")

	mine, err := h.client.ListAuditLog(as(up.token), &usersv1.ListAuditLogRequest{UserId: up.id, Role: "actor"})
	if err != nil || len(mine.GetEntries()) != 2 || mine.GetEntries()[0].GetAction() != "UpdateLabel" ||
		mine.GetEntries()[0].GetOwnerEmail() != owner.email {
		t.Fatalf("uplifter's own actions: %v %v", mine.GetEntries(), err)
	}

	// The owner's account goes; the record of what was done for them stays.
	if _, err := h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{UserId: owner.id}); err != nil {
		t.Fatal(err)
	}
	after, err := h.client.ListAuditLog(as(up.token), &usersv1.ListAuditLogRequest{UserId: up.id, Role: "actor"})
	if err != nil || len(after.GetEntries()) != 2 || after.GetEntries()[0].GetOwnerId() != owner.id || after.GetEntries()[0].GetOwnerEmail() != "" {
		t.Fatalf("after the owner's deletion: %v %v", after.GetEntries(), err)
	}
}
