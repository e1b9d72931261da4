package write

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
)

func testBrief() Brief {
	return Brief{
		StoreName: "Bramble Honey", SiteURL: "https://bramble.example/", Currency: "GBP", Audience: "food lovers",
		Products:  []page.Product{{Name: "Wildflower Honey 340g", Price: 12, Currency: "GBP", Available: true}, {Name: "Cut Honeycomb 400g", Price: 45, Currency: "GBP", Available: true}},
		Prices:    PriceStats{Count: 2, Min: 12, Max: 45, Median: 45, Low: 12, High: 45},
		Findings:  []BriefFinding{{Check: review.CheckEmailCapture, Title: "No newsletter sign-up", PointsLost: 5}},
		Occasions: []BriefDate{{Name: "Valentine's Day", Date: "2026-02-14", DaysAway: 25, Gift: true}},
		Today:     "2026-01-20",
	}
}

// llmServer answers chat completions with content, recording the request.
func llmServer(t *testing.T, content string, got *map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			t.Errorf("request %s with auth %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		if got != nil {
			json.NewDecoder(r.Body).Decode(got)
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOpenAIUsesValidJSON(t *testing.T) {
	answer := `{"summary":"Bramble Honey sells raw British honey from £12.","ideas":[
{"title":"Valentine's honey","whyNow":"Valentine's Day is in 25 days","channel":"email","subjectLine":"Sweet gifts","body":"Hi","products":["Wildflower Honey 340g"],"timing":"Send 4 Feb"},
{"title":"Honeycomb reel","whyNow":"Your priciest item","channel":"Social","subjectLine":"Watch","body":"Post","products":["cut honeycomb 400g"],"timing":"This week"},
{"title":"Welcome list","whyNow":"No newsletter sign-up","channel":"onsite","subjectLine":"10% off","body":"Form","products":[],"timing":"Now"}]}`
	var req map[string]any
	srv := llmServer(t, answer, &req)
	g := &OpenAI{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "test-model"}
	text, err := g.Generate(context.Background(), testBrief())
	if err != nil {
		t.Fatal(err)
	}
	if text.Summary != "Bramble Honey sells raw British honey from £12." || len(text.Ideas) != 3 {
		t.Fatalf("model answer not used: %+v", text)
	}
	if text.Ideas[1].Channel != ChannelSocial || !reflect.DeepEqual(text.Ideas[1].Products, []string{"Cut Honeycomb 400g"}) {
		t.Errorf("idea not normalised to the store's names: %+v", text.Ideas[1])
	}
	if req["model"] != "test-model" || !strings.Contains(req["messages"].([]any)[1].(map[string]any)["content"].(string), "Wildflower Honey 340g") {
		t.Errorf("request did not carry the model and the brief: %v", req)
	}
}

func TestOpenAIFallsBackOnBadOutput(t *testing.T) {
	want, _ := Deterministic{}.Generate(context.Background(), testBrief())
	for name, content := range map[string]string{
		"not json":         "Sure! Here are some ideas: ...",
		"wrong schema":     `{"summary":"x","ideas":"none"}`,
		"too few ideas":    `{"summary":"x","ideas":[{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":[],"timing":"e"}]}`,
		"invented product": `{"summary":"x","ideas":[{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":["Golden Unicorn"],"timing":"e"},{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":[],"timing":"e"},{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":[],"timing":"e"}]}`,
		"bad channel":      `{"summary":"x","ideas":[{"title":"a","whyNow":"b","channel":"fax","subjectLine":"c","body":"d","products":[],"timing":"e"},{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":[],"timing":"e"},{"title":"a","whyNow":"b","channel":"email","subjectLine":"c","body":"d","products":[],"timing":"e"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmServer(t, content, nil)
			text, err := (&OpenAI{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "m"}).Generate(context.Background(), testBrief())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(text, want) {
				t.Errorf("got %+v, want the deterministic text", text)
			}
		})
	}
	t.Run("server error", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "overloaded", 503) }))
		t.Cleanup(srv.Close)
		text, _ := (&OpenAI{BaseURL: srv.URL, Model: "m"}).Generate(context.Background(), testBrief())
		if !reflect.DeepEqual(text, want) {
			t.Errorf("got %+v, want the deterministic text", text)
		}
	})
}

func TestDeterministicGeneratorIsStoreSpecific(t *testing.T) {
	text, err := Deterministic{}.Generate(context.Background(), testBrief())
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateText(&text, testBrief()); err != nil {
		t.Fatalf("deterministic output fails its own schema: %v", err)
	}
	if !strings.Contains(text.Summary, "Wildflower Honey 340g") || !strings.Contains(text.Summary, "£12") {
		t.Errorf("summary: %s", text.Summary)
	}
	if !strings.Contains(text.Ideas[0].Title, "Valentine's Day") || !strings.Contains(text.Ideas[0].Body, "Wildflower Honey 340g — £12") {
		t.Errorf("first idea: %+v", text.Ideas[0])
	}
}
