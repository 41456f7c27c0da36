package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUninstallRemovesOnlyOurs(t *testing.T) {
	sys, home := fakeMachine{profiles: []string{".config/chromium"}}.system(t)
	state := filepath.Join(home, "state")
	// Installed for chromium (detected) and edge (named, never detected).
	if _, err := sys.install(Options{Browsers: []string{"all", "edge"}, StateDir: state, HostPath: hostPath}); err != nil {
		t.Fatal(err)
	}
	// Someone else's host under our file name, and an unrelated manifest.
	foreign := filepath.Join(home, ".config/google-chrome/NativeMessagingHosts/com.agenttab.host.json")
	other := filepath.Join(home, ".config/chromium/NativeMessagingHosts/com.example.other.json")
	for path, body := range map[string]string{
		foreign: `{"name":"com.example.impostor","path":"/x","type":"stdio","allowed_origins":[]}`,
		other:   `{"name":"com.example.other","path":"/y","type":"stdio","allowed_origins":[]}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	removed, err := sys.uninstall(Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(home, ".config/chromium/NativeMessagingHosts/com.agenttab.host.json"),
		filepath.Join(home, ".config/microsoft-edge/NativeMessagingHosts/com.agenttab.host.json"),
		filepath.Join(state, "extension"),
	}
	if diff := cmp.Diff(want, removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	for _, p := range want {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s still exists (%v)", p, err)
		}
	}
	for _, p := range []string{foreign, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}

	// Nothing left: a second run removes nothing and is not an error.
	removed, err = sys.uninstall(Options{StateDir: state})
	if err != nil || len(removed) != 0 {
		t.Errorf("second uninstall = %v, %v; want nothing", removed, err)
	}
}

func TestUninstallScopes(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want []string // manifests removed, relative to home
	}{
		{
			name: "user data dir only",
			opts: Options{UserDataDir: "udd"},
			want: []string{"udd/NativeMessagingHosts/com.agenttab.host.json"},
		},
		{
			name: "named browser only",
			opts: Options{Browsers: []string{"brave"}},
			want: []string{".config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.agenttab.host.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, home := fakeMachine{}.system(t)
			state := filepath.Join(home, "state")
			for _, o := range []Options{{Browsers: []string{"brave", "chrome"}}, {UserDataDir: filepath.Join(home, "udd")}} {
				o.StateDir, o.HostPath = state, hostPath
				if _, err := sys.install(o); err != nil {
					t.Fatal(err)
				}
			}
			opts := tt.opts
			opts.StateDir = state
			if opts.UserDataDir != "" {
				opts.UserDataDir = filepath.Join(home, opts.UserDataDir)
			}
			removed, err := sys.uninstall(opts)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(home, filepath.FromSlash(w)))
			}
			want = append(want, filepath.Join(state, "extension"))
			if diff := cmp.Diff(want, removed); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
			}
			// Chrome's manifest was outside every scope tested here.
			if _, err := os.Stat(filepath.Join(home, ".config/google-chrome/NativeMessagingHosts/com.agenttab.host.json")); err != nil {
				t.Errorf("chrome manifest removed: %v", err)
			}
		})
	}
}
