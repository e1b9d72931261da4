package apibench

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/events"
)

// Bare is the baseline: one net/http server doing what the product does for
// each measured call — the same token check (the verifier the services use,
// behind the same claims cache), the same pgx queries and transactions,
// the same outbox event — with no gateway, no gRPC, no logs and no metrics.
// Its ratio to the product is what the layers cost.
type Bare struct {
	Users      *pgxpool.Pool // search_path users
	Categories *pgxpool.Pool // search_path categories
	Verifier   auth.Verifier
}

// Handler serves the three measured REST calls at the product's paths.
func (b *Bare) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/users/{id}", b.authed(b.getUser))
	mux.HandleFunc("PUT /internal/categories/{id}/label", b.authed(b.putLabel))
	mux.HandleFunc("PATCH /internal/categories/{id}/business-data/contentGenerationParams", b.authed(b.patchParams))
	return mux
}

func (b *Bare) authed(next func(http.ResponseWriter, *http.Request, auth.Claims)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			http.Error(w, `{"message":"Please sign in to continue."}`, http.StatusUnauthorized)
			return
		}
		c, err := b.Verifier.Verify(r.Context(), tok)
		if err != nil {
			http.Error(w, `{"message":"Your session is not valid."}`, http.StatusUnauthorized)
			return
		}
		next(w, r, c)
	}
}

type bareUser struct {
	ID                 string `json:"id"`
	DisplayName        string `json:"displayName"`
	Email              string `json:"email"`
	CategoryID         string `json:"categoryId"`
	OriginalCategoryID string `json:"originalCategoryId"`
	IsUplifter         bool   `json:"isUplifter"`
	BillingInfo        *struct {
		Tier          string `json:"tier"`
		IsManuallySet bool   `json:"isManuallySet"`
	} `json:"billingInfo"`
	CreateTime time.Time `json:"createTime"`
}

func (b *Bare) getUser(w http.ResponseWriter, r *http.Request, c auth.Claims) {
	id := r.PathValue("id")
	if id != c.UID && !c.Admin && !c.Uplifter {
		http.Error(w, `{"message":"forbidden"}`, http.StatusForbidden)
		return
	}
	var u bareUser
	var signUp string
	var tier *string
	var manual bool
	var unsub *time.Time
	err := b.Users.QueryRow(r.Context(), `SELECT id, email, display_name, sign_up_source, category_id, original_category_id,
	is_uplifter, billing_tier, billing_manually_set, unsubscribed_at, created_at FROM users WHERE id = $1`, id).Scan(
		&u.ID, &u.Email, &u.DisplayName, &signUp, &u.CategoryID, &u.OriginalCategoryID, &u.IsUplifter, &tier, &manual, &unsub, &u.CreateTime)
	if err != nil {
		writeErr(w, err)
		return
	}
	if tier != nil {
		u.BillingInfo = &struct {
			Tier          string `json:"tier"`
			IsManuallySet bool   `json:"isManuallySet"`
		}{*tier, manual}
	}
	writeJSON(w, u) // the user itself, as the gateway answers (response_body: "user")
}

// category is the row the writes lock, change and announce.
type category struct {
	id, owner, name, site, info, tz string
	disableWeekly, disableReport    bool
	shopify                         string
	created                         time.Time
	lastDigest                      *time.Time
}

const categorySelect = `SELECT id, owner_id, name, coalesce(site_url, ''), additional_info, disable_weekly_email,
	disable_business_report, coalesce(shopify_category_id, ''), created_at, last_digest_requested_at, time_zone
	FROM categories WHERE id = $1`

func scanCategory(row pgx.Row) (category, error) {
	var c category
	err := row.Scan(&c.id, &c.owner, &c.name, &c.site, &c.info, &c.disableWeekly, &c.disableReport, &c.shopify,
		&c.created, &c.lastDigest, &c.tz)
	return c, err
}

// update is the product's write: read and check access, then in one
// transaction lock the row, apply the change, save it and record
// CategoryUpdated in the outbox when something changed.
func (b *Bare) update(ctx context.Context, id string, c auth.Claims, change func(*category)) (category, error) {
	cur, err := scanCategory(b.Categories.QueryRow(ctx, categorySelect, id))
	if err != nil {
		return category{}, err
	}
	if cur.owner != c.UID && !c.Uplifter {
		return category{}, errForbidden
	}
	var out category
	err = pgx.BeginFunc(ctx, b.Categories, func(tx pgx.Tx) error {
		cat, err := scanCategory(tx.QueryRow(ctx, categorySelect+` FOR UPDATE`, id))
		if err != nil {
			return err
		}
		before := cat
		change(&cat)
		if _, err := tx.Exec(ctx, `UPDATE categories SET name = $2, site_url = $3, additional_info = $4,
			disable_weekly_email = $5, disable_business_report = $6, last_digest_requested_at = $7, time_zone = $8,
			updated_at = now() WHERE id = $1`,
			cat.id, cat.name, nullIfEmpty(cat.site), cat.info, cat.disableWeekly, cat.disableReport, cat.lastDigest, cat.tz); err != nil {
			return err
		}
		if before != cat {
			if err := events.Enqueue(ctx, tx, events.SubjectCategoryUpdated, &eventsv1.CategoryUpdated{
				CategoryId: cat.id, OwnerUserId: cat.owner, Name: cat.name, SiteUrl: cat.site,
				DisableWeeklyEmail: cat.disableWeekly, DisableBusinessReport: cat.disableReport,
				OccurTime: timestamppb.Now(), TimeZone: cat.tz,
			}); err != nil {
				return err
			}
		}
		out = cat
		return nil
	})
	return out, err
}

var errForbidden = errors.New("forbidden")

func (b *Bare) putLabel(w http.ResponseWriter, r *http.Request, c auth.Claims) {
	var in struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || strings.TrimSpace(in.Name) == "" {
		http.Error(w, `{"message":"bad name"}`, http.StatusBadRequest)
		return
	}
	cat, err := b.update(r.Context(), r.PathValue("id"), c, func(cat *category) { cat.name = strings.TrimSpace(in.Name) })
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, map[string]any{"name": cat.name})
}

func (b *Bare) patchParams(w http.ResponseWriter, r *http.Request, c auth.Claims) {
	var in struct {
		DisableWeeklyEmail *bool `json:"disableWeeklyEmail"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
		return
	}
	cat, err := b.update(r.Context(), r.PathValue("id"), c, func(cat *category) {
		if in.DisableWeeklyEmail != nil {
			cat.disableWeekly = *in.DisableWeeklyEmail
		}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, map[string]any{"siteUrl": nilIfEmpty(cat.site), "disableWeeklyEmail": cat.disableWeekly,
		"additionalInfo": cat.info, "timeZone": cat.tz})
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		http.Error(w, `{"message":"not found"}`, http.StatusNotFound)
	case errors.Is(err, errForbidden):
		http.Error(w, `{"message":"forbidden"}`, http.StatusForbidden)
	default:
		http.Error(w, `{"message":"internal"}`, http.StatusInternalServerError)
	}
}
