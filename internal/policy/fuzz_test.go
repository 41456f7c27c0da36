package policy

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzDecode checks that Decode never panics, and that whatever it accepts
// means the same to encoding/json and survives a round trip.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `[]`, `null`, `{"audit":{"enabled":false}}`,
		`{"audit":{"enabled":false},"developer_mode":{"enabled":true}}`,
		`{"audit":{"enabled":true,"enabled":false}}`, `{"audit":{"foo":1}}`,
		`{"audit.enabled":true}`, `{"audit":{"enabled":"true"}}`, `{}{}`, `{"a":`,
		`{"origins":{"allowed":["https://*.example.com","http://[::1]:8080"],"denied":["https://evil.com"]}}`,
		`{"origins":{"allowed":[]}}`, `{"origins":{"denied":["https://a.test/"]}}`, `{"origins":{"denied":[1]}}`,
		`{"local_files":{"allowed_roots":["/srv/docs","/home/u/x y/"]}}`, `{"local_files":{"allowed_roots":["rel"]}}`,
		`{"local_files":{"allowed_roots":[]}}`, `{"local_files":{"allowed_roots":[null]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Decode() error %T %v, want *Error", err, err)
			}
			return
		}
		// encoding/json, starting from the defaults, reads the same values.
		want := Default()
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("Decode accepted %q, which encoding/json refuses: %v", data, err)
		}
		// An empty list and an absent one mean the same: no constraint.
		if diff := cmp.Diff(want, p, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Decode(%q) disagrees with encoding/json (-json +Decode):\n%s", data, diff)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode refused its own encoding %s: %v", out, err)
		}
		if diff := cmp.Diff(p, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip changed the policy (-first +second):\n%s", diff)
		}
	})
}
