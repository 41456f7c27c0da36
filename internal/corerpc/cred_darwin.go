package corerpc

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// PeerCred reads LOCAL_PEERCRED (the peer's effective uid) and
// LOCAL_PEERPID, both recorded by the kernel at connect time.
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
	var serr error
	if err := raw.Control(func(fd uintptr) {
		var x *unix.Xucred
		x, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if serr != nil {
			return
		}
		cred.UID = int(x.Uid)
		pid, perr := unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
		if perr == nil {
			cred.PID = pid
		}
	}); err != nil {
		return Cred{UID: -1}, err
	}
	return cred, serr
}
