// Package templates turns an email row into the words a store owner reads:
// a subject, a plain-text part and an HTML part in Uplift's voice. The HTML
// goes through html/template so user data (names, addresses, links) is
// escaped for its context; copy lives in files/ so it reads as copy.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"

	"uplift.dev/digest/internal/domain"
)

//go:embed files/*.tmpl
var files embed.FS

// ResetValidFor is how long a password-reset link works, as the email says.
// Firebase's password-reset action codes expire after one hour.
const ResetValidFor = "1 hour"

var subjects = map[domain.Kind]string{
	domain.KindWelcome:        "Welcome to Uplift — let's grow your store",
	domain.KindEmailChanged:   "Your Uplift sign-in email was changed",
	domain.KindEmailConfirmed: "This is now your Uplift sign-in email",
	domain.KindPasswordReset:  "Reset your Uplift password",
}

// Renderer renders every kind of email; it is safe for concurrent use.
type Renderer struct {
	webURL string
	html   map[domain.Kind]*htmltemplate.Template
	text   map[domain.Kind]*texttemplate.Template
}

// New parses the templates once. webURL is where links to the app point;
// it must be an absolute http(s) URL.
func New(webURL string) (*Renderer, error) {
	u, err := url.Parse(webURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("WEB_URL: %q is not an absolute http(s) URL", webURL)
	}
	r := &Renderer{
		webURL: strings.TrimRight(webURL, "/") + "/",
		html:   map[domain.Kind]*htmltemplate.Template{},
		text:   map[domain.Kind]*texttemplate.Template{},
	}
	funcs := map[string]any{"button": func(u, label string) map[string]string { return map[string]string{"URL": u, "Label": label} }}
	for kind := range subjects {
		h, err := htmltemplate.New("").Funcs(funcs).ParseFS(files, "files/layout.html.tmpl", "files/"+string(kind)+".html.tmpl")
		if err != nil {
			return nil, fmt.Errorf("templates: %s html: %w", kind, err)
		}
		t, err := texttemplate.New("").ParseFS(files, "files/layout.txt.tmpl", "files/"+string(kind)+".txt.tmpl")
		if err != nil {
			return nil, fmt.Errorf("templates: %s text: %w", kind, err)
		}
		r.html[kind], r.text[kind] = h, t
	}
	return r, nil
}

// data is what every template sees.
type data struct {
	Subject, WebURL                       string
	DisplayName, OldEmail, NewEmail, Link string
	ValidFor                              string
}

// Render renders e. An unknown kind is an error (the row stays and is
// retried, so a deploy that adds the template sends it).
func (r *Renderer) Render(e domain.Email) (domain.Message, error) {
	subject, ok := subjects[e.Kind]
	if !ok {
		return domain.Message{}, fmt.Errorf("templates: no template for kind %q", e.Kind)
	}
	d := data{
		Subject: subject, WebURL: r.webURL,
		DisplayName: e.Params.DisplayName, OldEmail: e.Params.OldEmail, NewEmail: e.Params.NewEmail,
		Link: e.Params.Link, ValidFor: ResetValidFor,
	}
	if e.Kind == domain.KindPasswordReset && d.Link == "" {
		return domain.Message{}, fmt.Errorf("templates: password reset without a link")
	}
	var html, text bytes.Buffer
	if err := r.html[e.Kind].ExecuteTemplate(&html, "layout", d); err != nil {
		return domain.Message{}, fmt.Errorf("templates: %s html: %w", e.Kind, err)
	}
	if err := r.text[e.Kind].ExecuteTemplate(&text, "layout", d); err != nil {
		return domain.Message{}, fmt.Errorf("templates: %s text: %w", e.Kind, err)
	}
	return domain.Message{Key: e.Key, To: e.To, Subject: subject, Text: text.String(), HTML: html.String()}, nil
}
