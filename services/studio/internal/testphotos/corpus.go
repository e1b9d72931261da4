package testphotos

import (
	"fmt"
	"image"
	_ "image/jpeg" // the corpus photos
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"uplift.dev/studio/internal/pipeline"

	"uplift.dev/platform/testcorpus"
)

// CorpusDir is the folder of real product photos with masks drawn by
// people (shared/corpus/photos beside the repository, research-licensed:
// read in place by tests and benchmarks, never copied into the repository).
// (testcorpus.Dir looks for it upwards.)
var CorpusDir = testcorpus.Dir("photos")

// RealPhoto is one corpus photo, decoded as the worker decodes an upload,
// with its human-drawn mask.
type RealPhoto struct {
	Name  string
	Img   *image.NRGBA
	Truth *image.Gray
}

// RealPhotos reads every photo INDEX.tsv lists. It skips the test when the
// corpus is not there (it is research data, not part of the repository)
// and fails on a photo it lists but cannot read.
func RealPhotos(t testing.TB) []RealPhoto {
	t.Helper()
	var out []RealPhoto
	for _, row := range testcorpus.Index(t, CorpusDir) {
		if row["name"] == "" {
			continue
		}
		p, err := readPhoto(row["name"])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		t.Fatalf("%s lists no photos", filepath.Join(CorpusDir, "INDEX.tsv"))
	}
	return out
}

func readPhoto(name string) (RealPhoto, error) {
	data, err := os.ReadFile(filepath.Join(CorpusDir, name+".jpg"))
	if err != nil {
		return RealPhoto{}, err
	}
	img, _, err := pipeline.Decode(data, 3840, pipeline.Filter)
	if err != nil {
		return RealPhoto{}, fmt.Errorf("%s.jpg: %w", name, err)
	}
	mf, err := os.Open(filepath.Join(CorpusDir, name+".mask.png"))
	if err != nil {
		return RealPhoto{}, err
	}
	defer mf.Close()
	m, err := png.Decode(mf)
	if err != nil {
		return RealPhoto{}, fmt.Errorf("%s.mask.png: %w", name, err)
	}
	truth := image.NewGray(img.Rect)
	b := m.Bounds()
	if b.Dx() != img.Rect.Dx() || b.Dy() != img.Rect.Dy() {
		return RealPhoto{}, fmt.Errorf("%s: mask %v, photo %v", name, b, img.Rect)
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			g, _, _, _ := m.At(b.Min.X+x, b.Min.Y+y).RGBA()
			truth.Pix[y*truth.Stride+x] = uint8(g >> 8)
		}
	}
	return RealPhoto{Name: name, Img: img, Truth: truth}, nil
}
