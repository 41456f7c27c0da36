//go:build !windows

package install

import "errors"

// noRegistry stands where Windows has one; install reaches for the
// registry only when goos is "windows", which a non-Windows build never is
// outside tests (which bring their own).
type noRegistry struct{}

func nativeRegistry() Registry { return noRegistry{} }

func machineRegistry() MachineRegistry { return noRegistry{} }

var errNoRegistry = errors.New("the registry exists only on Windows")

func (noRegistry) SetDefault(string, string) error      { return errNoRegistry }
func (noRegistry) Default(string) (string, bool, error) { return "", false, errNoRegistry }
func (noRegistry) DeleteKey(string) error               { return errNoRegistry }
