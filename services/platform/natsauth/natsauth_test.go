package natsauth_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/ratelimit"
)

// TestRenderedConfigEnforcesPublishers starts nats-server from the
// configuration the cluster gets (Render, as `devstack nats-keys` writes it)
// and checks what it lets each program do: no key, no connection; the
// admin sets the stream up; each service publishes its own subjects and
// nothing else, consumes and acks, but cannot update, create or delete a
// stream; the gateway may only listen to report events, one category's
// subject at a time.
func TestRenderedConfigEnforcesPublishers(t *testing.T) {
	t.Parallel()
	url, k := startRendered(t)

	if nc, err := nats.Connect(url, nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("a client without a key was let in")
	}
	publish := func(js jetstream.JetStream, subject string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := js.Publish(ctx, subject, []byte("x"))
		return err
	}
	_, billing := connectAs(t, url, k, "billing")
	_, users := connectAs(t, url, k, "users")
	if err := publish(billing, events.SubjectBillingChanged); err != nil {
		t.Fatalf("billing may publish BillingChanged: %v", err)
	}
	if err := publish(users, events.SubjectBillingChanged); err == nil {
		t.Fatal("users published BillingChanged")
	}
	if err := publish(users, events.SubjectUserCreated); err != nil {
		t.Fatalf("users may publish UserCreated: %v", err)
	}
	assertUsersConsumesBillingsEvent(t, users)
	assertStreamManagementRefused(t, users)
	assertReportEventsPerCategory(t, url, k, publish)
}

// assertUsersConsumesBillingsEvent: a service consumes as it does in
// production: its durable consumer is made, pulls the one event billing
// published, and acks it.
func assertUsersConsumesBillingsEvent(t *testing.T, users jetstream.JetStream) {
	t.Helper()
	cons, err := users.CreateOrUpdateConsumer(context.Background(), events.StreamName, jetstream.ConsumerConfig{
		Durable: usersBilling.Durable, FilterSubject: usersBilling.Subject, AckPolicy: jetstream.AckExplicitPolicy,
	})
	if err != nil {
		t.Fatalf("users cannot make its consumer: %v", err)
	}
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var pulled int
	for m := range batch.Messages() {
		pulled++
		if err := m.DoubleAck(context.Background()); err != nil {
			t.Fatalf("users cannot ack: %v", err)
		}
	}
	if pulled != 1 || batch.Error() != nil {
		t.Fatalf("users pulled %d events (%v), want 1", pulled, batch.Error())
	}
}

// assertReportEventsPerCategory: report events go on one subject per
// category, so a listener gets only the category it may see. Categories publishes them on a category's subject
// and nowhere else, no other service may; the gateway listens to a
// category's subject but not to the bus at large, and publishes nothing.
func assertReportEventsPerCategory(t *testing.T, url string, k *natsauth.Keyring, publish func(jetstream.JetStream, string) error) {
	t.Helper()
	_, categories := connectAs(t, url, k, "categories")
	_, stores := connectAs(t, url, k, "stores")
	a, err := events.ReportUpdatedSubject("c1")
	if err != nil {
		t.Fatal(err)
	}
	refused := &violations{}
	signer, _ := events.NewSigner(natsauth.Gateway, k.Seed(natsauth.Gateway))
	gw, err := nats.Connect(url, signer.NATSOption(), nats.ErrorHandler(refused.record))
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	got := make(chan *nats.Msg, 8)
	if _, err := gw.Subscribe(a, func(m *nats.Msg) { got <- m }); err != nil {
		t.Fatal(err)
	}
	for _, broad := range []string{"uplift.>", "uplift.categories.>", events.SubjectBillingChanged} {
		_, _ = gw.Subscribe(broad, func(m *nats.Msg) { got <- m })
		refused.await(t, broad)
	}
	if err := gw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := publish(stores, a); err == nil {
		t.Error("stores published a report event")
	}
	if err := publish(categories, "uplift.categories.report_updated"); err == nil {
		t.Error("categories published on the old shared report subject")
	}
	if err := publish(categories, a); err != nil {
		t.Fatalf("categories may publish c1's report event: %v", err)
	}
	select {
	case m := <-got:
		if m.Subject != a {
			t.Fatalf("the gateway got %s", m.Subject)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the gateway did not get c1's report event")
	}
	_ = gw.Publish(a, []byte("x"))
	refused.await(t, a)
	select {
	case m := <-got:
		t.Fatalf("the gateway got %s after publishing one itself", m.Subject)
	case <-time.After(500 * time.Millisecond):
	}
}

// startRendered starts nats-server from the configuration the cluster
// gets (Render, as `devstack nats-keys` writes it) with the stream set up
// by the admin, and returns its URL and keys.
func startRendered(t *testing.T) (string, *natsauth.Keyring) {
	t.Helper()
	k, err := natsauth.NewKeyring(natsauth.Programs()...)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := startConfig(t, k.Render())
	url := s.ClientURL()
	if err := natsauth.ConnectAndSetUp(context.Background(), url, k.Seed(natsauth.Admin), "", 1); err != nil {
		t.Fatalf("the admin cannot set the stream up: %v", err)
	}
	return url, k
}

// startConfig starts nats-server with JetStream from a configuration file
// holding auth, as the cluster's nats.conf includes it, and returns the
// server and a function that rewrites the file's auth (for s.Reload).
func startConfig(t *testing.T, auth string) (s *server.Server, rewrite func(auth string)) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "nats.conf")
	rewrite = func(auth string) {
		conf := "listen: 127.0.0.1:-1\njetstream { store_dir: \"" + filepath.Join(dir, "js") + "\" }\n" + auth
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rewrite(auth)
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("nats-server rejects the config: %v", err)
	}
	opts.NoLog, opts.NoSigs = true, true
	s, err = server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	t.Cleanup(s.Shutdown)
	return s, rewrite
}

// connectAs connects to url as service, as the service does.
func connectAs(t *testing.T, url string, k *natsauth.Keyring, service string, opts ...nats.Option) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	signer, err := events.NewSigner(service, k.Seed(service))
	if err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(context.Background(), url, service, append([]nats.Option{signer.NATSOption()}, opts...)...)
	if err != nil {
		t.Fatalf("%s: %v", service, err)
	}
	t.Cleanup(nc.Close)
	return nc, js
}

// assertStreamManagementRefused: a service identity may not change the
// stream's settings, make another stream, or throw the stream away; the
// stream is as the admin left it.
func assertStreamManagementRefused(t *testing.T, js jetstream.JetStream) {
	t.Helper()
	// A refused request has no answer: each waits a second for none.
	ctx := func() context.Context {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		t.Cleanup(cancel)
		return c
	}
	if _, err := js.UpdateStream(ctx(), jetstream.StreamConfig{
		Name: events.StreamName, Subjects: []string{"uplift.>"}, MaxAge: time.Minute, Duplicates: time.Second,
	}); err == nil {
		t.Error("a service updated the stream ($JS.API.STREAM.UPDATE)")
	}
	if _, err := js.CreateStream(ctx(), jetstream.StreamConfig{Name: "ROGUE", Subjects: []string{"rogue.>"}}); err == nil {
		t.Error("a service created a stream")
	}
	if err := js.DeleteStream(ctx(), events.StreamName); err == nil {
		t.Error("a service deleted the stream")
	}
	if err := js.DeleteConsumer(ctx(), events.StreamName, usersBilling.Durable); err == nil {
		t.Error("a service deleted a consumer")
	}
	if _, err := js.CreateOrUpdateKeyValue(ctx(), jetstream.KeyValueConfig{Bucket: ratelimit.Bucket}); err == nil {
		t.Error("a service made a key-value bucket")
	}
	stream, err := js.Stream(context.Background(), events.StreamName)
	if err != nil {
		t.Fatalf("a service cannot look the stream up: %v", err)
	}
	if c := stream.CachedInfo().Config; c.MaxAge != 14*24*time.Hour || c.Duplicates != 10*time.Minute {
		t.Errorf("the stream's settings changed: max age %v, duplicates %v", c.MaxAge, c.Duplicates)
	}
}
