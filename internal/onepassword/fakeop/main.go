// Command fakeop is a stand-in for the 1Password CLI in tests: it mirrors
// op 2.x (the `op item` commands as developer.1password.com/docs/cli/
// reference/management-commands/item documents them for CLI 2.x, and the
// JSON, stderr lines and exit codes the 2.x CLI prints, as public
// projects' recorded fixtures show them) for exactly the commands the
// broker (internal/onepassword) runs:
//
//	op --version
//	op item list --categories Login --format json
//	op item get <id> [--vault <vault>] --format json
//
// Its vault is a JSON array of items in `op item get --format json` form,
// read from the file $AGENTTAB_FAKE_OP_VAULT or else vault.json beside the
// executable. Its mode ($AGENTTAB_FAKE_OP_MODE, or else the file mode
// beside the executable; read at every call, so a test can change it
// between calls) is one of:
//
//	""            signed in: answers from the vault
//	signed_out    "You are not currently signed in…", exit 1
//	dismissed     "authorization prompt dismissed, please try again", exit 1
//	hang          waits (a desktop-app authorization nobody gives), with a
//	              child process in its group, until it is killed
//	provider_error a network failure, exit 1
//	stderr_helper signed in, but leaves behind a helper holding stderr
//	              open for 3 s after op exits 0 (as a desktop-app bridge
//	              may)
//
// Every call's arguments (item ids, never values) are appended to
// calls.log beside the executable. It never prints a value but the one
// `item get` asks for, as op does.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	dir := ownDir()
	args := os.Args[1:]
	appendLine(filepath.Join(dir, "calls.log"), strings.Join(args, " "))
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println("2.30.3")
		return
	}
	switch mode(dir) {
	case "signed_out":
		fail("You are not currently signed in. Please run `op signin --help` for instructions")
	case "dismissed":
		fail("error initializing client: authorization prompt dismissed, please try again")
	case "provider_error":
		fail(`Get "https://my.1password.com/api/v2/account/keysets": dial tcp: lookup my.1password.com: no such host`)
	case "hang":
		// A child in the same process group: a timeout must end both.
		child := exec.Command("sleep", "600")
		child.Start()
		time.Sleep(10 * time.Minute)
		return
	case "stderr_helper":
		helper := exec.Command("sleep", "3")
		helper.Stderr = os.Stderr
		helper.Start()
	}
	items := vault(dir)
	if len(args) >= 2 && args[0] == "item" && args[1] == "list" {
		list(items, args[2:])
		return
	}
	if len(args) >= 3 && args[0] == "item" && args[1] == "get" {
		get(items, args[2], args[3:])
		return
	}
	fail(fmt.Sprintf("unknown command %q for \"op\"", strings.Join(args, " ")))
}

// item is one vault item in `op item get --format json` form: what `op
// item list` shows of it, then its sections and fields.
type item struct {
	listed
	Sections []section `json:"sections,omitempty"`
	Fields   []field   `json:"fields,omitempty"`
}

type vaultRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type section struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

type field struct {
	ID        string   `json:"id"`
	Section   *section `json:"section,omitempty"`
	Type      string   `json:"type"`
	Purpose   string   `json:"purpose,omitempty"`
	Label     string   `json:"label"`
	Value     string   `json:"value,omitempty"`
	TOTP      string   `json:"totp,omitempty"`
	Reference string   `json:"reference"`
}

type urlEntry struct {
	Label   string `json:"label,omitempty"`
	Primary bool   `json:"primary,omitempty"`
	Href    string `json:"href"`
}

// listed is one element of `op item list --format json`.
type listed struct {
	ID             string     `json:"id"`
	Title          string     `json:"title"`
	Version        int        `json:"version"`
	Vault          vaultRef   `json:"vault"`
	Category       string     `json:"category"`
	LastEditedBy   string     `json:"last_edited_by"`
	CreatedAt      string     `json:"created_at"`
	UpdatedAt      string     `json:"updated_at"`
	AdditionalInfo string     `json:"additional_information,omitempty"`
	URLs           []urlEntry `json:"urls,omitempty"`
}

func list(items []item, args []string) {
	var categories []string
	format := ""
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--categories" && i+1 < len(args):
			i++
			categories = strings.Split(strings.ToUpper(args[i]), ",")
		case strings.HasPrefix(args[i], "--categories="):
			categories = strings.Split(strings.ToUpper(strings.TrimPrefix(args[i], "--categories=")), ",")
		case args[i] == "--format" && i+1 < len(args):
			i++
			format = args[i]
		case args[i] == "--format=json":
			format = "json"
		default:
			fail(fmt.Sprintf("unknown flag: %s", args[i]))
		}
	}
	if format != "json" {
		fail("the fake op answers --format json only")
	}
	out := []listed{}
	for _, it := range items {
		if len(categories) > 0 && !contains(categories, it.Category) {
			continue
		}
		out = append(out, it.listed)
	}
	printJSON(out)
}

func get(items []item, id string, args []string) {
	vault, format := "", ""
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--vault" && i+1 < len(args):
			i++
			vault = args[i]
		case args[i] == "--format" && i+1 < len(args):
			i++
			format = args[i]
		case args[i] == "--format=json":
			format = "json"
		default:
			fail(fmt.Sprintf("unknown flag: %s", args[i]))
		}
	}
	for _, it := range items {
		if it.ID != id || (vault != "" && vault != it.Vault.ID && vault != it.Vault.Name) {
			continue
		}
		if format != "json" {
			fail("the fake op answers --format json only")
		}
		printJSON(it)
		return
	}
	if vault != "" {
		fail(fmt.Sprintf("%q isn't an item in the %q vault. Specify the item with its UUID, name, or domain.", id, vault))
	}
	fail(fmt.Sprintf("%q isn't an item. Specify the item with its UUID, name, or domain.", id))
}

// fail prints an error as op 2.x does ("[ERROR] <date> <time> <message>"
// on stderr) and exits 1.
func fail(msg string) {
	fmt.Fprintf(os.Stderr, "[ERROR] %s %s\n", time.Now().Format("2006/01/02 15:04:05"), msg)
	os.Exit(1)
}

func printJSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fail(err.Error())
	}
	os.Stdout.Write(append(b, '\n'))
}

func ownDir() string {
	exe, err := os.Executable()
	if err != nil {
		fail(err.Error())
	}
	return filepath.Dir(exe)
}

func mode(dir string) string {
	if m, ok := os.LookupEnv("AGENTTAB_FAKE_OP_MODE"); ok {
		return m
	}
	b, _ := os.ReadFile(filepath.Join(dir, "mode"))
	return strings.TrimSpace(string(b))
}

func vault(dir string) []item {
	path := os.Getenv("AGENTTAB_FAKE_OP_VAULT")
	if path == "" {
		path = filepath.Join(dir, "vault.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil // an account without items
	}
	var items []item
	if err := json.Unmarshal(b, &items); err != nil {
		fail("the fake vault is not a JSON array of items: " + err.Error())
	}
	return items
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(line + "\n")
}
