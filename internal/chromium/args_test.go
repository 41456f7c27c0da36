package chromium

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArgs(t *testing.T) {
	common := []string{
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-features=Translate,MediaRouter",
	}
	join := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name string
		o    LaunchOptions
		root bool
		want []string
	}{
		{
			name: "headless as root",
			o:    LaunchOptions{Headless: true, UserDataDir: "/u", ExtensionDir: "/e", Extra: []string{"--x=1"}},
			root: true,
			want: join(
				[]string{"--headless=new", "--no-sandbox", "--disable-gpu"},
				common,
				[]string{"--user-data-dir=/u", "--load-extension=/e", "--window-size=1280,800", "--x=1"},
			),
		},
		{
			name: "headful as a user keeps the sandbox and the GPU",
			o:    LaunchOptions{UserDataDir: "/u", ExtensionDir: "/e"},
			want: join(common, []string{"--user-data-dir=/u", "--load-extension=/e", "--window-size=1280,800"}),
		},
		{
			name: "empty directories are left out",
			o:    LaunchOptions{Headless: true},
			want: join([]string{"--headless=new", "--disable-gpu"}, common, []string{"--window-size=1280,800"}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, args(tt.o, tt.root)); diff != "" {
				t.Errorf("args() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHasDisplay(t *testing.T) {
	tests := []struct {
		goos string
		env  map[string]string
		want bool
	}{
		{"linux", nil, false},
		{"linux", map[string]string{"DISPLAY": ":99"}, true},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, true},
		{"freebsd", map[string]string{"DISPLAY": ":0"}, true},
		{"darwin", nil, true},
		{"windows", nil, true},
	}
	for _, tt := range tests {
		got := hasDisplay(tt.goos, func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("hasDisplay(%s, %v) = %v, want %v", tt.goos, tt.env, got, tt.want)
		}
	}
}
