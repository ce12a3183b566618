package host

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of this build's system calls;
// seccompX32 says that the x32 ABI (numbers from 0x40000000) is refused.
const (
	seccompArch = unix.AUDIT_ARCH_X86_64
	seccompX32  = true
)

// The calls of seccompDenied and seccompMeta that only this architecture
// has (the older forms without "at").
var (
	seccompArchDenied = []uintptr{unix.SYS_MKNOD, unix.SYS_CHOWN, unix.SYS_LCHOWN, unix.SYS_IOPL, unix.SYS_IOPERM}
	seccompArchMeta   = []uintptr{unix.SYS_CHMOD, unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT}
)
