package service_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/servicetest"
	"uplift.dev/review/domain"
	"uplift.dev/review/internal/adapters/engine"
	review "uplift.dev/review/internal/service"
	"uplift.dev/review/migrations"
)

// answers collects what the service publishes about reviews.
type answers struct {
	mu        sync.Mutex
	progress  []*eventsv1.ReviewProgressed
	completed []*eventsv1.ReviewCompleted
	failed    []*eventsv1.ReviewFailed
}

func (a *answers) count() (int, int, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.progress), len(a.completed), len(a.failed)
}

// startReviewing runs the service with no worker, so it takes the
// ReviewRequested events itself, and watches its answers.
func startReviewing(t *testing.T) (string, *answers) {
	t.Helper()
	base := servicetest.Base(t)
	s := review.Settings{Engine: engine.Settings{AllowLoopback: true}}
	servicetest.Run(t, "review", base, migrations.FS, review.Wire(&s))
	got := &answers{}
	sub, err := natstest.Observer(t, base.NATSURL).Subscribe("uplift.review.>", func(m *nats.Msg) {
		got.mu.Lock()
		defer got.mu.Unlock()
		switch m.Subject {
		case events.SubjectReviewProgressed:
			var ev eventsv1.ReviewProgressed
			if proto.Unmarshal(m.Data, &ev) == nil {
				got.progress = append(got.progress, &ev)
			}
		case events.SubjectReviewCompleted:
			var ev eventsv1.ReviewCompleted
			if proto.Unmarshal(m.Data, &ev) == nil {
				got.completed = append(got.completed, &ev)
			}
		case events.SubjectReviewFailed:
			var ev eventsv1.ReviewFailed
			if proto.Unmarshal(m.Data, &ev) == nil {
				got.failed = append(got.failed, &ev)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return base.NATSURL, got
}

// request publishes a ReviewRequested as categories does.
func request(t *testing.T, natsURL string, ev *eventsv1.ReviewRequested) {
	t.Helper()
	data, err := proto.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := natstest.PublishAsOwner(t, natsURL, events.SubjectReviewRequested, uuid.NewString(), data); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in time", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAReviewRequestIsAnsweredOnce: a ReviewRequested is reviewed with its
// competitors beside the store and answered with progress, from "Starting
// the review", and then the review; the same request delivered again (a
// categories replica retrying) finds the run answered and adds nothing.
func TestAReviewRequestIsAnsweredOnce(t *testing.T) {
	t.Parallel()
	natsURL, got := startReviewing(t)
	site := store(t).URL
	rival := store(t).URL
	req := &eventsv1.ReviewRequested{CategoryId: uuid.NewString(), ReportId: uuid.NewString(), SiteUrl: site,
		TimeZone: "Europe/Berlin", CompetitorUrls: []string{rival, "http://127.0.0.1:1/"}}
	request(t, natsURL, req)
	waitFor(t, "ReviewCompleted", func() bool { _, c, _ := got.count(); return c == 1 })
	request(t, natsURL, req)
	time.Sleep(time.Second)
	p, c, f := got.count()
	if c != 1 || f != 0 {
		t.Fatalf("%d completed, %d failed after a redelivery; want one answer", c, f)
	}
	got.mu.Lock()
	defer got.mu.Unlock()
	first := got.progress[0]
	if p < 2 || first.GetProgressPercent() != 0 || first.GetStep() != "Starting the review" || first.GetReportId() != req.GetReportId() {
		t.Errorf("progress %v", got.progress)
	}
	done := got.completed[0]
	var a domain.Analysis
	if err := json.Unmarshal(done.GetAnalysisJson(), &a); err != nil {
		t.Fatal(err)
	}
	if done.GetCategoryId() != req.GetCategoryId() || done.GetReportId() != req.GetReportId() || a.Review.Score <= 0 || a.Summary == "" || len(a.Ideas) == 0 {
		t.Fatalf("completed %v: %+v", done, a)
	}
	if c := a.Review.Competitors; len(c) != 2 || !c[0].Reviewed || c[0].SiteURL != rival || c[1].Error != domain.CompetitorNotReadMessage {
		t.Errorf("competitors %+v", c)
	}
}

// TestAnUnreadableSiteIsAFailureWithItsReason: a site that cannot be read
// is answered with ReviewFailed and why, in the owner's words.
func TestAnUnreadableSiteIsAFailureWithItsReason(t *testing.T) {
	t.Parallel()
	natsURL, got := startReviewing(t)
	req := &eventsv1.ReviewRequested{CategoryId: uuid.NewString(), ReportId: uuid.NewString(), SiteUrl: "http://127.0.0.1:1/"}
	request(t, natsURL, req)
	waitFor(t, "ReviewFailed", func() bool { _, _, f := got.count(); return f == 1 })
	got.mu.Lock()
	defer got.mu.Unlock()
	if f := got.failed[0]; f.GetReportId() != req.GetReportId() || f.GetReason() != "its server refused the connection" || len(got.completed) != 0 {
		t.Errorf("failed %v, completed %v", f, got.completed)
	}
}
