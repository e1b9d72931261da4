package ordercsv

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// splitBoth reads data with records and with encoding/csv (as Read used
// to) and fails on the first record or error where they differ.
func splitBoth(t *testing.T, data []byte, bufSize int) {
	t.Helper()
	cr := csv.NewReader(bufio.NewReaderSize(bytes.NewReader(data), bufSize))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	rr := newRecords(bufio.NewReaderSize(bytes.NewReader(data), bufSize))
	for n := 1; ; n++ {
		want, werr := cr.Read()
		got, gerr := rr.read()
		if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Fatalf("%q, record %d: %q, want %q", data, n, got, want)
		}
		var wpe, gpe *csv.ParseError
		if errors.As(werr, &wpe) != errors.As(gerr, &gpe) || (wpe != nil && wpe.Err != gpe.Err) ||
			(wpe == nil && werr != gerr) {
			t.Fatalf("%q, record %d: error %v, want %v", data, n, gerr, werr)
		}
		if werr != nil {
			return
		}
	}
}

func TestRecordsAgreeWithEncodingCSV(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "\n", "\n\n\n", "a", "a\n", "a,b\n", "a,b", "a,b\r\n", "a,b\r", "a\r\nb\r\n", "a\rb\n", ",,,\n", ",\n,\n",
		"a,\"b\"\n", "\"a\",\"b\"", "\"a,b\",c\n", "\"a\"\"b\",c\n", "\"\"\n", "\"\",\"\"\n", "\"a\nb\",c\nd,e\n",
		"\"a\r\nb\",c\r\n", "\"a\n\nb\"\n", "a\n\nb\n", "\"a\"b,c\n", "a\"b,c\n", "a,b\"\n", "\"abc\n", "\"abc",
		"\"a\"\n\"b\n", "a,\"b\nc", "\"a\"\r", "\"a\" ,b\n", " \"a\",b\n", "é,\"ü\"\n", "\xff,\"\xfe\"\n",
		"\"a\",\n", "a,\"\"\"\"\n", "\"\"\"\n", "x\n\"\n",
	} {
		splitBoth(t, []byte(s), 16)
		splitBoth(t, []byte(s), 4096)
	}
	// Exports as the product meets them, and lines longer than the buffer.
	splitBoth(t, ordercsvtest.Export(300), 4096)
	splitBoth(t, ordercsvtest.Export(300), 16)
	splitBoth(t, []byte(strings.Repeat("a", 10000)+","+strings.Repeat("\"b\"\"\",", 3000)+"\n"), 4096)

	// Random files of the bytes that matter, many short records each.
	rng := rand.New(rand.NewPCG(25, 2026))
	alphabet := []byte{'a', 'b', ',', ',', '"', '"', '\n', '\r', ' ', 0xc3, 0xa9}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		splitBoth(t, b, 16)
	}
}

// A read that breaks off mid-file is an error, as with encoding/csv.
func TestRecordsPassOnAReadError(t *testing.T) {
	t.Parallel()
	data := ordercsvtest.Export(50)
	broken := func() io.Reader {
		return io.MultiReader(bytes.NewReader(data[:len(data)/2]), iotest.ErrReader(io.ErrUnexpectedEOF))
	}
	rr := newRecords(bufio.NewReaderSize(broken(), 4096))
	var err error
	for err == nil {
		_, err = rr.read()
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read error %v, want %v", err, io.ErrUnexpectedEOF)
	}
	if _, err := Read(broken()); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Read: %v, want %v", err, io.ErrUnexpectedEOF)
	}
}

func FuzzRecords(f *testing.F) {
	f.Add([]byte("a,\"b\"\"c\",d\r\n\"e\nf\"\n"))
	f.Add(ordercsvtest.Export(3))
	f.Fuzz(func(t *testing.T, data []byte) {
		splitBoth(t, data, 16)
	})
}
