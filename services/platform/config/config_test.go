package config

import (
	"strings"
	"testing"
	"time"
)

type sample struct {
	Addr    string        `env:"ADDR" default:":9000"`
	DB      string        `env:"DATABASE_URL" required:"true" secret:"true"`
	Debug   bool          `env:"DEBUG"`
	Workers int           `env:"WORKERS" default:"4"`
	Timeout time.Duration `env:"TIMEOUT" default:"5s"`
	Origins []string      `env:"ORIGINS"`
	Nested  struct {
		Project string `env:"PROJECT" default:"demo-x"`
	}
}

func env(m map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestLoadAppliesValuesAndDefaults(t *testing.T) {
	var c sample
	err := Load(&c, env(map[string]string{
		"DATABASE_URL": "postgres://x", "DEBUG": "true", "TIMEOUT": "2m", "ORIGINS": "http://a, http://b,",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9000" || c.DB != "postgres://x" || !c.Debug || c.Workers != 4 || c.Timeout != 2*time.Minute {
		t.Fatalf("unexpected config %+v", c)
	}
	if len(c.Origins) != 2 || c.Origins[1] != "http://b" {
		t.Fatalf("origins = %q", c.Origins)
	}
	if c.Nested.Project != "demo-x" {
		t.Fatalf("nested default not applied: %q", c.Nested.Project)
	}
}

func TestLoadReportsEveryBadSettingByName(t *testing.T) {
	var c sample
	err := Load(&c, env(map[string]string{"DEBUG": "maybe", "WORKERS": "many", "TIMEOUT": "soon"}))
	if err == nil {
		t.Fatal("want error")
	}
	for _, name := range []string{"DATABASE_URL: required", "DEBUG:", "WORKERS:", "TIMEOUT:"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not mention %q", err, name)
		}
	}
}

func TestDescribeMasksSecrets(t *testing.T) {
	c := sample{DB: "postgres://user:pw@host"}
	for _, a := range Describe(&c) {
		if a.Key == "DATABASE_URL" && a.Value.String() != "****" {
			t.Fatalf("secret leaked: %v", a.Value)
		}
	}
}
