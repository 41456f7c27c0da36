package corerpc

import "golang.org/x/sys/unix"

// readCred reads SO_PEERCRED: the peer's uid and pid.
func readCred(fd int) (Cred, error) {
	u, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Cred{UID: -1}, err
	}
	return Cred{UID: int(u.Uid), PID: int(u.Pid)}, nil
}
