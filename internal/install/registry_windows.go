//go:build windows

package install

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// hkcu is the real per-user registry.
type hkcu struct{}

func nativeRegistry() Registry { return hkcu{} }

func (hkcu) SetDefault(key, value string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, key, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	// "" names the key's default value, which Chrome reads.
	return k.SetStringValue("", value)
}

func (hkcu) Default(key string) (string, bool, error) { return readDefault(registry.CURRENT_USER, key) }

// hklm is the machine-wide registry, only ever read: doctor reports a
// registration there under our name (locate.go).
type hklm struct{}

func machineRegistry() MachineRegistry { return hklm{} }

func (hklm) Default(key string) (string, bool, error) {
	return readDefault(registry.LOCAL_MACHINE, key)
}

// readDefault reads key's default value under root, opening it for
// queries only.
func readDefault(root registry.Key, key string) (string, bool, error) {
	k, err := registry.OpenKey(root, key, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer k.Close()
	v, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", false, nil
	}
	if errors.Is(err, registry.ErrUnexpectedType) {
		// Not a string: not a manifest path we wrote.
		return "", true, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("default value: %w", err)
	}
	return v, true, nil
}

func (hkcu) DeleteKey(key string) error {
	if err := registry.DeleteKey(registry.CURRENT_USER, key); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return err
	}
	return nil
}
