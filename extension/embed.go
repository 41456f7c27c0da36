// Package extension embeds the built Manifest V3 extension (extension/dist,
// produced from extension/src by `go generate ./extension`) so that the one
// agenttab binary can install it. It owns the extension's fixed identity.
//
// It must never hold behaviour: the extension's logic lives in TypeScript.
package extension

import (
	"embed"
	"io/fs"
)

// ID is the extension id Chrome derives from PublicKey (the first 32 hex
// digits of sha256(DER) mapped 0-f → a-p; notes/chromium.md). The native
// host manifest admits exactly chrome-extension://ID/.
const ID = "hphgnnfihafpjicgfjofofoocpghacnd"

// PublicKey is the manifest "key": the base64 DER SubjectPublicKeyInfo that
// pins ID. Only the public half exists; nothing is signed with it.
const PublicKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA5Y+7xuDzEohtwHpPPZicxXRN6TaCxtkxn6ONL86nrTv9U8vq1u11kZcu4vHmjNY+KSlextmye5o/2WQVOtdH/t3U321ezBqI2SrdWOo+0PmpZd9tK11ZqWEBXzj3yQ+mbF7p7DOD778Zu4c8TFI4NPWlZ/CNR/c5V3J27a+qzAD4F3jiUvhal4cZAlJM4dupJJF21YEdSl7T/S2qj+BU54lkOY/6K9yTwfan+IH5m5th8vuv/HmZfdWcfBm7ErKyEVmSpdrBVRfeTUtkis77gpiHsN/Ey7sD+vFeSxjui9gA4A2UVLhGERsu1IFj9eAAJB4Wa3ZC5lhmS35Nh2eXLwIDAQAB"

// Origin is the extension's origin as Chrome passes it to the native host.
const Origin = "chrome-extension://" + ID + "/"

//go:embed all:dist
var dist embed.FS

// Dist is the built extension, rooted at its manifest.json.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}
