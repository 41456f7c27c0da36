package releasetrust

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The checked-in configuration holds no key (spec 000), so every
// verification fails closed with the one stable text, whatever it is given.
func TestCheckedInConfigFailsClosed(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Keys) != 0 {
		t.Fatalf("trust.json holds %d key(s); spec 000 says the checked-in configuration has none", len(cfg.Keys))
	}
	r := newRelease(t)
	_, err = Verify(cfg, r.input())
	if !errors.Is(err, ErrNoTrustKey) {
		t.Fatalf("Verify with the checked-in configuration = %v, want ErrNoTrustKey", err)
	}
	if want := "no release-trust key is configured in this build: this source tree has no signed release"; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

// release is a signed manifest over files in a temporary directory, with a
// test configuration that trusts the signing key.
type release struct {
	dir      string
	key      ed25519.PrivateKey
	cfg      Config
	manifest []byte
	sig      []byte
	platform *fakePlatform
}

type fakePlatform struct {
	fail    map[string]bool // base names the check refuses
	none    bool            // the OS has no check
	checked []string
}

func (p *fakePlatform) Name() string { return "fake" }

func (p *fakePlatform) Check(path string) error {
	if p.none {
		return ErrNoPlatformCheck
	}
	p.checked = append(p.checked, filepath.Base(path))
	if p.fail[filepath.Base(path)] {
		return errors.New("not signed by a trusted publisher")
	}
	return nil
}

func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune('a'+seed)), ed25519.SeedSize)))
}

func newRelease(t *testing.T) *release {
	t.Helper()
	r := &release{dir: t.TempDir(), key: testKey(0), platform: &fakePlatform{fail: map[string]bool{}}}
	files := map[string]string{"agenttab-linux-amd64": "linux binary", "agenttab-windows-amd64.exe": "windows binary"}
	m := Manifest{Schema: 1, Product: Product, Version: "2.0.0-rc.1", Channel: "prerelease"}
	for _, name := range []string{"agenttab-linux-amd64", "agenttab-windows-amd64.exe"} {
		body := files[name]
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(body))
		osName := "linux"
		if strings.HasSuffix(name, ".exe") {
			osName = "windows"
		}
		m.Artifacts = append(m.Artifacts, Artifact{Name: name, Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:]), OS: osName})
	}
	var err error
	if r.manifest, err = json.MarshalIndent(m, "", "  "); err != nil {
		t.Fatal(err)
	}
	r.sign(r.key)
	pub := base64.StdEncoding.EncodeToString(r.key.Public().(ed25519.PublicKey))
	r.cfg, err = ParseConfig([]byte(`{"schema":1,"keys":[{"id":"test-prerelease","channel":"prerelease","ed25519_public_key":"` + pub + `"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *release) sign(k ed25519.PrivateKey) {
	r.sig = []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(k, r.manifest)) + "\n")
}

func (r *release) input() Input {
	return Input{Manifest: r.manifest, Signature: r.sig, Dir: r.dir, Version: "2.0.0-rc.1", GOOS: "windows", Platform: r.platform}
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, r *release, in *Input)
		is     error
		text   string
	}{
		{name: "good"},
		{
			name: "tampered artifact, same size",
			change: func(t *testing.T, r *release, in *Input) {
				os.WriteFile(filepath.Join(r.dir, "agenttab-linux-amd64"), []byte("LINUX binary"), 0o600)
			},
			is: ErrArtifact, text: "SHA-256",
		},
		{
			name: "artifact of another size",
			change: func(t *testing.T, r *release, in *Input) {
				os.WriteFile(filepath.Join(r.dir, "agenttab-linux-amd64"), []byte("linux binary!"), 0o600)
			},
			is: ErrArtifact, text: "size 13, the manifest says 12",
		},
		{
			name: "missing artifact",
			change: func(t *testing.T, r *release, in *Input) {
				os.Remove(filepath.Join(r.dir, "agenttab-windows-amd64.exe"))
			},
			is: ErrArtifact, text: "agenttab-windows-amd64.exe",
		},
		{
			name: "artifact is a symlink",
			change: func(t *testing.T, r *release, in *Input) {
				p := filepath.Join(r.dir, "agenttab-linux-amd64")
				os.Rename(p, p+".real")
				if err := os.Symlink(p+".real", p); err != nil {
					t.Fatal(err)
				}
			},
			is: ErrArtifact, text: "not a regular file",
		},
		{
			name: "tampered manifest",
			change: func(t *testing.T, r *release, in *Input) {
				in.Manifest = []byte(strings.Replace(string(r.manifest), `"size": 12`, `"size": 13`, 1))
			},
			is: ErrBadSignature,
		},
		{
			name:   "unsigned",
			change: func(t *testing.T, r *release, in *Input) { in.Signature = []byte(" \n") },
			is:     ErrUnsigned,
		},
		{
			name:   "signature is not base64 of 64 bytes",
			change: func(t *testing.T, r *release, in *Input) { in.Signature = []byte("c2lnbmF0dXJl") },
			is:     ErrBadSignature,
		},
		{
			name: "signed by another key",
			change: func(t *testing.T, r *release, in *Input) {
				r.sign(testKey(1))
				in.Signature = r.sig
			},
			is: ErrBadSignature,
		},
		{
			name:   "another version",
			change: func(t *testing.T, r *release, in *Input) { in.Version = "2.0.0" },
			is:     ErrVersion, text: "it names 2.0.0-rc.1, this is 2.0.0",
		},
		{
			name: "a key of another channel",
			change: func(t *testing.T, r *release, in *Input) {
				r.cfg.Keys[0].Channel = "stable"
			},
			is: ErrBadSignature, text: "signs the stable channel",
		},
		{
			name: "the platform check refuses this OS's artifact",
			change: func(t *testing.T, r *release, in *Input) {
				r.platform.fail["agenttab-windows-amd64.exe"] = true
			},
			is: ErrPlatformSignature, text: "not signed by a trusted publisher",
		},
		{
			name: "a malformed manifest, validly signed",
			change: func(t *testing.T, r *release, in *Input) {
				r.manifest = []byte(`{"schema":1,"schema":1}`)
				r.sign(r.key)
				in.Manifest, in.Signature = r.manifest, r.sig
			},
			is: ErrMalformedManifest, text: "twice",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRelease(t)
			in := r.input()
			if tt.change != nil {
				tt.change(t, r, &in)
			}
			rep, err := Verify(r.cfg, in)
			if tt.is == nil {
				if err != nil {
					t.Fatal(err)
				}
				want := Report{
					Version: "2.0.0-rc.1", Channel: "prerelease", KeyID: "test-prerelease",
					Artifacts: []string{"agenttab-linux-amd64", "agenttab-windows-amd64.exe"},
					Platform:  "fake", PlatformChecked: []string{"agenttab-windows-amd64.exe"},
				}
				if d := cmp.Diff(want, rep); d != "" {
					t.Errorf("report (-want +got):\n%s", d)
				}
				// Only the running OS's artifacts go to the platform check.
				if d := cmp.Diff([]string{"agenttab-windows-amd64.exe"}, r.platform.checked); d != "" {
					t.Errorf("platform checked (-want +got):\n%s", d)
				}
				return
			}
			if !errors.Is(err, tt.is) {
				t.Fatalf("Verify = %v, want %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
			if !cmp.Equal(rep, Report{}) {
				t.Errorf("a refused verification reported %+v", rep)
			}
		})
	}
}

// On an OS without a platform signature (Linux) nothing is reported as
// platform-checked, and the manifest alone decides.
func TestVerifyWithoutPlatformCheck(t *testing.T) {
	r := newRelease(t)
	r.platform.none = true
	rep, err := Verify(r.cfg, r.input())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.PlatformChecked) != 0 {
		t.Errorf("platform_checked = %v on an OS without a check", rep.PlatformChecked)
	}
	if Platform().Name() == "" {
		t.Error("this OS's platform check has no name")
	}
}
