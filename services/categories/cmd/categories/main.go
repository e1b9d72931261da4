// Command categories runs the categories service: business profiles,
// website reviews, reports, insights and campaign ideas.
package main

import (
	"context"
	"time"
	// The zone database is built in, so time zone names are checked the
	// same way on any machine or image.
	_ "time/tzdata"

	"uplift.dev/categories/internal/adapters/engine"
	categories "uplift.dev/categories/internal/service"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

type settings struct {
	service.Base
	// UsersAddr is the users service, asked for a caller's own category.
	UsersAddr string `env:"USERS_ADDR" default:"127.0.0.1:9001"`
	// LLMBaseURL, LLMAPIKey and LLMModel select an OpenAI-compatible model
	// for summaries and ideas; LLM_MODEL unset uses the built-in generator,
	// which needs no network.
	LLMBaseURL string `env:"LLM_BASE_URL" default:"https://api.openai.com/v1"`
	LLMAPIKey  string `env:"LLM_API_KEY" secret:"true"`
	LLMModel   string `env:"LLM_MODEL"`
	// FetchAllowLoopback lets the website reader fetch 127.0.0.1; for tests only.
	FetchAllowLoopback bool `env:"FETCH_ALLOW_LOOPBACK" default:"false"`
	// FetchAllowOrigins are origins (comma-separated, "http://127.0.0.1:9400")
	// the website reader may read on loopback: the local stack's demo store.
	FetchAllowOrigins []string `env:"FETCH_ALLOW_ORIGINS"`
	// SchedulePoll is how often categories are checked for a due weekly
	// website review (Monday 08:00 in the business's time zone) or daily
	// report without store data (07:00); 0 turns the schedule off on this
	// replica.
	SchedulePoll time.Duration `env:"EMAIL_SCHEDULE_POLL" default:"1m"`
	// ReviewsInWorker leaves the website reviews to the review worker
	// (reviewworker), which also measures speed in Chromium; false runs
	// them here, without a browser.
	ReviewsInWorker bool `env:"REVIEWS_IN_WORKER" default:"false"`
}

func main() {
	var cfg settings
	service.Main("categories", &cfg, &cfg.Base, migrations.FS, func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		eng := engine.New(engine.Settings{
			LLMBaseURL: cfg.LLMBaseURL, LLMAPIKey: cfg.LLMAPIKey, LLMModel: cfg.LLMModel,
			AllowLoopback: cfg.FetchAllowLoopback, AllowOrigins: cfg.FetchAllowOrigins,
			Now: rt.Clock, // the one the app and the repository read (Wire)
		})
		return categories.Wire(categories.Deps{
			UsersAddr:        cfg.UsersAddr,
			SchedulePoll:     cfg.SchedulePoll,
			ReviewsElsewhere: cfg.ReviewsInWorker,
			Analyzer:         eng,
			Calendar:         eng,
			Catalogue:        eng,
		})(ctx, rt)
	})
}
