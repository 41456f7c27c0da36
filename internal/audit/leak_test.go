package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// TestNoValuesReachTheFile writes records built from arguments and results
// that carry canary values and checks that the file holds none of them,
// only the origin.
func TestNoValuesReachTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"url":"https://shop.example:8443/secret-canary-path-123?q=canary-query#canary-fragment",` +
		`"title":"Canary Title 987","steps":[{"type":"fill","text":"canary text"}],"url_list":["https://canary.invalid/"]}`)
	result := json.RawMessage(`{"tab":{"url":"https://shop.example:8443/secret-canary-path-123","title":"Canary Title 987"}}`)
	rec := Record{
		TS: time.Now(), TSEnd: time.Now(), Kind: KindRequest, ConnectionID: "conn_1", TaskID: "task_1",
		RequestID: "1", Method: "browser_open", Outcome: protocol.OutcomeConfirmed,
		TargetOrigins: Origins(args), ArgsSummary: Summarize(args), ArgsDigest: Digest(args),
		ResultSummary: Summarize(result),
	}
	if err := l.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	// "canary" cannot occur in a hex digest, so this catches any fragment.
	if strings.Contains(strings.ToLower(text), "canary") {
		t.Errorf("the audit file leaks a canary value:\n%s", text)
	}
	for _, leak := range []string{"secret-canary-path-123", "canary-query", "Canary Title 987", "/secret"} {
		if strings.Contains(text, leak) {
			t.Errorf("the audit file contains %q", leak)
		}
	}
	if !strings.Contains(text, `"target_origins":["https://shop.example:8443"]`) {
		t.Errorf("the audit file lacks the target origin:\n%s", text)
	}
}
