package mcpserver

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"

	"github.com/agenttab/agenttab/protocol"
)

// maxAgentKey bounds an agent's own idempotency key, in bytes of UTF-8;
// exampleAgentKey is the key the descriptions and recovery texts show.
const (
	maxAgentKey     = 128
	exampleAgentKey = "step-3"
)

// agentKeys turns an agent's own idempotency keys into the UUIDv7s Core
// requires (spec 000: "Mutations use UUIDv7 idempotency keys"; issue 10:
// agents cannot be expected to write UUIDv7s). An agent passes any short
// key; the adapter sends, for it, a UUIDv7 of its task, the same one every
// time, so the agent's retry replays the first call's record in the host.
//
// The mapping is derived rather than listed: each task gets a seed (32
// random bytes and the time it was made), and a key's UUIDv7 is that time
// in the 48-bit timestamp and HMAC-SHA256(secret, key) in the 74 random
// bits (RFC 9562 §5.7; the HMAC is as unguessable as fresh random bits).
// So:
//   - the durable state is one small file per task, written once (before
//     the task's first keyed call goes out), not a table of keys: there is
//     no bound to choose and no old entry to prune, and a retry never
//     silently runs again because its entry was pruned;
//   - the agent's key is written nowhere, not even here: only the UUIDv7
//     reaches Core, the audit and state.db (unless the key is one, below);
//   - tasks never share a mapping: the seed is dropped with the task's
//     capability (finished, or not resumed), and the next task makes its
//     own, so the same agent key names a different UUIDv7 there.
//
// An agent's key that is already what Core takes (protocol.IsUUIDv7) is
// sent as it is: an agent, or a test, that makes its own UUIDv7s can then
// find its calls in the host's records, and a UUID is no secret. It cannot
// name another task's record (the host scopes keys to the task), and it
// meets a derived UUIDv7 of another key with the odds of two random ones.
// The seed lives beside the capability file
// (STATE/adapters/…keys), claimed with it, so a restarted `agenttab mcp`
// that resumes the task maps keys as its predecessor did; without a
// capability file (an HTTP session, which cannot outlive its process) it
// lives in memory.
type agentKeys struct {
	// path is the seed's file; "" keeps it in memory only.
	path string

	mu   sync.Mutex
	seed *keySeed
}

// keySeed is one task's mapping, as its file holds it.
type keySeed struct {
	Secret []byte `json:"secret"` // 32 bytes; base64 in the file
	UnixMs int64  `json:"unix_ms"`
}

// keysFileFor names the seed's file beside the capability file, so that
// the adapter's claim on one (statedir.ClaimAdapterFile) covers both.
func keysFileFor(capabilityPath string) string {
	return strings.TrimSuffix(capabilityPath, ".capability") + ".keys"
}

// load reads the seed an earlier run of this adapter left. taskKept says
// whether that run left a capability too: a seed without one belongs to
// a task no one can resume, so it is removed instead.
func (k *agentKeys) load(taskKept bool) error {
	if k.path == "" {
		return nil
	}
	if !taskKept {
		return removeIfThere(k.path)
	}
	b, err := readPrivate(k.path)
	if err != nil || b == nil {
		return err
	}
	var s keySeed
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil || len(s.Secret) != 32 || s.UnixMs < 0 || s.UnixMs >= 1<<48 {
		return fmt.Errorf("%s is not a key seed AgentTab wrote; remove it (retries of this task's earlier calls then run again)", k.path)
	}
	k.mu.Lock()
	k.seed = &s
	k.mu.Unlock()
	return nil
}

// coreKey is the idempotency key to send for the agent's key: a fresh
// UUIDv7 when the agent gave none (DESIGN.md "Idempotency": adapters make
// one), the key itself when it is a UUIDv7 already, else the task's
// UUIDv7 for it.
func (k *agentKeys) coreKey(agentKey string) (string, *protocol.Error) {
	if agentKey == "" {
		return uuid.Must(uuid.NewV7()).String(), nil
	}
	if protocol.IsUUIDv7(agentKey) {
		return agentKey, nil
	}
	if perr := checkAgentKey(agentKey); perr != nil {
		return "", perr
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seed == nil {
		s, err := newSeed(time.Now())
		if err == nil && k.path != "" {
			var b []byte
			if b, err = json.Marshal(s); err == nil {
				err = writeDurably(k.path, append(b, '\n'))
			}
		}
		if err != nil {
			return "", protocol.NewError(protocol.CodeInternal, protocol.OutcomeNotStarted,
				"the adapter could not keep its record of idempotency keys: "+err.Error(),
				"Retry the call; if this repeats, omit idempotency_key (a retry may then run the call again).")
		}
		k.seed = s
	}
	return k.seed.uuidFor(agentKey), nil
}

// forget drops the task's seed once the task is over.
func (k *agentKeys) forget() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.seed = nil
	if k.path != "" {
		_ = removeIfThere(k.path)
	}
}

func newSeed(now time.Time) (*keySeed, error) {
	s := &keySeed{Secret: make([]byte, 32), UnixMs: now.UnixMilli()}
	if _, err := rand.Read(s.Secret); err != nil {
		return nil, err
	}
	return s, nil
}

// uuidFor is the UUIDv7 of agentKey in the seed's task (RFC 9562 §5.7:
// unix_ts_ms, ver, rand_a, var, rand_b).
func (s *keySeed) uuidFor(agentKey string) string {
	mac := hmac.New(sha256.New, s.Secret)
	mac.Write([]byte(agentKey))
	sum := mac.Sum(nil)
	var id uuid.UUID
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], uint64(s.UnixMs))
	copy(id[:6], ts[2:])
	copy(id[6:], sum[:10])
	id[6] = 0x70 | id[6]&0x0f // version 7
	id[8] = 0x80 | id[8]&0x3f // variant 10 (RFC 9562)
	return id.String()
}

// checkAgentKey refuses a key no agent means: too long, or holding control
// characters (a newline, a NUL, an escape) that would only confuse the
// agent's own logs and transcripts.
func checkAgentKey(key string) *protocol.Error {
	bad := len(key) > maxAgentKey
	for _, r := range key {
		bad = bad || unicode.IsControl(r)
	}
	if !bad {
		return nil
	}
	return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
		fmt.Sprintf("idempotency_key must be at most %d bytes with no control characters (got %d bytes)", maxAgentKey, len(key)),
		fmt.Sprintf("Pass a short key of your own, such as %q, and repeat it only to retry the same call; or omit idempotency_key.", exampleAgentKey))
}

// describeKey gives a mutating tool's idempotency_key its description, one
// text for every tool, derived from the rules above. instead says what a
// replay spares (for browser_open, "opening a second tab"); reduced says
// what the recorded answer lacks, if anything.
func describeKey(s *jsonschema.Schema, instead, reduced string) *jsonschema.Schema {
	prop, ok := s.Properties["idempotency_key"]
	if !ok {
		panic("describeKey: no idempotency_key property")
	}
	replay := "(replay: true)"
	if reduced != "" {
		replay = "(replay: true; AgentTab keeps no page data, so " + reduced + ")"
	}
	prop.Description = fmt.Sprintf("Optional: a key of your own for this call, at most %d bytes with no control characters (for example %q). "+
		"To retry a call whose answer you did not get, repeat it with the same key and the same arguments: once the first call completed, the retry answers its recorded result %s instead of %s. "+
		"The same key with other arguments fails idempotency_key_conflict; a call that started and never reported back fails idempotency_key_in_progress. Keys belong to this task.",
		maxAgentKey, exampleAgentKey, replay, instead)
	return s
}

func removeIfThere(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
