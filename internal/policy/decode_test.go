package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func policyWith(audit, dev bool) Policy {
	p := Default()
	p.Audit.Enabled = audit
	p.DeveloperMode.Enabled = dev
	return p
}

func withOrigins(p Policy, allowed, denied []Origin) Policy {
	p.Origins = Origins{Allowed: allowed, Denied: denied}
	return p
}

func withRoots(p Policy, roots ...string) Policy {
	p.LocalFiles.AllowedRoots = roots
	return p
}

func TestDefault(t *testing.T) {
	if diff := cmp.Diff(policyWith(true, false), Default()); diff != "" {
		t.Errorf("Default() mismatch (-want +got):\n%s", diff)
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Policy
	}{
		{"empty object keeps defaults", `{}`, policyWith(true, false)},
		{"whitespace around", " \n{ }\n\t", policyWith(true, false)},
		{"audit off", `{"audit":{"enabled":false}}`, policyWith(false, false)},
		{"developer on", `{"developer_mode":{"enabled":true}}`, policyWith(true, true)},
		{"both", `{"audit":{"enabled":false},"developer_mode":{"enabled":true}}`, policyWith(false, true)},
		{"empty section keeps defaults", `{"audit":{}}`, policyWith(true, false)},
		{"explicit defaults", `{"audit":{"enabled":true},"developer_mode":{"enabled":false}}`, policyWith(true, false)},
		{"empty origin lists", `{"origins":{"allowed":[],"denied":[]}}`, withOrigins(policyWith(true, false), []Origin{}, []Origin{})},
		{"origin lists", `{"origins":{"allowed":["https://*.Example.com","http://localhost:3000"],"denied":["https://pay.example.com"]}}`,
			withOrigins(policyWith(true, false),
				[]Origin{{Scheme: "https", Host: "example.com", Subdomains: true}, {Scheme: "http", Host: "localhost", Port: 3000}},
				[]Origin{{Scheme: "https", Host: "pay.example.com"}})},
		{"no local roots", `{"local_files":{"allowed_roots":[]}}`, withRoots(policyWith(true, false), []string{}...)},
		{"empty local files section", `{"local_files":{}}`, policyWith(true, false)},
		{"local roots", `{"local_files":{"allowed_roots":["/home/u/proj/coverage","/srv/docs/"]}}`,
			withRoots(policyWith(true, false), "/home/u/proj/coverage", "/srv/docs/")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatalf("Decode(%s) error = %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		key     string
		problem string // a substring of Problem
	}{
		{"empty file", ``, "", "the file is empty"},
		{"only whitespace", "  \n", "", "the file is empty"},
		{"top-level array", `[]`, "", "top level must be a JSON object, not an array"},
		{"top-level string", `"x"`, "", "top level must be a JSON object, not a string"},
		{"top-level null", `null`, "", "top level must be a JSON object, not null"},
		{"top-level number", `1`, "", "not a number"},
		{"unknown top-level key", `{"yolo":true}`, "yolo", `unknown policy key "yolo"`},
		{"unknown nested key", `{"audit":{"foo":1}}`, "audit.foo", `unknown policy key "audit.foo"`},
		{"unknown key after a good one", `{"audit":{"enabled":true,"path":"/x"}}`, "audit.path", `unknown policy key "audit.path"`},
		{"unknown origins key", `{"origins":{"allow":[]}}`, "origins.allow", `unknown policy key "origins.allow"`},
		{"origins as a list", `{"origins":[]}`, "origins", `policy key "origins" must be an object, not an array`},
		{"origin list as a string", `{"origins":{"allowed":"https://a.test"}}`, "origins.allowed", `policy key "origins.allowed" must be a list of origins (a JSON array of strings), not a string`},
		{"origin list as null", `{"origins":{"denied":null}}`, "origins.denied", `must be a list of origins (a JSON array of strings), not null`},
		{"origin entry as a number", `{"origins":{"denied":[1]}}`, "origins.denied", `policy key "origins.denied" must hold strings, not a number`},
		{"origin entry as a list", `{"origins":{"denied":[["https://a.test"]]}}`, "origins.denied", `must hold strings, not an array`},
		{"bad origin entry", `{"origins":{"allowed":["https://a.test","https://b.test/app"]}}`, "origins.allowed", `policy key "origins.allowed" entry 1 "https://b.test/app": an origin has no path`},
		{"bad denied entry", `{"origins":{"denied":["chrome://settings"]}}`, "origins.denied", `entry 0 "chrome://settings": scheme "chrome" cannot match`},
		{"duplicate origin list", `{"origins":{"denied":[],"denied":[]}}`, "origins.denied", `appears more than once`},
		{"unterminated origin list", `{"origins":{"denied":["https://a.test"`, "origins.denied", "ends too early"},
		{"flat origins key", `{"origins.allowed":[]}`, "origins.allowed", `write it as nested objects: {"origins":{"allowed":...}}`},
		{"local files as a list", `{"local_files":[]}`, "local_files", `policy key "local_files" must be an object, not an array`},
		{"unknown local files key", `{"local_files":{"roots":[]}}`, "local_files.roots", `unknown policy key "local_files.roots"`},
		{"local roots as a string", `{"local_files":{"allowed_roots":"/srv/docs"}}`, "local_files.allowed_roots", `policy key "local_files.allowed_roots" must be a list of absolute folder paths (a JSON array of strings), not a string`},
		{"local roots as null", `{"local_files":{"allowed_roots":null}}`, "local_files.allowed_roots", `not null`},
		{"local root as a number", `{"local_files":{"allowed_roots":[1]}}`, "local_files.allowed_roots", `must hold strings, not a number`},
		{"local root as an object", `{"local_files":{"allowed_roots":[{}]}}`, "local_files.allowed_roots", `must hold strings, not an object`},
		{"relative local root", `{"local_files":{"allowed_roots":["/srv/docs","docs"]}}`, "local_files.allowed_roots", `entry 1 "docs": it is not an absolute path`},
		{"empty local root", `{"local_files":{"allowed_roots":[""]}}`, "local_files.allowed_roots", `entry 0 "": it is not an absolute path`},
		{"local root with a NUL", `{"local_files":{"allowed_roots":["/srv/\u0000x"]}}`, "local_files.allowed_roots", `entry 0`},
		{"local root as a file URL", `{"local_files":{"allowed_roots":["file:///srv/docs"]}}`, "local_files.allowed_roots", `not an absolute path`},
		{"too many local roots", `{"local_files":{"allowed_roots":[` + strings.Repeat(`"/a",`, 100) + `"/a"]}}`, "local_files.allowed_roots", "holds more than 100 entries"},
		{"duplicate local roots key", `{"local_files":{"allowed_roots":[],"allowed_roots":[]}}`, "local_files.allowed_roots", `appears more than once`},
		{"unterminated local roots", `{"local_files":{"allowed_roots":["/srv"`, "local_files.allowed_roots", "ends too early"},
		{"flat local roots key", `{"local_files.allowed_roots":[]}`, "local_files.allowed_roots", `write it as nested objects: {"local_files":{"allowed_roots":...}}`},
		{"flat dotted key", `{"audit.enabled":false}`, "audit.enabled", `write it as nested objects: {"audit":{"enabled":...}}`},
		{"key differs in case", `{"Audit":{"enabled":false}}`, "Audit", `unknown policy key "Audit"`},
		{"bool as string", `{"audit":{"enabled":"false"}}`, "audit.enabled", `policy key "audit.enabled" must be a boolean, not a string`},
		{"bool as number", `{"audit":{"enabled":0}}`, "audit.enabled", `must be a boolean, not a number`},
		{"bool as huge number", `{"audit":{"enabled":1e999}}`, "audit.enabled", `must be a boolean, not a number`},
		{"max_candidates over 3", `{"one_password":{"max_candidates":4}}`, "one_password.max_candidates", `policy key "one_password.max_candidates" must be a whole number from 1 to 3, not a number`},
		{"max_attempts zero", `{"one_password":{"max_attempts":0}}`, "one_password.max_attempts", `must be a whole number from 1 to 3`},
		{"max_attempts fractional", `{"one_password":{"max_attempts":1.5}}`, "one_password.max_attempts", `must be a whole number from 1 to 3`},
		{"executable relative", `{"one_password":{"executable":"bin/op"}}`, "one_password.executable", `must be an absolute path`},
		{"executable not a string", `{"one_password":{"executable":7}}`, "one_password.executable", `must be a string, not a number`},
		{"upload max_bytes zero", `{"uploads":{"max_bytes":0}}`, "uploads.max_bytes", `must be a whole number from 1 to 1073741824`},
		{"upload roots relative", `{"uploads":{"dlp_allowed_roots":["docs"]}}`, "uploads.dlp_allowed_roots", `absolute`},
		{"bool as null", `{"developer_mode":{"enabled":null}}`, "developer_mode.enabled", `policy key "developer_mode.enabled" must be a boolean, not null`},
		{"bool as object", `{"audit":{"enabled":{}}}`, "audit.enabled", `must be a boolean, not an object`},
		{"section as bool", `{"audit":false}`, "audit", `policy key "audit" must be an object, not a boolean`},
		{"section as null", `{"audit":null}`, "audit", `must be an object, not null`},
		{"section as array", `{"developer_mode":[]}`, "developer_mode", `must be an object, not an array`},
		{"duplicate top-level key", `{"audit":{},"audit":{}}`, "audit", `policy key "audit" appears more than once`},
		{"duplicate nested key", `{"audit":{"enabled":true,"enabled":false}}`, "audit.enabled", `policy key "audit.enabled" appears more than once`},
		{"trailing object", `{}{}`, "", "unexpected an object after the policy object"},
		{"trailing garbage", `{} x`, "", "invalid JSON"},
		{"trailing comma", `{"audit":{"enabled":true},}`, "", "invalid JSON"},
		{"truncated", `{"audit":{"enabled":true}`, "", "ends too early"},
		{"syntax error inside a section", `{"audit":{"enabled":tru}}`, "audit.enabled", "invalid JSON"},
		{"comment", `{} // note`, "", "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode([]byte(tt.in))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Decode(%s) = %+v, %v; want *Error", tt.in, p, err)
			}
			if pe.Key != tt.key {
				t.Errorf("Key = %q, want %q (problem %q)", pe.Key, tt.key, pe.Problem)
			}
			if !strings.Contains(pe.Problem, tt.problem) {
				t.Errorf("Problem = %q, want it to contain %q", pe.Problem, tt.problem)
			}
			if diff := cmp.Diff(Policy{}, p); diff != "" {
				t.Errorf("a refused decode returned a policy (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeNeverEchoesValues keeps string values out of errors: the user
// may have pasted something private into the wrong key.
func TestDecodeNeverEchoesValues(t *testing.T) {
	_, err := Decode([]byte(`{"audit":{"enabled":"secret-value-xyz"}}`))
	if err == nil || strings.Contains(err.Error(), "secret-value-xyz") {
		t.Errorf("Decode() error = %v; want a refusal without the value", err)
	}
}

func TestErrorString(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		{Error{Key: "audit.foo", Problem: `unknown policy key "audit.foo"`}, `policy: unknown policy key "audit.foo"`},
		{Error{Path: "/s/policy.json", Key: "audit.foo", Problem: `unknown policy key "audit.foo"`},
			`policy file /s/policy.json: unknown policy key "audit.foo"; AgentTab refuses to start until it is fixed`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
