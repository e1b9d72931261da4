// Package metrics counts what happens to emails in Prometheus:
// uplift_digest_emails_total{kind, outcome} with outcome queued, sent,
// retry (a failed attempt that will be retried), failed (given up) or
// suppressed (not sent: the recipient turned the kind off).
package metrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
)

// Counters implements app.Metrics.
type Counters struct {
	emails *prometheus.CounterVec
}

// New registers the counters on reg. Every kind and outcome starts at zero,
// so a rate over a series that has not moved yet still reads 0, not absent.
func New(reg prometheus.Registerer) (*Counters, error) {
	c := &Counters{emails: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "uplift_digest_emails_total",
		Help: "Emails by kind and outcome: queued, sent, retry, failed (given up), suppressed.",
	}, []string{"kind", "outcome"})}
	if err := reg.Register(c.emails); err != nil {
		var are prometheus.AlreadyRegisteredError
		if !errors.As(err, &are) {
			return nil, err
		}
		c.emails = are.ExistingCollector.(*prometheus.CounterVec)
	}
	for _, k := range []domain.Kind{domain.KindWelcome, domain.KindEmailChanged, domain.KindEmailConfirmed, domain.KindPasswordReset,
		domain.KindSignUpAttempt, domain.KindVerifyEmail, domain.KindShopMoved,
		domain.KindAIDigest, domain.KindWeeklyReview, domain.KindDailyReport} {
		for _, o := range []string{app.OutcomeQueued, app.OutcomeSent, app.OutcomeRetry, app.OutcomeFailed, app.OutcomeSuppressed} {
			c.emails.WithLabelValues(string(k), o)
		}
	}
	return c, nil
}

// Count implements app.Metrics.
func (c *Counters) Count(kind domain.Kind, outcome string) {
	c.emails.WithLabelValues(string(kind), outcome).Inc()
}
