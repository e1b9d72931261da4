package domain

import (
	"time"

	"github.com/google/uuid"
)

// Kind is what a job makes.
type Kind string

// The studio's tools.
const (
	// KindCutout removes the background: a transparent PNG.
	KindCutout Kind = "cutout"
	// KindStudio is the cut-out on a clean backdrop, square, at one size.
	KindStudio Kind = "studio"
	// KindPresets renders every channel preset in JPEG and WebP.
	KindPresets Kind = "presets"
)

// ParseKind checks a kind from a request.
func ParseKind(s string) (Kind, error) {
	switch Kind(s) {
	case KindCutout, KindStudio, KindPresets:
		return Kind(s), nil
	}
	return "", &ValidationError{Field: "kind", Message: "The tool must be cutout, studio or presets."}
}

// Status is where a job is.
type Status string

// Job states: queued until a worker leases it, working while leased, then
// done or failed.
const (
	StatusQueued  Status = "queued"
	StatusWorking Status = "working"
	StatusDone    Status = "done"
	StatusFailed  Status = "failed"
)

// MaxAttempts is how often a job is tried before it is failed: a worker
// that dies mid-job leaves it leased, and it is retried once the lease
// expires, but a photo that crashes every worker must not loop forever.
const MaxAttempts = 3

// Image is a source photo the owner uploaded (or picked from the catalogue).
type Image struct {
	ID, CategoryID string
	// Filename is what the owner called it (downloads are named after it).
	Filename      string
	Width, Height int
	CreatedAt     time.Time
	// ProductID is the catalogue product the photo came from ("" for an upload).
	ProductID string
}

// Job is one request for a tool on an image.
type Job struct {
	ID, CategoryID, ImageID string
	Kind                    Kind
	Backdrop                Backdrop
	// Size is the studio image's side (KindStudio).
	Size     int
	Status   Status
	Progress int
	// Error is a message for the owner when the job failed.
	Error     string
	Attempts  int
	CreatedAt time.Time
	UpdatedAt time.Time
	Results   []Result
	// Image is the photo, when the query read it too.
	Image *Image
}

// Result is one file a job made.
type Result struct {
	ID, JobID string
	// Name says what it is: "cutout", "studio", or a preset id.
	Name          string
	Format        string // png, jpeg, webp
	Width, Height int
	Bytes         int64
}

// ContentType is the result's MIME type.
func (r Result) ContentType() string {
	switch r.Format {
	case "png":
		return "image/png"
	case "webp":
		return "image/webp"
	}
	return "image/jpeg"
}

// Ext is the result's file extension.
func (r Result) Ext() string {
	if r.Format == "jpeg" {
		return "jpg"
	}
	return r.Format
}

// ValidateID checks an id from a path: the studio assigns UUIDs (and the
// users service assigns category ids), so anything else names nothing.
func ValidateID(field, id string) error {
	if uuid.Validate(id) != nil {
		return &ValidationError{Field: field, Message: field + " is not a valid id."}
	}
	return nil
}
