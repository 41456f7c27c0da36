package protocol

// browser_credentials: the 1Password broker (issue 13; spec 000's broker
// paragraphs). The host finds Login items whose URLs match the tab's
// origin (read from the host's verified task-tab inventory, never from the
// agent or the page), hands out opaque one-use tokens bound to task, tab,
// origin, candidate position, attempt and the page revision, and sends a
// selected value only over the private host→extension NativeCredentialFill
// message; the extension writes it into the field. Core, MCP and the audit
// carry counts, booleans, attempt counters and tokens only.

// MethodCredentials is browser_credentials's Core method.
const MethodCredentials = "browser_credentials"

// NativeCredentialFill writes one credential value into a field of an
// owned tab (host→extension; its params hold the value: never logged).
const NativeCredentialFill = "credential_fill"

// CredentialAction is what a browser_credentials call does.
type CredentialAction string

const (
	// CredentialPrepare finds the Login items for the tab's origin and
	// prepares the first candidate's first attempt.
	CredentialPrepare CredentialAction = "prepare"
	// CredentialFill writes the prepared candidate's field into a ref.
	CredentialFill CredentialAction = "fill"
	// CredentialAdvance moves to the next candidate, or the next attempt.
	CredentialAdvance CredentialAction = "advance"
)

// CredentialActions lists every CredentialAction.
var CredentialActions = []CredentialAction{CredentialPrepare, CredentialFill, CredentialAdvance}

// CredentialField is the one part of a Login item a fill writes.
type CredentialField string

const (
	CredentialUsername CredentialField = "username"
	CredentialPassword CredentialField = "password"
	// CredentialOTP is the item's current one-time code.
	CredentialOTP CredentialField = "one_time_code"
)

// CredentialFields lists every CredentialField.
var CredentialFields = []CredentialField{CredentialUsername, CredentialPassword, CredentialOTP}

// CredentialTokenTTLMs is a token's life (spec 000: five minutes).
const CredentialTokenTTLMs = 5 * 60 * 1000

// CredentialsParams are browser_credentials's arguments: prepare needs
// Tab; fill needs Token, Ref and Field; advance needs Token.
type CredentialsParams struct {
	Action         CredentialAction `json:"action"`
	Tab            string           `json:"tab,omitempty"`
	Token          string           `json:"token,omitempty"`
	Ref            string           `json:"ref,omitempty"`
	Field          CredentialField  `json:"field,omitempty"`
	IdempotencyKey string           `json:"idempotency_key,omitempty"`
}

// CredentialsResult: counts, booleans, attempt counters and a token; never
// a value, an item's title or id, or a URL.
type CredentialsResult struct {
	Action CredentialAction `json:"action"`
	// Candidates is how many Login items match the tab's origin.
	Candidates int `json:"candidates"`
	// Candidate is the prepared candidate's position (1-based).
	Candidate int `json:"candidate"`
	// Attempt and MaxAttempts count attempts of the whole login.
	Attempt     int `json:"attempt"`
	MaxAttempts int `json:"max_attempts"`
	// Has says which fields the prepared candidate holds.
	HasUsername bool `json:"has_username"`
	HasPassword bool `json:"has_password"`
	HasOTP      bool `json:"has_one_time_code"`
	// Filled is set by fill when the extension wrote the value.
	Filled bool `json:"filled,omitempty"`
	// Token is the next one-use token (prepare, fill, advance all answer one).
	Token       string  `json:"token"`
	ExpiresInMs int64   `json:"expires_in_ms"`
	Outcome     Outcome `json:"outcome"`
	Replay      bool    `json:"replay,omitempty"`
}

// ExtCredentialFillParams carry one value to the extension. The extension
// checks that the tab is still owned by the task, still at the revision
// and origin the token was made for, and that ref is a field fit for the
// value (a password field for a password, a text or email field for a
// username, a one-time-code field for a code); it writes the value as
// input events and never stores or logs it.
type ExtCredentialFillParams struct {
	TaskID               string          `json:"task_id"`
	TabID                int             `json:"tab_id"`
	ExpectedPageRevision int64           `json:"expected_page_revision"`
	Origin               string          `json:"origin"`
	Ref                  string          `json:"ref"`
	Field                CredentialField `json:"field"`
	Value                string          `json:"value"`
}

// ExtCredentialFillResult says the value went in (never what it was).
type ExtCredentialFillResult struct {
	Filled bool `json:"filled"`
}

// Credential error codes.
const (
	// CodeCredentialTokenInvalid: the token is unknown, used, expired,
	// another task's, or its tab navigated since it was made.
	CodeCredentialTokenInvalid ErrorCode = "credential_token_invalid"
	// CodeOnePasswordDisabled: policy.json turned the broker off.
	CodeOnePasswordDisabled ErrorCode = "one_password_disabled"
	// CodeCredentialFieldUnfit: the ref is not a field for that value.
	CodeCredentialFieldUnfit ErrorCode = "credential_field_unfit"
)
