package write

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// OpenAI is a TextGenerator that asks any OpenAI-compatible chat-completions
// endpoint for the summary and ideas as JSON. Its answer is validated against
// the Text schema and the Brief (products must be the store's own); on an
// error or a bad answer it falls back to the deterministic generator, so a
// flaky model never leaves a store without ideas.
//
// The endpoint is operator configuration, not user input, so it is called
// with an ordinary HTTP client rather than the guarded website fetcher.
type OpenAI struct {
	BaseURL  string // e.g. https://api.openai.com/v1
	APIKey   string
	Model    string
	Client   *http.Client  // nil = a client with a 60 s timeout
	Fallback TextGenerator // nil = Deterministic
}

const systemPrompt = `You write marketing copy for a small online store. You are given facts read from the store's website as JSON.

Use only those facts; never invent products, prices or dates. Reply with one JSON object:
{"summary": string (2-3 sentences: what the store sells, to whom, price range),
 "ideas": [3 to 5 objects {"title","whyNow","channel" (one of email, social, ads, onsite),"subjectLine","body","products" (names exactly as in the facts),"timing"}]}.
Ground each idea's whyNow in the facts (an upcoming occasion, prices, or a review finding).`

// Generate implements TextGenerator.
func (o *OpenAI) Generate(ctx context.Context, b Brief) (Text, error) {
	t, err := o.generate(ctx, b)
	if err == nil {
		return t, nil
	}
	fb := o.Fallback
	if fb == nil {
		fb = Deterministic{}
	}
	return fb.Generate(ctx, b)
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	ResponseFormat map[string]string `json:"response_format"`
	Temperature    float64           `json:"temperature"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

func (o *OpenAI) generate(ctx context.Context, b Brief) (Text, error) {
	facts, err := json.Marshal(b)
	if err != nil {
		return Text{}, err
	}
	reqBody, _ := json.Marshal(chatRequest{
		Model: o.Model,
		Messages: []chatMessage{
			{Role: "system", Content: systemPrompt},
			{Role: "user", Content: string(facts)},
		},
		ResponseFormat: map[string]string{"type": "json_object"},
		Temperature:    0.3,
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(o.BaseURL, "/")+"/chat/completions", bytes.NewReader(reqBody))
	if err != nil {
		return Text{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return Text{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return Text{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Text{}, fmt.Errorf("text generator answered HTTP %d", resp.StatusCode)
	}
	var cr chatResponse
	if err := json.Unmarshal(body, &cr); err != nil || len(cr.Choices) == 0 {
		return Text{}, errors.New("text generator: malformed response")
	}
	content := strings.TrimSpace(cr.Choices[0].Message.Content)
	content = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(content, "```json"), "```"), "```")
	var t Text
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Text{}, fmt.Errorf("text generator: %w", err)
	}
	if err := ValidateText(&t, b); err != nil {
		return Text{}, err
	}
	return t, nil
}

// ValidateText checks a generator's answer against the schema and the
// Brief: lengths, channels, 3–5 ideas, and only the store's real products.
func ValidateText(t *Text, b Brief) error {
	t.Summary = strings.TrimSpace(t.Summary)
	if t.Summary == "" || len(t.Summary) > 1200 {
		return errors.New("text generator: summary missing or too long")
	}
	if len(t.Ideas) < 3 || len(t.Ideas) > 5 {
		return fmt.Errorf("text generator: %d ideas, want 3 to 5", len(t.Ideas))
	}
	known := map[string]string{}
	for _, p := range b.Products {
		known[strings.ToLower(p.Name)] = p.Name
	}
	for i := range t.Ideas {
		id := &t.Ideas[i]
		for _, f := range []*string{&id.Title, &id.WhyNow, &id.SubjectLine, &id.Body, &id.Timing} {
			*f = strings.TrimSpace(*f)
			if *f == "" || len(*f) > 3000 {
				return fmt.Errorf("text generator: idea %d has an empty or oversized field", i+1)
			}
		}
		id.Channel = strings.ToLower(strings.TrimSpace(id.Channel))
		if !slices.Contains([]string{ChannelEmail, ChannelSocial, ChannelAds, ChannelOnsite}, id.Channel) {
			return fmt.Errorf("text generator: idea %d has channel %q", i+1, id.Channel)
		}
		var prods []string
		for _, p := range id.Products {
			name, ok := known[strings.ToLower(strings.TrimSpace(p))]
			if !ok {
				return fmt.Errorf("text generator: idea %d names %q, which the store does not sell", i+1, p)
			}
			prods = append(prods, name)
		}
		id.Products = prods
	}
	return nil
}
