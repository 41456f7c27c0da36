// Package nativemsg owns Chrome's native-messaging framing: a 4-byte
// native-endian length followed by that many bytes of UTF-8 JSON, on the
// host's stdin (from the extension) and stdout (to the extension).
//
// It enforces Chrome's size limits before anything is written: a
// host→extension message over 1 MiB makes Chrome close the port and kill the
// host (notes/chromium.md), so such a message is refused with an error and
// never written. It must never interpret message contents.
package nativemsg
