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

// A job is tried at most MaxAttempts times, RetryDelay apart, when it
// fails for a passing reason (the bucket or the database did not answer).
// A job whose worker died under it (killed for memory, crashed: its lease
// ran out) is never run again: the photo that did it would kill the next
// worker too, and every store's jobs wait while workers restart. It fails
// at once with MsgAbandoned.
const (
	MaxAttempts = 3
	RetryDelay  = 10 * time.Second
)

// What the owner reads on a failed job. A failed job never uses a tool
// run: the run is given back when it fails.
const (
	MsgAbandoned = "This photo stopped our image tool before it finished, so it was not tried again. " +
		"Try a smaller photo, or save it as an ordinary JPEG; this did not use a tool run."
	MsgGaveUp    = "This photo could not be processed just now. Please try again in a few minutes; this did not use a tool run."
	MsgNoProduct = "No product was found in the photo. Try a photo with the product in clear view."
)

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
