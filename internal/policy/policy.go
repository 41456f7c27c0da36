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
	// OnePassword is the 1Password broker of browser_credentials (spec
	// 000: available unless one_password.enabled is false).
	OnePassword struct {
		Enabled bool `json:"enabled"`
		// Executable is the absolute path of the op CLI; empty means op
		// from the host's PATH.
		Executable string `json:"executable,omitempty"`
		// MaxCandidates and MaxAttempts are each 1..3 (spec 000).
		MaxCandidates int `json:"max_candidates"`
		MaxAttempts   int `json:"max_attempts"`
	} `json:"one_password"`
	// Uploads admits upload_file steps: only regular files below one of
	// DLPAllowedRoots and at most MaxBytes (spec 000, issue 13); without
	// roots every upload is refused.
	Uploads struct {
		DLPAllowedRoots []string `json:"dlp_allowed_roots,omitempty"`
		MaxBytes        int64    `json:"max_bytes"`
	} `json:"uploads"`
}

// Bounds of the broker's and the uploads' numbers (spec 000 for the broker).
const (
	MinOnePasswordLimit     = 1
	MaxOnePasswordLimit     = 3
	DefaultOnePasswordLimit = 3
	// DefaultUploadMaxBytes and MaxUploadMaxBytes bound one upload's file.
	DefaultUploadMaxBytes = 25 << 20
	MaxUploadMaxBytes     = 1 << 30
)

// Default returns the policy that applies without a policy.json.
func Default() Policy {
	var p Policy
	p.Audit.Enabled = true
	p.DeveloperMode.Enabled = false
	p.OnePassword.Enabled = true
	p.OnePassword.MaxCandidates = DefaultOnePasswordLimit
	p.OnePassword.MaxAttempts = DefaultOnePasswordLimit
	p.Uploads.MaxBytes = DefaultUploadMaxBytes
	return p
}
