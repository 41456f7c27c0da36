package harness

import (
	"encoding/json"
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
