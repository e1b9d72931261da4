package lhcli

import (
	"strings"
	"testing"
)

func TestParseSEO(t *testing.T) {
	s, err := parseSEO([]byte(`{"categories":{"seo":{"score":0.75}},"audits":{
		"document-title":{"score":1,"scoreDisplayMode":"binary"},
		"image-alt":{"score":0,"scoreDisplayMode":"binary"},
		"hreflang":{"score":null,"scoreDisplayMode":"notApplicable"},
		"structured-data":{"score":null,"scoreDisplayMode":"manual"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Pass["document-title"] || s.Pass["image-alt"] || len(s.Pass) != 2 {
		t.Fatalf("verdicts %v", s.Pass)
	}
	if !s.NotApplicable["hreflang"] || len(s.NotApplicable) != 1 {
		t.Fatalf("not applicable %v", s.NotApplicable)
	}
	if s.Score == nil || *s.Score != 0.75 {
		t.Fatalf("score %v", s.Score)
	}
}

func TestParseSEORefusesARuntimeError(t *testing.T) {
	_, err := parseSEO([]byte(`{"runtimeError":{"code":"NO_FCP","message":"The page did not paint any content."}}`))
	if err == nil || !strings.Contains(err.Error(), "did not paint") {
		t.Fatalf("err %v", err)
	}
	if _, err := parseSEO([]byte(`not json`)); err == nil {
		t.Fatal("an unreadable report was accepted")
	}
}
