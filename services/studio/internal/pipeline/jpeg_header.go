package pipeline

import "encoding/binary"

// jpegHeader is what the segments before a JPEG's first scan say about its
// decoding: image/jpeg reports neither the sampling nor whether the file
// is progressive, and both decide its memory.
type jpegHeader struct {
	// samples is every component's plane, padded to whole MCUs as the
	// decoder allocates it, in bytes.
	samples     int64
	components  int
	progressive bool
	orientation int
}

// decodeBytes is what image/jpeg holds at once for the file: its planes,
// a progressive file's coefficients (a 64-entry int32 block per 8×8
// samples, kept until the last scan), and a CMYK file's converted copy.
func (h jpegHeader) decodeBytes() int64 {
	n := h.samples
	if h.progressive {
		n += 4 * h.samples
	}
	if h.components == 4 {
		n += h.samples
	}
	return n
}

// readJPEGHeader walks the segments up to the first scan; ok is false when
// they are malformed or there is no frame header.
func readJPEGHeader(data []byte) (h jpegHeader, ok bool) {
	for i := 2; ; {
		for i < len(data) && data[i] == 0xFF { // fill bytes
			i++
		}
		if i >= len(data) || data[i-1] != 0xFF {
			return h, false
		}
		marker := data[i]
		i++
		if marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) { // no length
			continue
		}
		if i+2 > len(data) {
			return h, false
		}
		n := int(binary.BigEndian.Uint16(data[i:]))
		if n < 2 || i+n > len(data) {
			return h, false
		}
		seg := data[i+2 : i+n]
		i += n
		switch {
		case marker == 0xE1 && h.orientation == 0:
			h.orientation = exifOrientation(seg)
		case marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
			h.progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
			return h, h.frame(seg)
		case marker == 0xDA || marker == 0xD9:
			return h, false
		}
	}
}

// frame reads a start-of-frame segment's dimensions and sampling factors.
func (h *jpegHeader) frame(seg []byte) bool {
	if len(seg) < 6 {
		return false
	}
	height, width, nc := int64(binary.BigEndian.Uint16(seg[1:])), int64(binary.BigEndian.Uint16(seg[3:])), int(seg[5])
	if len(seg) < 6+3*nc || nc == 0 || width == 0 || height == 0 {
		return false
	}
	var hmax, vmax int64 = 1, 1
	for c := range nc {
		f := seg[6+3*c+1]
		hmax, vmax = max(hmax, int64(f>>4)), max(vmax, int64(f&15))
	}
	mcuX, mcuY := (width+8*hmax-1)/(8*hmax), (height+8*vmax-1)/(8*vmax)
	for c := range nc {
		f := seg[6+3*c+1]
		h.samples += mcuX * int64(f>>4) * 8 * mcuY * int64(f&15) * 8
	}
	h.components = nc
	return true
}

// exifOrientation reads the Orientation tag (0x0112) of an APP1 segment's
// first IFD; 0 when there is none or the segment is not EXIF.
func exifOrientation(seg []byte) int {
	if len(seg) < 14 || string(seg[:6]) != "Exif\x00\x00" {
		return 0
	}
	tiff := seg[6:]
	var bo binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	ifd := int(bo.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return 0
	}
	entries := int(bo.Uint16(tiff[ifd:]))
	for e := range entries {
		at := ifd + 2 + 12*e
		if at+12 > len(tiff) {
			return 0
		}
		if bo.Uint16(tiff[at:]) == 0x0112 && bo.Uint16(tiff[at+2:]) == 3 {
			if o := int(bo.Uint16(tiff[at+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}
