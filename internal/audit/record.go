package audit

import (
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Record kinds.
const (
	// KindRequest is one Core RPC request and its answer.
	KindRequest = "request"
	// KindEvent is a human or security event ("event.pause",
	// "event.approval", "event.yolo", "event.peer_refused", …) written with
	// the same schema so one reader handles both.
	KindEvent = "event"
)

// Record is one line of audit.jsonl. It carries structure, never values:
// ArgsSummary and ResultSummary come from Summarize, ArgsDigest from Digest,
// TargetOrigins from Origins.
type Record struct {
	// TS is when the request arrived; TSEnd when its answer left. Write
	// stores both in UTC.
	TS    time.Time `json:"ts"`
	TSEnd time.Time `json:"ts_end"`
	Kind  string    `json:"kind"`

	ConnectionID string `json:"connection_id"`
	TaskID       string `json:"task_id,omitempty"`
	// RequestID is the JSON-RPC id in string form (see RequestID).
	RequestID string `json:"request_id"`
	// Method is the Core RPC method, or the event name for events.
	Method string `json:"method"`
	// Operation names a browser_profile call's operation (spec 000: the
	// record names it; every other argument is redacted, RedactProfile).
	Operation string           `json:"operation,omitempty"`
	Outcome   protocol.Outcome `json:"outcome"`
	// DurationMS is derived by Write from TS and TSEnd, so the two can
	// never disagree.
	DurationMS float64 `json:"duration_ms"`
	// Replay is true when an idempotency record answered the request.
	Replay bool `json:"replay"`
	// TargetOrigins is never null in the file: an empty list says "no
	// target" explicitly.
	TargetOrigins []string `json:"target_origins"`

	ArgsSummary   any    `json:"args_summary"`
	ArgsDigest    string `json:"args_digest"`
	ResultSummary any    `json:"result_summary,omitempty"`
	// Challenge is the fixed summary of the result's bot-challenge member,
	// when it carries one (challenge.go).
	Challenge *ChallengeSummary  `json:"challenge,omitempty"`
	ErrorCode protocol.ErrorCode `json:"error_code,omitempty"`
	Recovery  string             `json:"recovery,omitempty"`
	// Count is how many events an event record stands for. The host
	// writes a burst of refused connections of one code as one record a
	// second (issue 9: a connect loop must not grow the file without
	// bound); TS is the first of them and TSEnd the last. Omitted on
	// records that stand for one request.
	Count int `json:"count,omitempty"`
}
