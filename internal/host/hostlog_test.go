package host

import (
	"os"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/internal/statedir"
)

// A host that refuses to start says why in host.log, not only on stderr,
// which Chrome drops: `agenttab doctor` shows recent errors from there.
func TestStartRefusalReachesHostLog(t *testing.T) {
	dir := statedir.Dir(t.TempDir())
	if err := os.WriteFile(dir.Policy(), []byte(`{"audit":{"enabled":"yes"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := Run(t.Context(), Options{Dir: dir, ExtensionOrigin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", Version: "test"})
	if err == nil || !strings.Contains(err.Error(), "refusing to start") {
		t.Fatalf("Run with a bad policy: %v", err)
	}
	log, rerr := os.ReadFile(dir.HostLog())
	if rerr != nil || !strings.Contains(string(log), "host stopped with an error: refusing to start: policy file") {
		t.Fatalf("host.log %q (%v) does not say why the host stopped", log, rerr)
	}
}
