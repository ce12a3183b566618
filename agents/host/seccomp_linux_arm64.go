package host

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of this build's system calls;
// arm64 has no second ABI to refuse.
const (
	seccompArch = unix.AUDIT_ARCH_AARCH64
	seccompX32  = false
)

// arm64 has only the "at" forms, already in seccompDenied and seccompMeta.
var (
	seccompArchDenied []uintptr
	seccompArchMeta   []uintptr
)
