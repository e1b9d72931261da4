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

func pngBytes(t testing.TB, img image.Image) []byte {
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
	if _, _, err := pipeline.Decode(data, domain.MaxCutoutSide, pipeline.Filter); err == nil || !strings.Contains(message(t, err), "50 megapixels") {
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
	got, info, err := pipeline.Decode(exifOrientation(b.Bytes(), 6), domain.MaxCutoutSide, pipeline.Filter)
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
	plain, _, err := pipeline.Decode(b.Bytes(), domain.MaxCutoutSide, pipeline.Filter)
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
		got, info, err := pipeline.Decode(data, domain.MaxCutoutSide, pipeline.Filter)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if info.Format != name || got.Rect.Dx() != 64 || got.Rect.Dy() != 48 {
			t.Errorf("%s: format %s size %v", name, info.Format, got.Rect)
		}
	}
}

// asProgressive rewrites a baseline JPEG's frame header to claim w×h and
// progressive coding (SOF2): image.DecodeConfig reads only that header.
func asProgressive(t *testing.T, jpg []byte, w, h uint16, progressive bool) []byte {
	t.Helper()
	out := bytes.Clone(jpg)
	i := bytes.Index(out, []byte{0xFF, 0xC0})
	if i < 0 {
		t.Fatal("no SOF0 in the JPEG")
	}
	if progressive {
		out[i+1] = 0xC2
	}
	binary.BigEndian.PutUint16(out[i+5:], h)
	binary.BigEndian.PutUint16(out[i+7:], w)
	return out
}

// A megapixel cap alone let a 0.38 MB 7000×7000 16-bit PNG through
// (49 MP), and decoding it took the worker past its memory. What a photo
// would take to decode is judged from its header: 16-bit colour counts
// double, a progressive JPEG's coefficients count.
func TestInspectCapsTheMemoryDecodingTakes(t *testing.T) {
	var j bytes.Buffer
	if err := jpeg.Encode(&j, solid(32, 32, color.NRGBA{200, 100, 50, 255}), nil); err != nil {
		t.Fatal(err)
	}
	const tooBig = "The photo is too large to work on once opened (16-bit colour takes twice the memory). Save it as an 8-bit JPEG or PNG, or upload a smaller one."
	for name, tc := range map[string]struct {
		data []byte
		want string // "" when it is accepted
	}{
		"7000² 16-bit RGBA PNG (392 MB)":          {bigPNG(t, 7000, 7000, 16, 6), tooBig},
		"7000² 16-bit RGB PNG (392 MB)":           {bigPNG(t, 7000, 7000, 16, 2), tooBig},
		"5000² 16-bit RGBA PNG (200 MB)":          {bigPNG(t, 5000, 5000, 16, 6), ""},
		"7000² 8-bit RGB PNG (196 MB)":            {bigPNG(t, 7000, 7000, 8, 2), ""},
		"7000² progressive JPEG (368 MB)":         {asProgressive(t, j.Bytes(), 7000, 7000, true), tooBig},
		"7000² baseline JPEG (74 MB)":             {asProgressive(t, j.Bytes(), 7000, 7000, false), ""},
		"5000×4000 progressive JPEG (150 MB)":     {asProgressive(t, j.Bytes(), 5000, 4000, true), ""},
		"50 MP baseline JPEG, 10000×5000 (75 MB)": {asProgressive(t, j.Bytes(), 10000, 5000, false), ""},
	} {
		_, err := pipeline.Inspect(tc.data)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s refused: %v", name, err)
		case tc.want != "" && err == nil:
			t.Errorf("%s accepted", name)
		case tc.want != "":
			if got := message(t, err); got != tc.want {
				t.Errorf("%s: %q, want %q", name, got, tc.want)
			}
		}
	}
}

// A file whose header is sound but whose pixels are not (cut short, a
// damaged byte) passes Inspect; Verify decodes it whole and refuses it, so
// the upload is refused instead of a job failing later.
func TestVerifyRefusesADamagedPhoto(t *testing.T) {
	noisy := image.NewNRGBA(image.Rect(0, 0, 200, 150))
	for i := range noisy.Pix {
		noisy.Pix[i] = byte(i*7919 + i/3)
	}
	p := pngBytes(t, noisy)
	var j bytes.Buffer
	if err := jpeg.Encode(&j, noisy, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(p)
	flipped[len(flipped)/2] ^= 0xFF // inside IDAT: its CRC no longer matches
	for name, data := range map[string][]byte{
		"PNG cut short":       p[:len(p)*2/3],
		"PNG, a damaged byte": flipped,
		"JPEG cut short":      j.Bytes()[:j.Len()*2/3],
	} {
		if _, err := pipeline.Inspect(data); err != nil {
			t.Fatalf("%s: the header check alone refused it (%v): the case tests nothing", name, err)
		}
		_, err := pipeline.Verify(data)
		if got := message(t, err); got != "The photo could not be read; the file may be damaged." {
			t.Errorf("%s: %q", name, got)
		}
	}
	for name, data := range map[string][]byte{"PNG": p, "JPEG": j.Bytes()} {
		if info, err := pipeline.Verify(data); err != nil || info.Width != 200 || info.DecodeBytes <= 0 {
			t.Errorf("sound %s: %+v, %v", name, info, err)
		}
	}
}

// The worker decodes a photo straight down to the largest side any result
// needs (domain.MaxCutoutSide): nothing after decoding works at the
// photo's full size. (A smaller side here: Lanczos at 3840 px takes
// minutes under -race on a busy machine.)
func TestDecodeScalesToTheWorkingSize(t *testing.T) {
	for name, data := range map[string][]byte{
		"8-bit 1200×300":  bigPNG(t, 1200, 300, 8, 2),
		"16-bit 1200×300": bigPNG(t, 1200, 300, 16, 6),
	} {
		img, info, err := pipeline.Decode(data, 600, pipeline.Filter)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if img.Rect.Dx() != 600 || img.Rect.Dy() != 150 || info.Width != 600 || info.Height != 150 {
			t.Errorf("%s: decoded %v (info %dx%d), want 600×150", name, img.Rect, info.Width, info.Height)
		}
		if c := img.NRGBAAt(300, 75); c.R != 0x80 {
			t.Errorf("%s: pixel %v", name, c)
		}
	}
}

// FuzzInspect: no header, however malformed, panics the checks an upload
// goes through first.
func FuzzInspect(f *testing.F) {
	img := solid(16, 8, color.NRGBA{10, 20, 30, 255})
	var j bytes.Buffer
	_ = jpeg.Encode(&j, img, nil)
	f.Add(j.Bytes())
	f.Add(exifOrientation(j.Bytes(), 6))
	f.Add(pngBytes(f, img))
	f.Add([]byte("RIFF\x10\x00\x00\x00WEBPVP8 garbage!"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := pipeline.Inspect(data)
		if err == nil && (info.DecodeBytes <= 0 || info.DecodeBytes > pipeline.MaxDecodeBytes) {
			t.Fatalf("accepted with decode bytes %d", info.DecodeBytes)
		}
	})
}
