package analysis

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"uplift.dev/review/internal/analysis/write"
)

func TestAnalyzerUsesTheConfiguredGenerator(t *testing.T) {
	answer := `{"summary":"From the model.","ideas":[
{"title":"One","whyNow":"w","channel":"email","subjectLine":"s","body":"b","products":["Cut Honeycomb 400g"],"timing":"t"},
{"title":"Two","whyNow":"w","channel":"ads","subjectLine":"s","body":"b","products":[],"timing":"t"},
{"title":"Three","whyNow":"w","channel":"onsite","subjectLine":"s","body":"b","products":[],"timing":"t"}]}`
	// An OpenAI-compatible endpoint that always gives answer.
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}}}})
	}))
	t.Cleanup(llm.Close)
	store := poorStore(t)
	a := newTestAnalyzer(t, store, Options{Generator: &write.OpenAI{BaseURL: llm.URL + "/v1", APIKey: "sk-test", Model: "m"}})
	res := analyze(t, a, store.URL, nil)
	if res.Summary != "From the model." || len(res.Ideas) != 3 || res.Ideas[0].Products[0] != "Cut Honeycomb 400g" {
		t.Errorf("model output not used: %q %+v", res.Summary, res.Ideas)
	}
}
