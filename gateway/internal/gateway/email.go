package gateway

import (
	"html/template"
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/platform/pagesec"
	"uplift.dev/platform/validation"
)

// emailPage is the small page a person sees after following an email's
// unsubscribe link: first a button that confirms (a link scanner that
// follows every link in an email with GET must not unsubscribe anyone),
// then what was turned off and a button to turn it back on.
// It is HTML because a person, not a program, opened it; the one-click POST
// of RFC 8058 (mail clients) keeps its JSON answer on the REST mapping.
var emailPage = template.Must(template.New("email").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Uplift</title>
<style>` + emailPageStyle + `</style></head>
<body><main>
<h1>{{.Title}}</h1>
<p{{if .Error}} class="error" role="alert"{{end}}>{{.Message}}</p>
{{if .Confirm}}<form method="post" action="/email/unsubscribe/confirm?token={{.Confirm}}"><button type="submit">Unsubscribe</button></form>{{end}}
{{if .Token}}<form method="post" action="/email/resubscribe?token={{.Token}}"><button type="submit">Turn it back on</button></form>{{end}}
<p class="muted"><a href="{{.WebURL}}/">Go to Uplift</a></p>
</main></body></html>
`))

// emailPageStyle is the page's one inline style, which its policy allows by
// hash and nothing else.
const emailPageStyle = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7fb;color:#1f2330}
main{max-width:32rem;margin:3rem auto;padding:1.5rem;box-sizing:border-box;background:#fff;border:1px solid #e3e6ee;border-radius:12px}
h1{font-size:1.35rem;margin:0 0 .75rem}p{line-height:1.5}
button,a.button{display:inline-block;font:inherit;font-weight:600;padding:.7rem 1.1rem;border-radius:8px;border:0;background:#4f46e5;color:#fff;text-decoration:none;cursor:pointer}
.muted{color:#5b6275}.error{color:#b91c1c}a{color:#4f46e5}
@media (max-width:34rem){main{margin:1rem}}
`

// emailPagePolicy lets the page use its style and post its forms to the
// gateway itself, whose answer is the next page (no redirect elsewhere).
var emailPagePolicy = pagesec.Policy([]string{emailPageStyle})

type emailPageData struct {
	Title, Message, Token, WebURL string
	// Confirm is the token of a link not yet confirmed.
	Confirm string
	Error   bool
}

// mountEmail adds the pages behind the links in Uplift's emails. The token
// in the link authorises the change (the digest service checks it), so no
// sign-in is needed.
func mountEmail(root *http.ServeMux, digest digestv1.DigestServiceClient, webURL string) {
	web := strings.TrimRight(webURL, "/")
	render := func(w http.ResponseWriter, code int, d emailPageData) {
		d.WebURL = web
		pagesec.SetPage(w.Header(), emailPagePolicy)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		_ = emailPage.Execute(w, d)
	}
	failed := func(w http.ResponseWriter, err error) {
		st := status.Convert(err)
		code := http.StatusBadRequest
		msg := st.Message()
		if st.Code() != codes.InvalidArgument {
			code, msg = http.StatusServiceUnavailable, "We could not change your email settings just now. Please try the link again in a minute."
		}
		render(w, code, emailPageData{Title: "This link did not work", Message: msg, Error: true})
	}
	// GET changes nothing: it asks. The one-click POST of RFC 8058 on the
	// same address (the REST mapping) stays a single step for mail clients.
	root.HandleFunc("GET /email/unsubscribe", func(w http.ResponseWriter, r *http.Request) {
		token := r.URL.Query().Get("token")
		// The page asks before it calls the digest service, so it checks the
		// token's bound itself: no page carries a token no service takes.
		if token == "" || validation.CheckLength("token", token, validation.KindOf("token")) != nil {
			render(w, http.StatusBadRequest, emailPageData{Title: "This link did not work",
				Message: "This unsubscribe link is not valid.", Error: true})
			return
		}
		render(w, http.StatusOK, emailPageData{Title: "Unsubscribe from these emails?",
			Message: "Press Unsubscribe to stop this kind of email from Uplift. Nothing changes until you do.", Confirm: token})
	})
	root.HandleFunc("POST /email/unsubscribe/confirm", func(w http.ResponseWriter, r *http.Request) {
		token := r.URL.Query().Get("token")
		res, err := digest.Unsubscribe(r.Context(), &digestv1.UnsubscribeRequest{Token: token})
		if err != nil {
			failed(w, err)
			return
		}
		render(w, http.StatusOK, emailPageData{Title: "You are unsubscribed", Message: res.GetMessage(), Token: token})
	})
	root.HandleFunc("POST /email/resubscribe", func(w http.ResponseWriter, r *http.Request) {
		res, err := digest.Resubscribe(r.Context(), &digestv1.ResubscribeRequest{Token: r.URL.Query().Get("token")})
		if err != nil {
			failed(w, err)
			return
		}
		render(w, http.StatusOK, emailPageData{Title: "You are subscribed again", Message: res.GetMessage()})
	})
}
