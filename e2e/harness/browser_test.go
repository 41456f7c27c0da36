package harness

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFlag(t *testing.T) {
	tests := []struct {
		arg       string
		wantName  string
		wantValue any
		wantErr   bool
	}{
		{"--headless=new", "headless", "new", false},
		{"--no-first-run", "no-first-run", true, false},
		{"--disable-features=Translate,MediaRouter", "disable-features", "Translate,MediaRouter", false},
		{"--user-data-dir=/tmp/a=b", "user-data-dir", "/tmp/a=b", false},
		{"--window-size=1280,800", "window-size", "1280,800", false},
		{"about:blank", "", nil, true},
		{"-v", "", nil, true},
		{"--", "", nil, true},
		{"--=x", "", nil, true},
	}
	for _, tt := range tests {
		name, value, err := parseFlag(tt.arg)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseFlag(%q) error = %v, want error %v", tt.arg, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff([]any{tt.wantName, tt.wantValue}, []any{name, value}); diff != "" {
			t.Errorf("parseFlag(%q) (-want +got):\n%s", tt.arg, diff)
		}
	}
}
