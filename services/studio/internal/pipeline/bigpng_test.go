package pipeline_test

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image/color"
	"image/png"
	"testing"
)

// bigPNG is a valid w×h PNG of one flat colour, depth 8 or 16, colourType
// 2 (RGB) or 6 (RGBA), made without pushing its pixels through a
// compressor (which takes most of a minute under -race for 7000×7000
// 16-bit): one row is deflated on its own and flushed to a byte boundary,
// and that block, which refers only to its own bytes, is repeated for
// every row. Like the tester's 0.38 MB 7000×7000 16-bit photo it is small
// and decodes to hundreds of megabytes.
func bigPNG(t testing.TB, w, h, depth, colourType int) []byte {
	t.Helper()
	channels := map[int]int{2: 3, 6: 4}[colourType]
	row := make([]byte, 1+w*channels*depth/8) // filter byte 0, then the pixels
	for i := 1; i < len(row); i++ {
		row[i] = 0x80
	}
	var block bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestSpeed)
	if _, err := fw.Write(row); err != nil {
		t.Fatal(err)
	}
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	var idat bytes.Buffer
	idat.Write([]byte{0x78, 0x01}) // zlib header: deflate, 32K window
	rowSum, sum := adler32.Checksum(row), uint32(1)
	for range h {
		idat.Write(block.Bytes())
		sum = adler32Combine(sum, rowSum, int64(len(row)))
	}
	idat.Write([]byte{0x03, 0x00}) // a final, empty fixed-Huffman block
	_ = binary.Write(&idat, binary.BigEndian, sum)

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		_ = binary.Write(&out, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		out.WriteString(kind)
		out.Write(data)
		_ = binary.Write(&out, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = byte(depth), byte(colourType)
	chunk("IHDR", ihdr)
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// adler32Combine is the Adler-32 of two byte strings one after the other,
// from each one's sum and the second's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint64(len2 % base)
	s1 := uint64(a1 & 0xffff)
	s2 := rem * s1 % base
	s1 += uint64(a2&0xffff) + base - 1
	s2 += uint64(a1>>16) + uint64(a2>>16) + base - rem
	s1 %= base
	s2 %= base
	return uint32(s1 | s2<<16)
}

// The generator's file is a real PNG: the standard decoder reads it whole,
// checksums included.
func TestBigPNGIsAValidPNG(t *testing.T) {
	for _, tc := range []struct{ depth, colourType int }{{8, 2}, {16, 6}} {
		img, err := png.Decode(bytes.NewReader(bigPNG(t, 300, 200, tc.depth, tc.colourType)))
		if err != nil {
			t.Fatalf("depth %d type %d: %v", tc.depth, tc.colourType, err)
		}
		if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 200 {
			t.Fatalf("decoded %v", b)
		}
		if c := color.NRGBAModel.Convert(img.At(150, 100)).(color.NRGBA); c.R != 0x80 {
			t.Fatalf("pixel %v", c)
		}
	}
}
