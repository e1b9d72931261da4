package app

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	_ "image/jpeg" // previews are JPEG or PNG
	_ "image/png"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// Entitlement is what the category's plan allows; the one place the
// studio decides it (domain.EntitlementFor), fed by billing's events.
func (a *App) Entitlement(ctx context.Context, categoryID string) (domain.Entitlement, error) {
	p, err := a.repo.Plan(ctx, categoryID)
	if err != nil {
		return domain.Entitlement{}, err
	}
	return domain.EntitlementFor(p.Tier), nil
}

// PlanView is the plan with this month's downloads and tool runs.
type PlanView struct {
	domain.Entitlement
	DownloadsLeft, JobsLeft int
}

// GetPlan says what the category's plan allows, now.
func (a *App) GetPlan(ctx context.Context, categoryID string) (PlanView, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return PlanView{}, err
	}
	e, err := a.Entitlement(ctx, categoryID)
	if err != nil {
		return PlanView{}, err
	}
	month := domain.MonthOf(a.now())
	used, err := a.repo.DownloadsUsed(ctx, categoryID, month)
	if err != nil {
		return PlanView{}, err
	}
	runs, err := a.repo.JobsUsed(ctx, categoryID, month)
	if err != nil {
		return PlanView{}, err
	}
	return PlanView{Entitlement: e, DownloadsLeft: e.DownloadsLeft(used), JobsLeft: e.JobsLeft(runs)}, nil
}

// Preview is a reduced picture of a result.
type Preview struct {
	ContentType string
	Data        []byte
	Watermarked bool
}

// ResultPreview returns a result's preview: as stored for paid plans,
// watermarked for the free plan.
func (a *App) ResultPreview(ctx context.Context, categoryID, resultID string) (Preview, error) {
	r, err := a.result(ctx, categoryID, resultID)
	if err != nil {
		return Preview{}, err
	}
	data, err := a.blobs.Get(ctx, r.PreviewKey)
	if err != nil {
		return Preview{}, err
	}
	ct := "image/jpeg"
	if r.Format == "png" {
		ct = "image/png"
	}
	e, err := a.Entitlement(ctx, categoryID)
	if err != nil {
		return Preview{}, err
	}
	if e.Paid {
		return Preview{ContentType: ct, Data: data}, nil
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return Preview{}, err
	}
	n := image.NewNRGBA(src.Bounds())
	draw.Draw(n, n.Rect, src, src.Bounds().Min, draw.Src)
	format := "jpeg"
	if r.Format == "png" {
		format = "png"
	}
	out, err := pipeline.Encode(pipeline.Watermark(n), format)
	if err != nil {
		return Preview{}, err
	}
	return Preview{ContentType: ct, Data: out, Watermarked: true}, nil
}

// Download is a result's file.
type Download struct {
	Filename, ContentType string
	Data                  []byte
	DownloadsLeft         int
}

// DownloadResult returns the full-resolution file if the plan allows it,
// counting it against the free plan's monthly allowance.
func (a *App) DownloadResult(ctx context.Context, categoryID, resultID string) (Download, error) {
	r, err := a.result(ctx, categoryID, resultID)
	if err != nil {
		return Download{}, err
	}
	e, err := a.Entitlement(ctx, categoryID)
	if err != nil {
		return Download{}, err
	}
	used, err := a.repo.RecordDownload(ctx, categoryID, resultID, domain.MonthOf(a.now()), e.CheckDownload)
	if err != nil {
		return Download{}, err
	}
	data, err := a.blobs.Get(ctx, r.Key)
	if err != nil {
		return Download{}, err
	}
	j, err := a.repo.GetJob(ctx, categoryID, r.JobID)
	if err != nil {
		return Download{}, err
	}
	base := "photo"
	if j.Image != nil {
		base = j.Image.Filename
	}
	return Download{Filename: base + "-" + r.Name + "." + r.Ext(), ContentType: r.ContentType(), Data: data,
		DownloadsLeft: e.DownloadsLeft(used)}, nil
}

func (a *App) result(ctx context.Context, categoryID, resultID string) (StoredResult, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return StoredResult{}, err
	}
	if err := domain.ValidateID("resultId", resultID); err != nil {
		return StoredResult{}, err
	}
	return a.repo.GetResult(ctx, categoryID, resultID)
}
