package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/protocol"
)

// manifestFile is the host manifest's file name; Chrome finds it by the host
// name the extension passes to connectNative.
const manifestFile = protocol.NativeHostName + ".json"

// hostManifest is Chrome's native-messaging host manifest
// (https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host).
// Field order is the documented order, so the file reads like the docs.
type hostManifest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	Type        string `json:"type"`
	// AllowedOrigins holds exactly one exact origin. Chrome does not accept
	// wildcards here, and admitting any other extension would hand it the
	// user's browser.
	AllowedOrigins []string `json:"allowed_origins"`
}

func manifestJSON(hostPath string) []byte {
	m := hostManifest{
		Name:           protocol.NativeHostName,
		Description:    "AgentTab host",
		Path:           hostPath,
		Type:           "stdio",
		AllowedOrigins: []string{extension.Origin},
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // strings and a string slice always marshal
	}
	return append(b, '\n')
}

// isOurManifest reports whether data is a host manifest for our host, so
// Uninstall never deletes a file someone else put under our name.
func isOurManifest(data []byte) bool {
	var m hostManifest
	return json.Unmarshal(data, &m) == nil && m.Name == protocol.NativeHostName
}

// removeOurManifest removes path if it is a host manifest for our host; a
// missing file is not an error.
func removeOurManifest(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !isOurManifest(data) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	return true, nil
}
