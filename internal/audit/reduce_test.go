package audit

import (
	"strings"
	"testing"
)

func TestReduceURLs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no URL", "clicked button \"Send\"", "clicked button \"Send\""},
		{"whole URL", "http://user:pass@Example.COM:8080/a/b?token=secret&x=1#frag", "http://example.com:8080"},
		{"default port dropped", "https://a.example:443/x?q=1", "https://a.example"},
		{"in text", "Chrome did not load https://u:p@a.example/x?t=1 (net::ERR_FAILED); closed", "Chrome did not load https://a.example (net::ERR_FAILED); closed"},
		{"quoted", `the page opened "http://a.example/p?k=v", but`, `the page opened "http://a.example", but`},
		{"several", "from http://a.example/1?x=1 to https://b.example/2#f", "from http://a.example to https://b.example"},
		{"punctuation stays in the URL's extent", "loaded http://a.example/x?t=a)b; again", "loaded http://a.example again"},
		{"no host keeps only the scheme", "file:///home/me/secret.pdf?x", "file:"},
		{"browser page", "chrome://settings/passwords?search=x", "chrome://settings"},
		{"ipv6", "http://[::1]:3000/x?y=1", "http://[::1]:3000"},
		{"no scheme", "see ://x?y=1 here", "see ://x?y=1 here"},
		{"scheme starts with a letter", "1http://a.example/x", "1http://a.example"},
		{"unparsable", "http://a%zz/x?y", "http:"},
		{"at the end", "go to http://a.example/", "go to http://a.example"},
		{"not a URL without ://", "about:blank and mailto:a@b.example?subject=x", "about:blank and mailto:a@b.example?subject=x"},
	}
	for _, tt := range tests {
		if got := ReduceURLs(tt.in); got != tt.want {
			t.Errorf("%s: ReduceURLs(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// FuzzReduceURLs checks that ReduceURLs leaves of every URL in text no
// more than an origin: nothing after the host but a port. ("://" after
// something that is not a scheme is not a URL and stays as it is.)
func FuzzReduceURLs(f *testing.F) {
	for _, s := range []string{"", "http://u:p@a.example/x?t=1#f", "a http://b/c d https://e:8/f?g \"chrome://h/i\"", "://x", "1x://y/z", "file:///etc/passwd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := ReduceURLs(s)
		for rest := out; ; {
			i := strings.Index(rest, "://")
			if i < 0 {
				break
			}
			url := i > 0 && isLetter(rest[i-1])
			rest = rest[i+3:]
			if !url {
				continue
			}
			extent := rest
			if end := strings.IndexFunc(rest, endsURL); end >= 0 {
				extent = rest[:end]
			}
			if strings.ContainsAny(extent, "/?#@") {
				t.Fatalf("ReduceURLs(%q) = %q keeps more than an origin: %q", s, out, extent)
			}
		}
	})
}
