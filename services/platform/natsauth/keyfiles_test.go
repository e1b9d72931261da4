package natsauth_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
)

// TestLoadKeyringKeepsEveryKey: running `devstack nats-keys` again, or with
// one more program, changes no program's key but the new one's.
func TestLoadKeyringKeepsEveryKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, made, err := natsauth.LoadKeyring(dir, "users", "stores")
	if err != nil || !slices.Equal(made, []string{"users", "stores"}) {
		t.Fatalf("first run: made %v, %v", made, err)
	}
	again, made, err := natsauth.LoadKeyring(dir, "users", "stores", "review")
	if err != nil || !slices.Equal(made, []string{"review"}) {
		t.Fatalf("second run with a new program: made %v, %v", made, err)
	}
	for _, p := range []string{"users", "stores"} {
		if first.PublicKey(p) != again.PublicKey(p) || first.PublicKey(p) == "" {
			t.Errorf("%s's key changed: %s → %s", p, first.PublicKey(p), again.PublicKey(p))
		}
	}
	if again.PublicKey("review") == "" || again.PublicKey("review") == again.PublicKey("users") {
		t.Fatalf("the new program's key: %q", again.PublicKey("review"))
	}
	fi, err := os.Stat(filepath.Join(dir, "users.nk"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a seed file is readable by others: %v %v", fi.Mode(), err)
	}

	// A damaged file or a key of the wrong kind is refused, never replaced.
	if err := os.WriteFile(filepath.Join(dir, "users.nk"), []byte("SUnot-a-seed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := natsauth.LoadKeyring(dir, "users"); err == nil || !strings.Contains(err.Error(), "users") {
		t.Fatalf("a damaged seed: %v", err)
	}
	acc, _ := nkeys.CreateAccount()
	seed, _ := acc.Seed()
	if err := os.WriteFile(filepath.Join(dir, "users.nk"), seed, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := natsauth.LoadKeyring(dir, "users"); err == nil || !strings.Contains(err.Error(), "want a user key") {
		t.Fatalf("an account key as a user's: %v", err)
	}
}

// TestANewConsumerNeedsOnlyAReload: the servers run the previous release's
// auth.conf, in which stores has no right to one of its consumers yet. The
// new auth.conf is written and the server reloads it (what `nats-server
// --signal reload` does): the stores connection that was refused the
// consumer may now make it, without reconnecting, and users, connected all
// along, is not disturbed.
func TestANewConsumerNeedsOnlyAReload(t *testing.T) {
	t.Parallel()
	k, _, err := natsauth.LoadKeyring(t.TempDir(), natsauth.Programs()...)
	if err != nil {
		t.Fatal(err)
	}
	newest := storesUserDeleted
	grant := `, "$JS.API.CONSUMER.CREATE.` + events.StreamName + "." + newest.Durable + "." + newest.Subject + `"`
	current := k.Render()
	previous := strings.Replace(current, grant, "", 1)
	if previous == current {
		t.Fatalf("the rendered config has no %s", grant)
	}
	s, write := startConfig(t, previous)
	url := s.ClientURL()
	if err := natsauth.ConnectAndSetUp(context.Background(), url, k.Seed(natsauth.Admin), "", 1); err != nil {
		t.Fatal(err)
	}
	var reconnects atomic.Int32
	counted := nats.ReconnectHandler(func(*nats.Conn) { reconnects.Add(1) })
	_, stores := connectAs(t, url, k, "stores", counted)
	usersNC, users := connectAs(t, url, k, "users", counted)

	create := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := stores.CreateOrUpdateConsumer(ctx, events.StreamName, jetstream.ConsumerConfig{
			Durable: newest.Durable, FilterSubject: newest.Subject, AckPolicy: jetstream.AckExplicitPolicy,
		})
		return err
	}
	if err := create(); err == nil {
		t.Fatal("the previous auth.conf already let stores make its new consumer")
	}
	write(current)
	if err := s.Reload(); err != nil {
		t.Fatalf("reload: %v", err)
	}
	if err := create(); err != nil {
		t.Fatalf("after the reload stores still may not make %s: %v", newest.Durable, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := users.Publish(ctx, events.SubjectUserCreated, []byte("x")); err != nil {
		t.Fatalf("users, connected through the reload: %v", err)
	}
	if n := reconnects.Load(); n != 0 || !usersNC.IsConnected() {
		t.Fatalf("the reload cut connections: %d reconnects", n)
	}
}
