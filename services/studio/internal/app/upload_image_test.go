package app_test

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/google/uuid"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/testphotos"
)

// A damaged photo used to pass the upload's header checks and failed
// only in the worker, after it had taken a tool run. It is refused at
// upload now, with the reason, and the store's tool runs are untouched.
func TestADamagedPhotoIsRefusedAtUploadAndCostsNoToolRun(t *testing.T) {
	h := newQueueHarness(t)
	store := uuid.NewString()
	img, _ := testphotos.Generate(scene, 200)
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"PNG cut short":  p.Bytes()[:p.Len()*2/3],
		"JPEG cut short": j.Bytes()[:j.Len()*2/3],
	} {
		_, err := h.a.UploadImage(context.Background(), store, name, data)
		var ve *domain.ValidationError
		if !errors.As(err, &ve) || ve.Message != "The photo could not be read; the file may be damaged." {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := h.runsUsed(store); n != 0 {
		t.Errorf("%d tool runs used", n)
	}
	if _, err := h.a.UploadImage(context.Background(), store, "whole.png", p.Bytes()); err != nil {
		t.Errorf("the same photo whole: %v", err)
	}
}
