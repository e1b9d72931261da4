package service_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"uplift.dev/platform/benchmem"

	gosmtp "github.com/emersion/go-smtp"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/adapters/postgres"
	smtpmailer "uplift.dev/digest/internal/adapters/smtp"
	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/templates"
	"uplift.dev/digest/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
)

// benchStores is how many stores' daily reports one run renders and sends
// to the fast sink, where the product's own pace is what is measured.
const benchStores = 10_000

// maildevSample is how many go to MailDev. MailDev's SMTP server
// (smtp-server) waits 100 ms before it greets each connection, to catch
// clients that talk too soon, and both sides here open one connection per
// email: four senders make at most about 38 emails/s whatever Uplift does.
// That pace holds steady through a run (34–37/s in each batch of 250, the
// same 35/s that 10,000 gave), so 250 measure it: side by side on 26 Nov,
// 1,000 gave ratios of 0.82 and 0.94, 250 gave 0.84 and 0.91, in 15–18 s
// instead of 59–70 s.
const maildevSample = 250

// benchSenders is how many senders run at once, as replicas (or one
// replica's rounds) would: each claims due rows with SKIP LOCKED.
const benchSenders = 4

func sinkAddr(b *testing.B) string {
	addr := os.Getenv("SMTP_ADDR")
	if addr == "" {
		b.Skip("SMTP_ADDR not set; run with `make bench` to send to the local sink")
	}
	return addr
}

// BenchmarkDailyReports queues 250 stores' daily reports in the real
// PostgreSQL queue, then times the product's sender (claim, suppression
// check, render both parts, sign the unsubscribe link, SMTP to the local
// sink, mark sent) draining it, beside a bare net/smtp loop that sends one
// fixed message the same number of times over the same number of
// connections at once. Both report emails/s and peak Go heap.
func BenchmarkDailyReports(b *testing.B) {
	benchDailyReports(b, sinkAddr(b), maildevSample)
}

// BenchmarkDailyReportsFastSink is the same race against a sink that is
// not the bottleneck, with all 10,000 stores: MailDev accepts about 35
// emails/s on a new connection each, so against it both sides measure
// MailDev. Here the sink is an in-process SMTP server
// (emersion/go-smtp, a real SMTP implementation) on loopback that reads
// each message and throws it away, and counts them, so the figures are the
// product's own pace beside bare net/smtp's on the same 2 cores (the sink
// shares them with both).
func BenchmarkDailyReportsFastSink(b *testing.B) {
	if os.Getenv("DATABASE_URL") == "" {
		b.Skip("DATABASE_URL not set; run with `make bench`")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	sink := &discardSink{}
	srv := gosmtp.NewServer(sink)
	srv.Domain = "localhost"
	srv.MaxMessageBytes = 1 << 20
	go func() { _ = srv.Serve(l) }()
	defer func() { _ = srv.Close() }()
	benchDailyReports(b, l.Addr().String(), benchStores)
	if sink.messages.Load() == 0 {
		b.Fatal("the sink received nothing")
	}
}

// discardSink is a go-smtp backend that reads every message whole and
// keeps nothing but the count.
type discardSink struct{ messages atomic.Int64 }

func (d *discardSink) NewSession(*gosmtp.Conn) (gosmtp.Session, error) { return discardSession{d}, nil }

type discardSession struct{ d *discardSink }

func (discardSession) Reset()                                 {}
func (discardSession) Logout() error                          { return nil }
func (discardSession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (discardSession) Rcpt(string, *gosmtp.RcptOptions) error { return nil }
func (s discardSession) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	s.d.messages.Add(1)
	return nil
}

// benchDailyReports races the product's sender against bare net/smtp,
// both sending stores emails to addr.
func benchDailyReports(b *testing.B, addr string, stores int) {
	ctx := context.Background()
	b.Run("product", func(b *testing.B) {
		// Each sender holds a connection for its claimed row and needs a
		// second one for the suppression check: size the pool for that.
		u, err := url.Parse(pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		q := u.Query()
		q.Set("pool_max_conns", fmt.Sprint(2*benchSenders+2))
		u.RawQuery = q.Encode()
		pool, err := platformpg.Open(ctx, u.String(), "digest")
		if err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
		if err := platformpg.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
			b.Fatal(err)
		}
		store := postgres.Repo{DB: pool}
		signer, _ := domain.NewTokenSigner("bench-secret-bench-secret-bench-secret-0123")
		r, err := templates.New(webURL)
		if err != nil {
			b.Fatal(err)
		}
		if r, err = r.WithUnsubscribe(publicAPI, signer, time.Now); err != nil {
			b.Fatal(err)
		}
		mailer, err := smtpmailer.New(smtpmailer.Config{Addr: addr, From: "Uplift <hello@uplift.example>"})
		if err != nil {
			b.Fatal(err)
		}
		a := app.New(store, r, mailer, domain.RetryPolicy{Base: time.Second, Max: time.Minute, MaxAttempts: 3},
			slog.New(slog.NewTextHandler(io.Discard, nil)))
		b.ResetTimer()
		var sent atomic.Int64
		var peak func() float64
		for i := range b.N {
			b.StopTimer()
			for s := range stores {
				ev := reportReady(fmt.Sprintf("bench-%d-%d", i, s), "2026-03-07")
				e, err := domain.NewDailyReport(domain.DailyReport{CategoryID: ev.CategoryId, OwnerUserID: fmt.Sprintf("u-%d", s),
					StoreName: fmt.Sprintf("Store %d", s), Date: ev.Date, Currency: ev.Currency, Status: ev.Status,
					Metrics: metricsOf(ev), Headline: ev.Headline, BestSeller: ev.BestSeller}, fmt.Sprintf("owner%d@bench.example", s))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := store.Add(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
			peak = benchmem.WatchHeap()
			b.StartTimer()
			var wg sync.WaitGroup
			for range benchSenders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						n, err := a.SendDue(ctx)
						if err != nil {
							b.Error(err)
							return
						}
						sent.Add(int64(n))
						if n == 0 {
							return
						}
					}
				}()
			}
			wg.Wait()
		}
		b.StopTimer()
		if got := sent.Load(); got != int64(stores*b.N) {
			b.Fatalf("sent %d of %d", got, stores*b.N)
		}
		b.ReportMetric(float64(stores*b.N)/b.Elapsed().Seconds(), "emails/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("baseline-net-smtp", func(b *testing.B) {
		msg := []byte("From: hello@uplift.example\r\nTo: owner@bench.example\r\nSubject: baseline\r\n" +
			"Content-Type: text/plain; charset=utf-8\r\n\r\nA fixed message.\r\n")
		peak := benchmem.WatchHeap()
		b.ResetTimer()
		for range b.N {
			var next atomic.Int64
			var wg sync.WaitGroup
			for range benchSenders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for next.Add(1) <= int64(stores) {
						if err := smtp.SendMail(addr, nil, "hello@uplift.example", []string{"owner@bench.example"}, msg); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
		}
		b.StopTimer()
		b.ReportMetric(float64(stores*b.N)/b.Elapsed().Seconds(), "emails/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
}

// metricsOf reads the event's metrics as the consumer does.
func metricsOf(ev *eventsv1.DailyReportReady) []domain.ReportMetric {
	var out []domain.ReportMetric
	for _, m := range ev.GetMetrics() {
		out = append(out, domain.ReportMetric{Key: m.GetKey(), Label: m.GetLabel(), Value: m.Value,
			Average: m.Average, ChangePercent: m.ChangePercent, Unusual: m.GetUnusual()})
	}
	return out
}
