package onepassword_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/onepassword"
	"github.com/agenttab/agenttab/internal/onepassword/optest"
	"github.com/agenttab/agenttab/protocol"
)

const (
	canaryPassword = "CANARY-pw-\"quoted\"-é-91c3"
	canaryUser     = "canary-user-5b2e@example.com"
)

func TestClientAgainstFakeOp(t *testing.T) {
	op := optest.Build(t)
	op.WriteVault(t, []optest.Item{
		{ID: "itm_bank", Title: "Bank (title never matches evil.com)", URLs: []string{"https://www.bank.com/login"}, Username: canaryUser, Password: canaryPassword, TOTP: "123456"},
		{ID: "itm_note", Category: "SECURE_NOTE", URLs: []string{"https://bank.com"}},
		{ID: "itm_nopw", URLs: []string{"https://bank.com"}, Username: "only-user"},
	})
	c := onepassword.Client{Executable: op.Path, Timeout: 10 * time.Second}
	ctx := context.Background()
	logins, err := c.Logins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(logins) != 2 || logins[0].ID != "itm_bank" || logins[0].Vault != "vlt_private" {
		t.Fatalf("logins %+v", logins)
	}
	origin, _ := onepassword.ParseOrigin("https://login.bank.com/")
	cands := origin.Candidates(logins)
	if len(cands) != 2 || cands[0].ID != "itm_bank" || cands[1].ID != "itm_nopw" {
		t.Fatalf("candidates %+v", cands)
	}
	has, v, err := c.Get(ctx, cands[0], origin, "")
	if err != nil || v != nil || has != (onepassword.Has{Username: true, Password: true, OTP: true}) {
		t.Fatalf("has %+v %q %v", has, v, err)
	}
	for field, want := range map[protocol.CredentialField]string{
		protocol.CredentialUsername: canaryUser, protocol.CredentialPassword: canaryPassword, protocol.CredentialOTP: "123456",
	} {
		_, v, err := c.Get(ctx, cands[0], origin, field)
		if err != nil || string(v) != want {
			t.Errorf("%s: %q %v", field, v, err)
		}
		onepassword.Wipe(v)
		if strings.Trim(string(v), "\x00") != "" {
			t.Errorf("%s: not wiped", field)
		}
	}
	// An item without the field is unsupported; one edited away from the
	// site no longer matches.
	nopw, _ := onepassword.ParseOrigin("https://bank.com/")
	if _, _, err := c.Get(ctx, logins[1], nopw, protocol.CredentialPassword); onepassword.KindOf(err) != onepassword.KindUnsupported {
		t.Errorf("no password: %v", err)
	}
	other, _ := onepassword.ParseOrigin("https://evil.com/")
	if _, _, err := c.Get(ctx, cands[0], other, protocol.CredentialPassword); onepassword.KindOf(err) != onepassword.KindUnsupported {
		t.Errorf("other origin: %v", err)
	}
	if _, _, err := c.Get(ctx, onepassword.Login{ID: "itm_gone", Vault: "vlt_private"}, origin, ""); onepassword.KindOf(err) != onepassword.KindProvider {
		t.Errorf("gone: %v", err)
	}
	calls := op.Calls(t)
	if calls[0] != "item list --categories Login --format json" || calls[1] != "item get itm_bank --format json --vault vlt_private" {
		t.Errorf("calls %q", calls)
	}
}

func TestClientFailures(t *testing.T) {
	op := optest.Build(t)
	op.WriteVault(t, nil)
	ctx := context.Background()
	c := onepassword.Client{Executable: op.Path, Timeout: 10 * time.Second}
	for mode, want := range map[optest.Mode]onepassword.Kind{
		optest.ModeSignedOut:     onepassword.KindSignedOut,
		optest.ModeDismissed:     onepassword.KindAuthorization,
		optest.ModeProviderError: onepassword.KindProvider,
	} {
		op.SetMode(t, mode)
		_, err := c.Logins(ctx)
		if onepassword.KindOf(err) != want {
			t.Errorf("%s: %v (kind %d)", mode, err, onepassword.KindOf(err))
		}
		// The broker's words, never op's stderr.
		if err != nil && strings.Contains(err.Error(), "[ERROR]") {
			t.Errorf("%s: stderr leaked: %v", mode, err)
		}
	}
	op.SetMode(t, optest.ModeHang)
	start := time.Now()
	_, err := onepassword.Client{Executable: op.Path, Timeout: 500 * time.Millisecond}.Logins(ctx)
	if onepassword.KindOf(err) != onepassword.KindTimeout || time.Since(start) > 5*time.Second {
		t.Errorf("hang: %v after %v", err, time.Since(start))
	}
	if _, err := (onepassword.Client{Executable: op.Dir + "/missing-op"}).Logins(ctx); onepassword.KindOf(err) != onepassword.KindNotInstalled {
		t.Errorf("missing: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := (onepassword.Client{}).Logins(ctx); onepassword.KindOf(err) != onepassword.KindNotInstalled {
		t.Errorf("no op on PATH: %v", err)
	}
}

// op exits 0 but a helper it left holds stderr past WaitDelay: os/exec
// answers ErrWaitDelay, which is op's whole answer, not "not installed".
func TestClientHelperHoldingStderr(t *testing.T) {
	op := optest.Build(t)
	op.WriteVault(t, []optest.Item{{ID: "itm_bank", URLs: []string{"https://bank.com"}, Password: canaryPassword}})
	op.SetMode(t, optest.ModeStderrHelper)
	logins, err := onepassword.Client{Executable: op.Path, Timeout: 10 * time.Second}.Logins(context.Background())
	if err != nil || len(logins) != 1 || logins[0].ID != "itm_bank" {
		t.Fatalf("logins %+v, %v", logins, err)
	}
}
