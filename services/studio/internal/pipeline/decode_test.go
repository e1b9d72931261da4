package pipeline_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

func pngBytes(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withDimensions rewrites a PNG's IHDR to claim w×h (with a valid CRC), the
// way a decompression bomb claims far more pixels than its bytes hold.
func withDimensions(data []byte, w, h uint32) []byte {
	out := bytes.Clone(data)
	// 8-byte signature, 4-byte length, "IHDR", then width and height.
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}

func message(t *testing.T, err error) string {
	t.Helper()
	var ve *domain.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a ValidationError, got %v", err)
	}
	return ve.Message
}

func TestInspectRefusesWhatItCannotTake(t *testing.T) {
	small := pngBytes(t, solid(10, 10, color.NRGBA{200, 0, 0, 255}))
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "Upload a JPEG, PNG or WebP photo."},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!"), "Upload a JPEG, PNG or WebP photo."},
		{"text named .jpg", []byte("hello, this is not a photo"), "Upload a JPEG, PNG or WebP photo."},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "Upload a JPEG, PNG or WebP photo."},
		{"over 25 MB", append([]byte{0xFF, 0xD8, 0xFF}, make([]byte, pipeline.MaxUploadBytes)...), "The photo is larger than 25 MB. Upload a smaller one."},
		{"bomb 100000²", withDimensions(small, 100000, 100000), "The photo has more than 50 megapixels. Upload a smaller one."},
		{"just over 50 MP", withDimensions(small, 10000, 5001), "The photo has more than 50 megapixels. Upload a smaller one."},
		{"truncated png", small[:20], "The photo could not be read; the file may be damaged."},
		{"jpeg magic, garbage", []byte{0xFF, 0xD8, 0xFF, 0x00, 0x01, 0x02}, "The photo could not be read; the file may be damaged."},
		{"webp magic, garbage", []byte("RIFF\x10\x00\x00\x00WEBPVP8 garbage!"), "The photo could not be read; the file may be damaged."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pipeline.Inspect(tc.data)
			if got := message(t, err); got != tc.want {
				t.Errorf("message %q, want %q", got, tc.want)
			}
		})
	}
	// exactly 50 MP is allowed (header only; nothing is decoded)
	if _, err := pipeline.Inspect(withDimensions(small, 10000, 5000)); err != nil {
		t.Errorf("50 MP refused: %v", err)
	}
}

func TestDecodeBombNeverAllocates(t *testing.T) {
	data := withDimensions(pngBytes(t, solid(10, 10, color.NRGBA{1, 2, 3, 255})), 60000, 60000)
	if _, _, err := pipeline.Decode(data); err == nil || !strings.Contains(message(t, err), "50 megapixels") {
		t.Fatalf("bomb decoded: %v", err)
	}
}

// exifOrientation inserts an APP1 EXIF segment with one Orientation tag
// right after the JPEG's SOI marker.
func exifOrientation(jpg []byte, orientation uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2A\x00\x00\x00\x08")
	_ = binary.Write(&tiff, binary.BigEndian, uint16(1))      // one entry
	_ = binary.Write(&tiff, binary.BigEndian, uint16(0x0112)) // Orientation
	_ = binary.Write(&tiff, binary.BigEndian, uint16(3))      // SHORT
	_ = binary.Write(&tiff, binary.BigEndian, uint32(1))      // count
	_ = binary.Write(&tiff, binary.BigEndian, orientation)    // value
	_ = binary.Write(&tiff, binary.BigEndian, uint16(0))      // padding
	_ = binary.Write(&tiff, binary.BigEndian, uint32(0))      // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

func TestDecodeAppliesEXIFOrientation(t *testing.T) {
	// 40×20: left half red, right half blue.
	img := solid(40, 20, color.NRGBA{220, 0, 0, 255})
	for y := 0; y < 20; y++ {
		for x := 20; x < 40; x++ {
			img.SetNRGBA(x, y, color.NRGBA{0, 0, 220, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	// Orientation 6: shown rotated 90° clockwise, so left becomes top.
	got, info, err := pipeline.Decode(exifOrientation(b.Bytes(), 6))
	if err != nil {
		t.Fatal(err)
	}
	if info.Width != 20 || info.Height != 40 || got.Rect.Dx() != 20 || got.Rect.Dy() != 40 {
		t.Fatalf("size %dx%d (info %dx%d), want 20x40", got.Rect.Dx(), got.Rect.Dy(), info.Width, info.Height)
	}
	if top, bottom := got.NRGBAAt(10, 5), got.NRGBAAt(10, 35); top.R < 150 || bottom.B < 150 {
		t.Errorf("top %v bottom %v: want red on top, blue below", top, bottom)
	}
	// Without the tag it stays as it is.
	plain, _, err := pipeline.Decode(b.Bytes())
	if err != nil || plain.Rect.Dx() != 40 {
		t.Fatalf("plain decode: %v %v", plain.Rect, err)
	}
}

func TestDecodeAcceptsTheThreeFormats(t *testing.T) {
	img := solid(64, 48, color.NRGBA{10, 200, 30, 255})
	var j bytes.Buffer
	_ = jpeg.Encode(&j, img, nil)
	webpData, err := pipeline.Encode(img, "webp")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"jpeg": j.Bytes(), "png": pngBytes(t, img), "webp": webpData} {
		got, info, err := pipeline.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if info.Format != name || got.Rect.Dx() != 64 || got.Rect.Dy() != 48 {
			t.Errorf("%s: format %s size %v", name, info.Format, got.Rect)
		}
	}
}
