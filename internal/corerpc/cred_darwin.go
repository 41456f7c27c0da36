package corerpc

import "golang.org/x/sys/unix"

// readCred reads LOCAL_PEERCRED (the peer's effective uid) and
// LOCAL_PEERPID.
func readCred(fd int) (Cred, error) {
	x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return Cred{UID: -1}, err
	}
	cred := Cred{UID: int(x.Uid)}
	if pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil {
		cred.PID = pid
	}
	return cred, nil
}
