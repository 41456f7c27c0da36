package harness

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTail(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, "(empty)"},
		{"a\nb\n", 3, "a\nb"},
		{"a\nb\nc\nd\n", 2, "… 2 earlier lines left out …\nc\nd"},
		{"a\nb", 2, "a\nb"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tail(tt.in, tt.n)); diff != "" {
			t.Errorf("tail(%q, %d) (-want +got):\n%s", tt.in, tt.n, diff)
		}
	}
}

func TestWithoutNoise(t *testing.T) {
	in := "/usr/bin/chromium: 9: [: 25276510208: unexpected operator\n" +
		"[1:2:1130/020037.668924:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n" +
		"[1:1:1130/020037.7:ERROR:extensions/browser/extension_service.cc] Could not load extension\n" +
		"[1:2:1130/020037.952125:ERROR:dbus/object_proxy.cc:572] Failed to call method\n"
	want := "[1:1:1130/020037.7:ERROR:extensions/browser/extension_service.cc] Could not load extension\n" +
		"(3 harmless D-Bus, wrapper and start-up lines left out)"
	if diff := cmp.Diff(want, withoutNoise(in)); diff != "" {
		t.Errorf("withoutNoise (-want +got):\n%s", diff)
	}
	if got := withoutNoise("plain\n"); got != "plain" {
		t.Errorf("withoutNoise(plain) = %q", got)
	}
}
