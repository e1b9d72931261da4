package ordercsv

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
)

// records splits a file into records exactly as encoding/csv's Reader does
// with FieldsPerRecord -1, ReuseRecord and no LazyQuotes (the same fields,
// the same empty lines skipped, the same *csv.ParseError with ErrBareQuote
// or ErrQuote), but faster on what exports are made of: a line without a
// quote, most of its 79 fields empty, is split where it lies in the read
// buffer, with one string for the whole record and no per-field copying.
// Reading a file was half of the parse's time with encoding/csv.
// TestRecordsAgreeWithEncodingCSV holds it to encoding/csv.
type records struct {
	r       *bufio.Reader
	raw     []byte // a line longer than r's buffer
	buf     []byte // a quoted record's unquoted text
	ends    []int  // where each field of buf ends
	rec     []string
	numLine int
}

func newRecords(r *bufio.Reader) *records { return &records{r: r} }

// readLine is encoding/csv's: the next line with its "\n" ("\r\n" read as
// "\n", a trailing "\r" before the end of the file dropped).
func (r *records) readLine() ([]byte, error) {
	line, err := r.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.raw = append(r.raw[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.r.ReadSlice('\n')
			r.raw = append(r.raw, line...)
		}
		line = r.raw
	}
	n := len(line)
	if n > 0 && err == io.EOF {
		err = nil
		if line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	r.numLine++
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, err
}

func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

// read returns the next record (valid until the next read) or io.EOF.
func (r *records) read() ([]string, error) {
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = r.readLine()
		if errRead == nil && len(line) == lengthNL(line) {
			continue // encoding/csv skips empty lines
		}
		break
	}
	if errRead == io.EOF {
		return nil, errRead
	}
	if bytes.IndexByte(line, '"') < 0 {
		// No quote: every field is the text between commas.
		s := string(line[:len(line)-lengthNL(line)])
		rec := r.rec[:0]
		start := 0
		for i := 0; i < len(s); i++ {
			if s[i] == ',' {
				rec = append(rec, s[start:i])
				start = i + 1
			}
		}
		rec = append(rec, s[start:])
		r.rec = rec
		return rec, errRead
	}
	return r.quoted(line, errRead)
}

// quoted reads a record that has a quote somewhere, as encoding/csv's
// readRecord does, line by line when a quoted field spans lines.
func (r *records) quoted(line []byte, errRead error) ([]string, error) {
	var err error
	recLine := r.numLine
	r.buf, r.ends = r.buf[:0], r.ends[:0]
	col := 1
fields:
	for {
		if len(line) == 0 || line[0] != '"' {
			i := bytes.IndexByte(line, ',')
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = field[:len(field)-lengthNL(field)]
			}
			if j := bytes.IndexByte(field, '"'); j >= 0 {
				err = &csv.ParseError{StartLine: recLine, Line: r.numLine, Column: col + j, Err: csv.ErrBareQuote}
				break fields
			}
			r.buf = append(r.buf, field...)
			r.ends = append(r.ends, len(r.buf))
			if i >= 0 {
				line = line[i+1:]
				col += i + 1
				continue fields
			}
			break fields
		}
		line = line[1:]
		col++
		for {
			i := bytes.IndexByte(line, '"')
			switch {
			case i >= 0:
				r.buf = append(r.buf, line[:i]...)
				line = line[i+1:]
				col += i + 1
				switch {
				case len(line) > 0 && line[0] == '"': // "" is a quote
					r.buf = append(r.buf, '"')
					line = line[1:]
					col++
				case len(line) > 0 && line[0] == ',': // the field ends
					line = line[1:]
					col++
					r.ends = append(r.ends, len(r.buf))
					continue fields
				case lengthNL(line) == len(line): // the record ends
					r.ends = append(r.ends, len(r.buf))
					break fields
				default:
					err = &csv.ParseError{StartLine: recLine, Line: r.numLine, Column: col - 1, Err: csv.ErrQuote}
					break fields
				}
			case len(line) > 0: // the quoted field goes on on the next line
				r.buf = append(r.buf, line...)
				if errRead != nil {
					break fields
				}
				col += len(line)
				line, errRead = r.readLine()
				if len(line) > 0 {
					col = 1
				}
				if errRead == io.EOF {
					errRead = nil
				}
			default: // the file ends inside a quoted field
				if errRead == nil {
					err = &csv.ParseError{StartLine: recLine, Line: r.numLine, Column: col, Err: csv.ErrQuote}
					break fields
				}
				r.ends = append(r.ends, len(r.buf))
				break fields
			}
		}
	}
	if err == nil {
		err = errRead
	}
	s := string(r.buf)
	rec := r.rec[:0]
	start := 0
	for _, end := range r.ends {
		rec = append(rec, s[start:end])
		start = end
	}
	r.rec = rec
	return rec, err
}
