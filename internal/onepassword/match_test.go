package onepassword

import "testing"

func TestOriginMatches(t *testing.T) {
	for _, tc := range []struct {
		tab, item string
		want      bool
	}{
		{"https://bank.com/login", "https://bank.com", true},
		{"https://bank.com:443/", "bank.com", true}, // no scheme: https
		{"https://bank.com/", "https://bank.com/some/path?q=1", true},
		{"https://BANK.com./", "https://bank.COM", true},
		{"https://login.bank.com/", "https://bank.com", true},
		{"https://accounts.bank.com/", "https://www.bank.com", true},
		{"https://sso.bank.co.uk/", "https://bank.co.uk", true},
		{"http://127.0.0.1:8123/login", "http://127.0.0.1:8123/", true},
		{"http://localhost:8123/", "http://localhost:8123", true},
		{"https://xn--bnk-qla.com/", "https://bänk.com", true}, // Unicode item, Chrome's punycode
		{"https://bank.com/", "https://ｂａｎｋ.com", true},        // fullwidth maps to ASCII (UTS 46)

		{"https://evil.com/", "https://bank.com", false},
		{"https://evil-bank.com/", "https://bank.com", false},
		{"https://bank.com.evil.com/", "https://bank.com", false},
		{"https://bank.com@evil.com/", "https://bank.com", false}, // userinfo trick: the host is evil.com
		{"https://evil.com/bank.com", "https://bank.com", false},  // path trick
		{"https://evil.com/?u=https://bank.com", "https://bank.com", false},
		{"http://bank.com/", "https://bank.com", false}, // http vs https
		{"https://bank.com/", "http://bank.com", false}, // https tab, http item
		{"https://bank.com:8443/", "https://bank.com", false},
		{"http://127.0.0.1:8124/", "http://127.0.0.1:8123", false},
		{"https://xn--pple-43d.com/", "https://apple.com", false}, // Cyrillic а
		{"https://apple.com/", "https://аpple.com", false},
		{"https://www.bank.com/", "https://bank.com", false}, // www is not an auth label
		{"https://bank.com/", "https://login.bank.com", false},
		{"https://login.other.bank.com/", "https://bank.com", false},
		{"https://login.evil.com/", "https://bank.com", false},
		{"https://login.co.uk/", "https://bank.co.uk", false},
		{"https://login.github.io/", "https://alice.github.io", false}, // a private suffix is a registrable boundary
		{"https://login.localhost/", "https://localhost", false},
		{"https://bank.com/", "https://user@bank.com", false}, // an item URL with userinfo is refused
		{"https://bank.com/", "ftp://bank.com", false},
		{"https://bank.com/", "", false},
		{"file:///etc/passwd", "file:///etc/passwd", false},
	} {
		o, ok := ParseOrigin(tc.tab)
		if got := ok && o.Matches(tc.item); got != tc.want {
			t.Errorf("tab %q, item %q: matches %v, want %v", tc.tab, tc.item, got, tc.want)
		}
	}
}

func TestOriginString(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Bank.com:443/x?y":  "https://bank.com",
		"http://127.0.0.1:8123/":    "http://127.0.0.1:8123",
		"http://[::1]:80/":          "http://[::1]",
		"https://xn--bnk-qla.com/a": "https://xn--bnk-qla.com",
	} {
		o, ok := ParseOrigin(raw)
		if !ok || o.String() != want {
			t.Errorf("%q: %q %v, want %q", raw, o.String(), ok, want)
		}
	}
}

func TestCandidatesNeverMatchOnTitles(t *testing.T) {
	o, _ := ParseOrigin("https://bank.com/")
	got := o.Candidates([]Login{
		{ID: "a", URLs: []string{"https://evil.com"}},
		{ID: "b", URLs: []string{"https://other.com", "https://bank.com/login"}},
		{ID: "c"},
	})
	if len(got) != 1 || got[0].ID != "b" {
		t.Fatalf("%+v", got)
	}
}

func TestUnquote(t *testing.T) {
	for raw, want := range map[string]string{
		`"plain"`:            "plain",
		`"a\"b\\c\/d\n\t"`:   "a\"b\\c/d\n\t",
		`"\u00e9\u20ac"`:     "é€",
		`"\ud83d\ude00"`:     "😀",
		`"p\u0040ss"`:        "p@ss",
		`"ünïcode"`:          "ünïcode",
		`"lone \ud800 half"`: "lone \uFFFD half",
	} {
		got, err := unquote([]byte(raw))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q %v, want %q", raw, got, err, want)
		}
	}
	for _, bad := range []string{`plain`, `"a\q"`, `"\u12"`, `"trailing\"`} {
		if _, err := unquote([]byte(bad)); err == nil {
			t.Errorf("%s: decoded", bad)
		}
	}
}
