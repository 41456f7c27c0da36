package policy

import "fmt"

// Error is a refused policy file. The host refuses to start on it and shows
// Error() to the user, so it names the file, the key and what to do.
type Error struct {
	// Path is the policy file, "" when the bytes did not come from a file.
	Path string
	// Key is the dotted key at fault ("audit.enabled"), "" for a problem
	// with the file as a whole.
	Key string
	// Problem is the complete description, key included.
	Problem string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "policy: " + e.Problem
	}
	return fmt.Sprintf("policy file %s: %s; AgentTab refuses to start until it is fixed", e.Path, e.Problem)
}
