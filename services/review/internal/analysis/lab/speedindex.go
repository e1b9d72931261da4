package lab

import (
	"bytes"
	"image"
	"image/jpeg"
	"slices"
	"sync"

	"github.com/chromedp/cdproto/page"
)

// filmWidth is the width of the frames Speed Index is read from: a few
// thousand pixels are enough to tell how much of the screen is painted.
const filmWidth = 160

// maxFrames bounds what one run keeps (a page animating for the whole
// run would otherwise send a frame every 16 ms).
const maxFrames = 400

// filmstrip collects the screencast's frames as they arrive.
type filmstrip struct {
	mu     sync.Mutex
	frames []shot
}

type shot struct {
	at   float64 // seconds since the epoch, when the frame was shown
	jpeg []byte
}

func (f *filmstrip) add(e *page.EventScreencastFrame) {
	if e.Metadata == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.frames) < maxFrames {
		f.frames = append(f.frames, shot{at: e.Metadata.Timestamp.Float64(), jpeg: e.Data})
	}
}

// speedIndex is the page's Speed Index in milliseconds, as WebPageTest
// and Lighthouse compute it: the area above the visual-progress curve,
// where a frame's progress is how far its colour histogram has moved from
// the blank screen towards the final one. origin is the navigation's start
// (performance.timeOrigin, ms since the epoch); fcp is a floor, as in
// Lighthouse. 0 when no frame was painted to read it from.
func (f *filmstrip) speedIndex(origin, fcp float64) float64 {
	f.mu.Lock()
	shots := slices.Clone(f.frames)
	f.mu.Unlock()
	if len(shots) == 0 || origin <= 0 {
		return 0
	}
	slices.SortStableFunc(shots, func(a, b shot) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	type point struct {
		ms   float64
		hist *histogram
	}
	var pts []point
	for _, s := range shots {
		img, err := jpeg.Decode(bytes.NewReader(s.jpeg))
		if err != nil {
			continue
		}
		ms := s.at*1000 - origin
		if ms < 0 {
			continue // a frame of the page before this navigation
		}
		pts = append(pts, point{ms, histogramOf(img)})
	}
	if len(pts) == 0 {
		return 0
	}
	final := pts[len(pts)-1].hist
	blank := blankLike(final)
	si, prevMs, prevProgress := 0.0, 0.0, 0.0
	for _, p := range pts {
		si += (1 - prevProgress) * (p.ms - prevMs)
		prevMs, prevProgress = p.ms, progress(blank, p.hist, final)
	}
	return max(si, fcp)
}

// histogram counts each channel's values over a frame.
type histogram [3][256]int

func histogramOf(img image.Image) *histogram {
	var h histogram
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			h[0][r>>8]++
			h[1][g>>8]++
			h[2][bl>>8]++
		}
	}
	return &h
}

// blankLike is a white screen of as many pixels as h: what a phone shows
// before the page paints.
func blankLike(h *histogram) *histogram {
	var b histogram
	n := 0
	for _, c := range h[0] {
		n += c
	}
	for ch := range b {
		b[ch][255] = n
	}
	return &b
}

// progress is how far frame has come from start towards end (0–1),
// averaged over the three channels, as WebPageTest's visual progress.
func progress(start, frame, end *histogram) float64 {
	total := 0.0
	for ch := range 3 {
		matched, whole := 0, 0
		for i := range 256 {
			want := abs(end[ch][i] - start[ch][i])
			matched += min(abs(frame[ch][i]-start[ch][i]), want)
			whole += want
		}
		if whole == 0 {
			total++
			continue
		}
		total += float64(matched) / float64(whole)
	}
	return total / 3
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
