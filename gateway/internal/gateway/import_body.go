package gateway

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonBody reads one JSON object as it arrives, key by key, so that a
// string value of many megabytes (an order export's text) can be passed on
// in pieces instead of held whole. Small values are decoded by
// encoding/json; only the long string is unescaped here.
type jsonBody struct {
	r *bufio.Reader
	// first says the next member is the object's first (no comma before it).
	first bool
}

// errBadJSON marks a body that is not the JSON the call takes, as opposed
// to one that could not be read (too large, too slow, cut off).
var errBadJSON = errors.New("not valid JSON")

func badJSON(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errBadJSON}, args...)...)
}

// maxSmallValue bounds a key or a value other than the long string: ids and
// formats are short, and the platform refuses ids past 64 KiB.
const maxSmallValue = 64 << 10

func newJSONBody(r io.Reader) (*jsonBody, error) {
	b := &jsonBody{r: bufio.NewReaderSize(r, 64<<10), first: true}
	c, err := b.next()
	if err != nil {
		return nil, err
	}
	if c != '{' {
		return nil, badJSON("the body must be a JSON object")
	}
	return b, nil
}

// next returns the next byte that is not white space.
func (b *jsonBody) next() (byte, error) {
	for {
		c, err := b.r.ReadByte()
		if err == io.EOF {
			return 0, badJSON("the body ends too soon")
		}
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// key returns the next member's key, or ok false at the object's end,
// having checked that nothing but white space follows it.
func (b *jsonBody) key() (key string, ok bool, err error) {
	c, err := b.next()
	if err != nil {
		return "", false, err
	}
	if c == '}' {
		if _, err := b.next(); !errors.Is(err, errBadJSON) {
			if err == nil {
				err = badJSON("nothing may follow the object")
			}
			return "", false, err
		}
		return "", false, nil
	}
	if !b.first {
		if c != ',' {
			return "", false, badJSON("expected a comma or the end of the object")
		}
		if c, err = b.next(); err != nil {
			return "", false, err
		}
	}
	b.first = false
	if c != '"' {
		return "", false, badJSON("expected a key in double quotes")
	}
	if key, err = b.smallString(); err != nil {
		return "", false, err
	}
	if c, err = b.next(); err != nil {
		return "", false, err
	}
	if c != ':' {
		return "", false, badJSON("expected a colon after the key %q", key)
	}
	return key, true, nil
}

// stringValue reads a short string value, or null as "".
func (b *jsonBody) stringValue(key string) (string, error) {
	c, err := b.next()
	if err != nil {
		return "", err
	}
	if c == 'n' {
		return "", b.literal("ull")
	}
	if c != '"' {
		return "", badJSON("%s must be a string", key)
	}
	return b.smallString()
}

// smallString reads the rest of a string whose opening quote was read.
func (b *jsonBody) smallString() (string, error) {
	raw := []byte{'"'}
	for escaped := false; ; {
		c, err := b.r.ReadByte()
		if err != nil {
			return "", b.cut(err)
		}
		raw = append(raw, c)
		if len(raw) > maxSmallValue {
			return "", badJSON("a key or value is too long")
		}
		if escaped {
			escaped = false
		} else if c == '\\' {
			escaped = true
		} else if c == '"' {
			break
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !utf8.ValidString(s) {
		return "", badJSON("a string is not valid")
	}
	return s, nil
}

// longString passes a string value (or null) on in pieces of at most size
// bytes, unescaped, to send.
func (b *jsonBody) longString(key string, size int, send func([]byte) error) error {
	c, err := b.next()
	if err != nil {
		return err
	}
	if c == 'n' {
		return b.literal("ull")
	}
	if c != '"' {
		return badJSON("%s must be a string", key)
	}
	piece := make([]byte, 0, size+utf8.UTFMax)
	flush := func() error {
		if len(piece) == 0 {
			return nil
		}
		err := send(piece)
		piece = piece[:0]
		return err
	}
	for {
		c, err := b.r.ReadByte()
		if err != nil {
			return b.cut(err)
		}
		switch {
		case c == '"':
			return flush()
		case c < 0x20:
			return badJSON("%s holds a control character that is not escaped", key)
		case c == '\\':
			if piece, err = b.escape(piece); err != nil {
				return err
			}
		default:
			piece = append(piece, c)
		}
		if len(piece) >= size {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

// escape appends what the escape after a backslash stands for. A lone
// surrogate becomes U+FFFD, as encoding/json does.
func (b *jsonBody) escape(out []byte) ([]byte, error) {
	c, err := b.r.ReadByte()
	if err != nil {
		return out, b.cut(err)
	}
	switch c {
	case '"', '\\', '/':
		return append(out, c), nil
	case 'b':
		return append(out, '\b'), nil
	case 'f':
		return append(out, '\f'), nil
	case 'n':
		return append(out, '\n'), nil
	case 'r':
		return append(out, '\r'), nil
	case 't':
		return append(out, '\t'), nil
	case 'u':
		r, err := b.hex4()
		if err != nil {
			return out, err
		}
		if utf16.IsSurrogate(r) {
			// A high surrogate is read with the low one that should follow.
			if next, err := b.r.Peek(2); err == nil && string(next) == `\u` {
				_, _ = b.r.Discard(2)
				low, err := b.hex4()
				if err != nil {
					return out, err
				}
				if d := utf16.DecodeRune(r, low); d != utf8.RuneError {
					return utf8.AppendRune(out, d), nil
				}
				out, r = utf8.AppendRune(out, utf8.RuneError), low
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
		}
		return utf8.AppendRune(out, r), nil
	}
	return out, badJSON(`a string holds an unknown escape \%c`, c)
}

func (b *jsonBody) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, err := b.r.ReadByte()
		if err != nil {
			return 0, b.cut(err)
		}
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, badJSON(`a \u escape is not four hex digits`)
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

// skipValue reads past one value of any type (a member the call does not
// take, as grpc-gateway's mapping ignores it).
func (b *jsonBody) skipValue() error {
	var open []byte // the closing brackets awaited
	for {
		c, err := b.next()
		if err != nil {
			return err
		}
		switch {
		case c == '"':
			if err := b.rest(); err != nil {
				return err
			}
		case c == '{' || c == '[':
			if len(open) == 100 {
				return badJSON("the body is nested too deeply")
			}
			open = append(open, c+2) // '}' and ']' follow their openers by two
			continue
		case c == '}' || c == ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return badJSON("a bracket does not match")
			}
			open = open[:len(open)-1]
		case c == ',' || c == ':':
			if len(open) == 0 {
				return badJSON("a value is missing")
			}
			continue
		default:
			if err := b.scalar(c); err != nil {
				return err
			}
		}
		if len(open) == 0 {
			return nil
		}
	}
}

// rest reads past the rest of a string of any length.
func (b *jsonBody) rest() error {
	for {
		c, err := b.r.ReadByte()
		if err != nil {
			return b.cut(err)
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return badJSON("a string holds a control character that is not escaped")
		case c == '\\':
			if _, err := b.escape(nil); err != nil {
				return err
			}
		}
	}
}

// scalar reads the rest of a number, true, false or null starting with c.
func (b *jsonBody) scalar(c byte) error {
	raw := []byte{c}
	for {
		next, err := b.r.Peek(1)
		if err != nil || !isScalarByte(next[0]) {
			break
		}
		raw = append(raw, next[0])
		_, _ = b.r.Discard(1)
		if len(raw) > maxSmallValue {
			return badJSON("a value is too long")
		}
	}
	if !json.Valid(raw) {
		return badJSON("a value is not valid")
	}
	return nil
}

func isScalarByte(c byte) bool {
	return c == '-' || c == '+' || c == '.' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// literal reads the rest of a literal such as null.
func (b *jsonBody) literal(rest string) error {
	for i := range len(rest) {
		c, err := b.r.ReadByte()
		if err != nil {
			return b.cut(err)
		}
		if c != rest[i] {
			return badJSON("a value is not valid")
		}
	}
	return nil
}

// cut is the error of a body that ended inside a value.
func (b *jsonBody) cut(err error) error {
	if err == io.EOF {
		return badJSON("the body ends inside a string")
	}
	return err
}
