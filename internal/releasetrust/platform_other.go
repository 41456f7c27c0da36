//go:build !windows && !darwin

package releasetrust

// noPlatformCheck: Linux (and every other OS here) has no operating-system
// signature for an executable, so only the signed manifest's digests speak
// for a file.
type noPlatformCheck struct{}

// Platform is this OS's signature check.
func Platform() PlatformChecker { return noPlatformCheck{} }

func (noPlatformCheck) Name() string { return "none" }

func (noPlatformCheck) Check(string) error { return ErrNoPlatformCheck }
