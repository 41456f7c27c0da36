package host

import (
	"bytes"
	"encoding/json"

	"github.com/agenttab/agenttab/internal/audit"
)

// replayRecord is the JSON the host keeps for a completed idempotency key,
// and so what every replay of the key answers: the first answer (a result
// or an error) with its identifiers and state (handles, page revisions,
// outcomes, step receipts, error codes), but not the page data a replay
// does not need, which state.db and its WAL would otherwise hold for good
// (issue 9):
//   - every URL in every string is cut to its origin with audit.ReduceURLs,
//     as audit.jsonl keeps it: no user info, path, query or fragment;
//   - page titles are left empty: observed in Chromium 156, a page without
//     a <title> is titled with its URL, query included;
//   - the snapshot an act took after its batch is left out: page text is
//     kept in memory only (ARCHITECTURE.md "Text windows are cut by the
//     host").
//   - browser_developer's result is left out: it is whatever the agent
//     evaluated or asked DevTools for (document.cookie, a filled
//     password's value), up to protocol.MaxDeveloperResult; a replay
//     answers that the call ran, with its outcome, as for snapshots.
//   - a browser_credentials token is left empty: tokens live in host
//     memory only (credtokens.go), so a replayed fill or advance answers
//     without one and the agent prepares again.
//
// The keys are the wire names of protocol's results, so a result added
// later is covered without a list to keep in step.
func replayRecord(answer any) ([]byte, error) {
	raw, err := json.Marshal(answer)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep numbers as they were written
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(withoutPageData(v)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

func withoutPageData(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch k {
			case "snapshot", "result":
				delete(v, k)
			case "title", "token":
				v[k] = ""
			default:
				v[k] = withoutPageData(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = withoutPageData(e)
		}
	case string:
		return audit.ReduceURLs(v)
	}
	return v
}
