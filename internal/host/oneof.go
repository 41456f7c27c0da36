package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agenttab/agenttab/protocol"
)

// oneOf refuses a value that is not in list, the protocol's one list of
// the field's values (protocol/doc.go "Value lists"), with invalid_params
// naming the field and listing the values: the message is built from the
// list, so it can never name a value the host no longer takes or omit a
// new one.
func oneOf[T ~string](field string, v T, list []T) *protocol.Error {
	if slices.Contains(list, v) {
		return nil
	}
	return protocol.Fail(protocol.CodeInvalidParams, fmt.Sprintf("%s must be %s, not %s", field, quotedList(list), quotedShort(string(v))))
}

// optionalOneOf is oneOf for a field with a default: absent ("") it
// becomes def.
func optionalOneOf[T ~string](field string, v *T, def T, list []T) *protocol.Error {
	if *v == "" {
		*v = def
		return nil
	}
	perr := oneOf(field, *v, list)
	if perr != nil {
		perr.Recovery = fmt.Sprintf("Omit %s for %q, or pass one of the values listed.", field, def)
	}
	return perr
}

// quotedList writes values as `"a", "b" or "c"`.
func quotedList[T ~string](values []T) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(string(v))
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// quotedShort quotes a refused value, cut to a length a message can carry
// (the agent sent it, and it may be long).
func quotedShort(v string) string {
	const shown = 40
	if len(v) > shown {
		return strconv.Quote(v[:shown]) + "…"
	}
	return strconv.Quote(v)
}
