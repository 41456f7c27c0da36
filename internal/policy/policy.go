package policy

// Policy is the decoded policy.json. Every field has a default that applies
// when the file or the key is absent (DESIGN.md "Policy file").
type Policy struct {
	Audit struct {
		// Enabled turns audit.jsonl on; only this file can turn it off
		// (spec 000: "Audit can be disabled only through the local managed
		// policy").
		Enabled bool `json:"enabled"`
	} `json:"audit"`
	DeveloperMode struct {
		// Enabled exposes browser_developer, a broader trust decision that
		// is off unless the user opts in (spec 000).
		Enabled bool `json:"enabled"`
	} `json:"developer_mode"`
	// Origins limits where agents may navigate; empty lists constrain
	// nothing (spec 000 "managed origin policy").
	Origins Origins `json:"origins"`
	// LocalFiles admits local files (file: pages) under folders the user
	// names; none without it (issue 9). The host resolves the folders at
	// start and decides every file: URL (internal/host/localfiles.go).
	LocalFiles struct {
		// AllowedRoots are absolute folder paths as the user wrote them.
		AllowedRoots []string `json:"allowed_roots,omitempty"`
	} `json:"local_files"`
}

// Default returns the policy that applies without a policy.json.
func Default() Policy {
	var p Policy
	p.Audit.Enabled = true
	p.DeveloperMode.Enabled = false
	return p
}
