package onepassword

import (
	"context"
	"encoding/json"

	"github.com/agenttab/agenttab/protocol"
)

// The JSON shapes of op 2.x (developer.1password.com/docs/cli/reference,
// `op item list` and `op item get` with --format json). Only what the
// broker reads is declared: titles, notes, tags and additional_information
// are never decoded, so they never leave op's output buffer.

// listedItem is one element of `op item list --categories Login --format json`.
type listedItem struct {
	ID       string    `json:"id"`
	Category string    `json:"category"`
	Vault    vaultRef  `json:"vault"`
	URLs     []itemURL `json:"urls"`
}

type vaultRef struct {
	ID string `json:"id"`
}

// itemURL is one of an item's websites ({"label","primary","href"}).
type itemURL struct {
	Href string `json:"href"`
}

// fullItem is `op item get <id> --format json`.
type fullItem struct {
	ID       string      `json:"id"`
	Category string      `json:"category"`
	URLs     []itemURL   `json:"urls"`
	Fields   []itemField `json:"fields"`
}

// itemField is one field: a Login's username has purpose USERNAME, its
// password purpose PASSWORD (type CONCEALED); a one-time password has
// type OTP, its otpauth:// URI as value and the current code as totp.
// Value and TOTP stay raw JSON so that they can be wiped.
type itemField struct {
	Type    string          `json:"type"`
	Purpose string          `json:"purpose"`
	Value   json.RawMessage `json:"value"`
	TOTP    json.RawMessage `json:"totp"`
}

// categoryLogin is op's category of a Login item.
const categoryLogin = "LOGIN"

// Login is a Login item as the broker keeps it: its id and vault (host
// memory only, never in a result) and its URLs.
type Login struct {
	ID    string
	Vault string
	URLs  []string
}

// Logins lists the account's Login items.
func (c Client) Logins(ctx context.Context) ([]Login, error) {
	out, err := c.run(ctx, "item", "list", "--categories", "Login", "--format", "json")
	if err != nil {
		return nil, err
	}
	defer Wipe(out)
	var items []listedItem
	if err := json.Unmarshal(out, &items); err != nil {
		return nil, &Error{Kind: KindProvider, detail: "the 1Password CLI answered something other than its item list"}
	}
	logins := []Login{}
	for _, it := range items {
		// --categories Login already filters; the category is checked
		// again so that nothing but a Login item can ever be a candidate.
		if it.Category != categoryLogin || it.ID == "" {
			continue
		}
		l := Login{ID: it.ID, Vault: it.Vault.ID}
		for _, u := range it.URLs {
			l.URLs = append(l.URLs, u.Href)
		}
		logins = append(logins, l)
	}
	return logins, nil
}

// Has says which of the broker's fields an item holds.
type Has struct {
	Username, Password, OTP bool
}

// Get reads one Login item and returns which fields it has and, when
// want is not empty, that field's value (the caller wipes it). The item
// must still be a Login item whose URLs match origin: an item edited
// since it was listed is checked again.
func (c Client) Get(ctx context.Context, l Login, origin Origin, want protocol.CredentialField) (Has, []byte, error) {
	args := []string{"item", "get", l.ID, "--format", "json"}
	if l.Vault != "" {
		// Service accounts need the vault; it also pins the item.
		args = append(args, "--vault", l.Vault)
	}
	out, err := c.run(ctx, args...)
	if err != nil {
		return Has{}, nil, err
	}
	defer Wipe(out)
	var it fullItem
	err = json.Unmarshal(out, &it)
	defer func() {
		for _, f := range it.Fields {
			Wipe(f.Value)
			Wipe(f.TOTP)
		}
	}()
	if err != nil {
		return Has{}, nil, &Error{Kind: KindProvider, detail: "the 1Password CLI answered something other than the item"}
	}
	urls := make([]string, len(it.URLs))
	for i, u := range it.URLs {
		urls[i] = u.Href
	}
	if it.Category != categoryLogin || it.ID != l.ID || !origin.MatchesAny(urls) {
		return Has{}, nil, &Error{Kind: KindUnsupported, detail: "the 1Password item is no longer a Login item for this site"}
	}
	var has Has
	var value []byte
	for _, f := range it.Fields {
		var field protocol.CredentialField
		raw := f.Value
		switch {
		case f.Purpose == "USERNAME" && !has.Username:
			field, has.Username = protocol.CredentialUsername, nonEmpty(f.Value)
		case f.Purpose == "PASSWORD" && !has.Password:
			field, has.Password = protocol.CredentialPassword, nonEmpty(f.Value)
		case f.Type == "OTP" && !has.OTP:
			field, raw, has.OTP = protocol.CredentialOTP, f.TOTP, nonEmpty(f.TOTP)
		default:
			continue
		}
		if field == want && value == nil && nonEmpty(raw) {
			if value, err = unquote(raw); err != nil {
				return Has{}, nil, &Error{Kind: KindProvider, detail: "the 1Password CLI answered a field the broker does not read"}
			}
		}
	}
	if want != "" && value == nil {
		return has, nil, &Error{Kind: KindUnsupported, detail: "the 1Password item has no " + string(want)}
	}
	return has, value, nil
}

// nonEmpty: a JSON string with at least one character.
func nonEmpty(raw json.RawMessage) bool {
	return len(raw) > 2 && raw[0] == '"'
}
