//go:build windows

package releasetrust

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// authenticode asks WinVerifyTrust whether the file carries a valid
// Authenticode signature chaining to a root Windows trusts, with the whole
// chain's revocation checked.
type authenticode struct{}

// Platform is this OS's signature check.
func Platform() PlatformChecker { return authenticode{} }

func (authenticode) Name() string { return "Authenticode (WinVerifyTrust)" }

func (authenticode) Check(path string) error {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	data := &windows.WinTrustData{
		Size:             uint32(unsafe.Sizeof(windows.WinTrustData{})),
		UIChoice:         windows.WTD_UI_NONE,
		RevocationChecks: windows.WTD_REVOKE_WHOLECHAIN,
		UnionChoice:      windows.WTD_CHOICE_FILE,
		StateAction:      windows.WTD_STATEACTION_VERIFY,
		FileOrCatalogOrBlobOrSgnrOrCert: unsafe.Pointer(&windows.WinTrustFileInfo{
			Size:     uint32(unsafe.Sizeof(windows.WinTrustFileInfo{})),
			FilePath: p,
		}),
	}
	verr := windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	// The state WinVerifyTrust allocated is freed whatever the verdict.
	data.StateAction = windows.WTD_STATEACTION_CLOSE
	cerr := windows.WinVerifyTrustEx(windows.InvalidHWND, &windows.WINTRUST_ACTION_GENERIC_VERIFY_V2, data)
	if verr != nil {
		return fmt.Errorf("WinVerifyTrust: %w", verr)
	}
	if cerr != nil {
		return fmt.Errorf("WinVerifyTrust close: %w", cerr)
	}
	return nil
}
