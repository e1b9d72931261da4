package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/servicetest"
	users "uplift.dev/users/internal/service"
	"uplift.dev/users/migrations"
)

type harness struct {
	client usersv1.UsersServiceClient
	js     jetstream.JetStream // the NATS admin's: reads what the service published
	db     *pgxpool.Pool
	nats   string // the NATS URL, to publish as another service
}

// start runs the real users service: real gRPC server, its own PostgreSQL
// database, an embedded NATS and the Firebase Auth emulator.
func start(t *testing.T) harness {
	t.Helper()
	base := servicetest.Base(t)
	conn, rt := servicetest.Run(t, "users", base, migrations.FS,
		users.Wire(&users.Settings{Base: base, WebURL: "http://localhost:3000"}))
	return harness{client: usersv1.NewUsersServiceClient(conn), js: natstest.Admin(t, base.NATSURL), db: rt.Pool, nats: base.NATSURL}
}

func as(token string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
}

func freshEmail() string { return "owner-" + uuid.NewString()[:8] + "@example.com" }

func TestSignUpThenReadOwnUser(t *testing.T) {
	t.Parallel()
	h := start(t)
	email := freshEmail()
	res, err := h.client.CreateUser(as("unauthed"), &usersv1.CreateUserRequest{
		Email: strings.ToUpper(email), Password: "secret12", SuppressWelcomeEmail: true, MetricsSignUpSource: "web",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.GetId() == "" || res.GetSignInToken() == "" {
		t.Fatalf("response %+v", res)
	}
	idToken := firebasetest.SignInWithCustomToken(t, res.GetSignInToken())

	got, err := h.client.GetUser(as(idToken), &usersv1.GetUserRequest{UserId: res.GetId()})
	if err != nil {
		t.Fatal(err)
	}
	u := got.GetUser()
	wantName := strings.Split(email, "@")[0]
	if u.GetEmail() != email || u.GetDisplayName() != wantName || u.GetCategoryId() == "" ||
		u.GetCategoryId() != u.GetOriginalCategoryId() || u.GetBillingInfo() != nil || u.GetIsUplifter() {
		t.Fatalf("user %+v", u)
	}

	// The password works with Firebase directly, as the web's sign-in uses it.
	firebasetest.SignInWithPassword(t, email, "secret12")

	prof, err := h.client.GetProfile(as(idToken), &usersv1.GetProfileRequest{UserId: res.GetId()})
	if err != nil || prof.GetCategoryId() != u.GetCategoryId() {
		t.Fatalf("profile %+v %v", prof, err)
	}
	onb, err := h.client.CreateOnboarding(as(idToken), &usersv1.CreateOnboardingRequest{UserId: res.GetId()})
	if err != nil || onb.GetOriginalCategoryId() != u.GetOriginalCategoryId() {
		t.Fatalf("onboarding changed an existing profile: %+v %v", onb, err)
	}

	// UserCreated went through the outbox to JetStream.
	stream, err := h.js.Stream(context.Background(), events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := stream.GetLastMsgForSubject(context.Background(), events.SubjectUserCreated)
	deadline := time.Now().Add(5 * time.Second)
	for err != nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		msg, err = stream.GetLastMsgForSubject(context.Background(), events.SubjectUserCreated)
	}
	if err != nil {
		t.Fatalf("UserCreated not published: %v", err)
	}
	var ev eventsv1.UserCreated
	if err := proto.Unmarshal(msg.Data, &ev); err != nil || ev.GetUserId() != res.GetId() || ev.GetCategoryId() != u.GetCategoryId() || !ev.GetSuppressWelcomeEmail() {
		t.Fatalf("event %+v %v", &ev, err)
	}
}

func TestCreateUserRejections(t *testing.T) {
	t.Parallel()
	h := start(t)
	email := freshEmail()
	if _, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: email, Password: "secret12"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  *usersv1.CreateUserRequest
		code codes.Code
		msg  string
	}{
		{"malformed email", &usersv1.CreateUserRequest{Email: "not-an-email", Password: "secret12"}, codes.InvalidArgument, "valid email"},
		{"short password", &usersv1.CreateUserRequest{Email: freshEmail(), Password: "12345"}, codes.InvalidArgument, "at least 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.client.CreateUser(context.Background(), tt.req)
			if status.Code(err) != tt.code || !strings.Contains(status.Convert(err).Message(), tt.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, tt.code, tt.msg)
			}
		})
	}
}

// TestSignUpWithATakenEmail: signing up with the
// email of an account (in any case) is the same success as a new sign-up,
// not a 409 that tells who has an account; it gives no way in, changes
// nothing of the account, and SignUpAttempted tells the owner.
func TestSignUpWithATakenEmail(t *testing.T) {
	t.Parallel()
	h := start(t)
	email := freshEmail()
	owner, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: email, Password: "secret12"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: strings.ToUpper(email), Password: "other123"})
	if err != nil || res.GetId() != "" || res.GetSignInToken() != "" {
		t.Fatalf("sign-up with a taken email: %+v %v, want success with no id or token", res, err)
	}
	var ev eventsv1.SignUpAttempted
	lastEvent(t, h, events.SubjectSignUpAttempted, &ev)
	if ev.GetUserId() != owner.GetId() || ev.GetEmail() != email {
		t.Fatalf("event %+v, want the owner %s", &ev, owner.GetId())
	}
	firebasetest.SignInWithPassword(t, email, "secret12") // the owner's password is untouched
}

func TestWhoMayReadAUser(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: "secret12"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: "secret12"})
	if err != nil {
		t.Fatal(err)
	}
	ownerTok := firebasetest.SignInWithCustomToken(t, owner.GetSignInToken())
	otherTok := firebasetest.SignInWithCustomToken(t, other.GetSignInToken())
	tests := []struct {
		name string
		ctx  context.Context
		id   string
		want codes.Code
	}{
		{"anonymous", context.Background(), owner.GetId(), codes.Unauthenticated},
		{"signed-out marker", as("unauthed"), owner.GetId(), codes.Unauthenticated},
		{"forged token", as("not.a.token"), owner.GetId(), codes.Unauthenticated},
		{"another user", as(otherTok), owner.GetId(), codes.PermissionDenied},
		{"the owner", as(ownerTok), owner.GetId(), codes.OK},
		{"unknown id as owner", as(ownerTok), "nobody", codes.PermissionDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.client.GetUser(tt.ctx, &usersv1.GetUserRequest{UserId: tt.id})
			if status.Code(err) != tt.want {
				t.Fatalf("code = %v, want %v", status.Code(err), tt.want)
			}
			_, err = h.client.GetProfile(tt.ctx, &usersv1.GetProfileRequest{UserId: tt.id})
			if status.Code(err) != tt.want {
				t.Fatalf("profile code = %v, want %v", status.Code(err), tt.want)
			}
		})
	}
}

func TestBillingChangedShowsOnUser(t *testing.T) {
	t.Parallel()
	h := start(t)
	res, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: "secret12"})
	if err != nil {
		t.Fatal(err)
	}
	tok := firebasetest.SignInWithCustomToken(t, res.GetSignInToken())
	t0 := time.Now().Truncate(time.Second)
	publish := func(id, tier string, manual bool, at time.Time) {
		t.Helper()
		data, _ := proto.Marshal(&eventsv1.BillingChanged{UserId: res.GetId(), Tier: tier, IsManuallySet: manual, SourceTime: timestamppb.New(at)})
		if err := natstest.PublishAsOwner(t, h.nats, events.SubjectBillingChanged, id, data); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(tier string, manual bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got, err := h.client.GetUser(as(tok), &usersv1.GetUserRequest{UserId: res.GetId()})
			if err != nil {
				t.Fatal(err)
			}
			if b := got.GetUser().GetBillingInfo(); b.GetTier() == tier && b.GetIsManuallySet() == manual {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("billing %v, want %s manual=%v", got.GetUser().GetBillingInfo(), tier, manual)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	publish(uuid.NewString(), "pro", false, t0)
	waitFor("pro", false)
	// An older change arrives late, then a newer marker: only the marker shows.
	publish(uuid.NewString(), "free", false, t0.Add(-time.Minute))
	publish(uuid.NewString(), "pro", true, t0.Add(time.Minute))
	waitFor("pro", true)
	publish(uuid.NewString(), "free", false, t0.Add(30*time.Second))
	publish(uuid.NewString(), "free", true, t0.Add(2*time.Minute))
	waitFor("free", true)
}
