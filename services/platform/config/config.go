// Package config parses a service's settings from the environment into a
// struct, once, at start. Every bad or missing setting is reported together,
// by name, so an operator fixes them in one go.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Lookup reads one environment variable; os.LookupEnv in production, a map in tests.
type Lookup func(key string) (string, bool)

// Load fills the exported fields of dst (a pointer to a struct) from the
// environment. Field tags:
//
//	env:"NAME"          the variable to read (required to take part)
//	default:"value"     used when the variable is unset or empty
//	required:"true"     unset and no default is an error
//	secret:"true"       the value is masked by Describe
//
// Supported kinds: string, bool, int, time.Duration, []string (comma separated).
func Load(dst any, lookup Lookup) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errors.New("config: Load needs a pointer to a struct")
	}
	var problems []string
	walk(v.Elem(), func(f reflect.StructField, fv reflect.Value) {
		name := f.Tag.Get("env")
		raw, ok := lookup(name)
		if !ok || raw == "" {
			raw, ok = f.Tag.Lookup("default")
		}
		if !ok {
			if f.Tag.Get("required") == "true" {
				problems = append(problems, name+": required but not set")
			}
			return
		}
		if err := set(fv, raw); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
		}
	})
	if len(problems) > 0 {
		return fmt.Errorf("invalid configuration:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// Describe lists the settings as slog attributes, with secrets masked, so a
// service can log what it started with.
func Describe(src any) []slog.Attr {
	var attrs []slog.Attr
	walk(reflect.ValueOf(src).Elem(), func(f reflect.StructField, fv reflect.Value) {
		val := fmt.Sprint(fv.Interface())
		if f.Tag.Get("secret") == "true" && val != "" {
			val = "****"
		}
		attrs = append(attrs, slog.String(f.Tag.Get("env"), val))
	})
	return attrs
}

// walk visits every field with an env tag, descending into nested structs.
func walk(v reflect.Value, visit func(reflect.StructField, reflect.Value)) {
	t := v.Type()
	for i := range t.NumField() {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Duration]() && f.Tag.Get("env") == "" {
			walk(fv, visit)
			continue
		}
		if f.Tag.Get("env") != "" {
			visit(f, fv)
		}
	}
}

func set(fv reflect.Value, raw string) error {
	switch {
	case fv.Type() == reflect.TypeFor[time.Duration]():
		d, err := time.ParseDuration(raw)
		if err != nil {
			return fmt.Errorf("%q is not a duration like 5s or 2m", raw)
		}
		fv.SetInt(int64(d))
	case fv.Kind() == reflect.String:
		fv.SetString(raw)
	case fv.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return fmt.Errorf("%q is not true or false", raw)
		}
		fv.SetBool(b)
	case fv.Kind() == reflect.Int:
		n, err := strconv.Atoi(raw)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", raw)
		}
		fv.SetInt(int64(n))
	case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String:
		var items []string
		for item := range strings.SplitSeq(raw, ",") {
			if item = strings.TrimSpace(item); item != "" {
				items = append(items, item)
			}
		}
		fv.Set(reflect.ValueOf(items))
	default:
		return fmt.Errorf("unsupported setting type %s", fv.Type())
	}
	return nil
}
