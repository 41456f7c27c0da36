package protocol

import "testing"

func TestIsUUIDv7(t *testing.T) {
	for key, want := range map[string]bool{
		"0190b2a0-0000-7000-8000-000000000001":      true,
		"0190b2a0-0000-7fff-bfff-ffffffffffff":      true,
		"0190b2a0-0000-7000-a000-000000000001":      true,
		"0190B2A0-0000-7000-8000-000000000001":      false, // upper case
		"0190b2a0-0000-4000-8000-000000000001":      false, // version 4
		"0190b2a0-0000-7000-c000-000000000001":      false, // variant 110
		"0190b2a0-0000-7000-7000-000000000001":      false, // variant 0
		"00000000-0000-0000-0000-000000000000":      false, // nil
		"0190b2a000007000800000000000000001":        false, // no hyphens
		"{0190b2a0-0000-7000-8000-000000000001}":    false,
		"urn:uuid:0190b2a0-0000-7000-8000-00000001": false,
		"0190b2a0-0000-7000-8000-00000000000g":      false,
		"0190b2a0+0000-7000-8000-000000000001":      false,
		"":                                          false,
		"retry-1":                                   false,
	} {
		if got := IsUUIDv7(key); got != want {
			t.Errorf("IsUUIDv7(%q) = %v, want %v", key, got, want)
		}
	}
}
