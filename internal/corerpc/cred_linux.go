package corerpc

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// PeerCred reads SO_PEERCRED: the uid and pid of the process that connected,
// recorded by the kernel at connect time and not forgeable by the peer.
func PeerCred(nc net.Conn) (Cred, error) {
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		return Cred{UID: -1}, fmt.Errorf("not a unix socket: %T", nc)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Cred{UID: -1}, err
	}
	var ucred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		ucred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Cred{UID: -1}, err
	}
	if serr != nil {
		return Cred{UID: -1}, serr
	}
	return Cred{UID: int(ucred.Uid), PID: int(ucred.Pid)}, nil
}
