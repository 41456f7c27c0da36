//go:build linux || darwin

package corerpc

import (
	"fmt"
	"net"
)

// PeerCred reads the connecting process's credentials from the kernel
// (readCred, per OS), recorded at connect time and not forgeable by the
// peer.
func PeerCred(nc net.Conn) (Cred, error) {
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		return Cred{UID: -1}, fmt.Errorf("not a unix socket: %T", nc)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Cred{UID: -1}, err
	}
	cred := Cred{UID: -1}
	var rerr error
	if err := raw.Control(func(fd uintptr) { cred, rerr = readCred(int(fd)) }); err != nil {
		return Cred{UID: -1}, err
	}
	if rerr != nil {
		return Cred{UID: -1}, rerr
	}
	return cred, nil
}
