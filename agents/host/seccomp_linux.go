//go:build linux && (amd64 || arm64)

package host

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter of a hosted bot (installed by startBot on the thread
// that starts it, so it binds the bot and every process it starts, never
// the sandbox). A bot computes moves: it needs files, memory, threads,
// pipes and processes, and never what is refused here, with EPERM (a
// PermissionError in Python): new device nodes, tracing another process,
// mounts, the kernel keyring, eBPF, perf events, loading a kernel or a
// module, joining or making namespaces, io_uring (which would bypass the
// socket rule), file handles, the kernel log, changing a file's owner or
// extended attributes, and socket() of every family (no network, even
// where there is no network namespace, and no unix socket of the host
// reached by its path: a named socket is reached by whoever may walk to
// it, which Landlock does not restrict); socketpair stays (a Python
// multiprocessing.Pipe, asyncio's wake-up pair). clone3 answers ENOSYS, so
// that the C library falls back to clone, whose namespace flags the filter
// can see. With meta set (a bot that runs as gridgym's own user, which
// owns files outside its folder) chmod and utime are refused too.

// The filter's verdicts (linux/seccomp.h), and the offsets in struct
// seccomp_data of the system call number, the architecture and the low
// half of the first argument (little-endian).
const (
	seccompAllow = 0x7fff0000
	seccompErrno = 0x00050000
	offNr        = 0
	offArch      = 4
	offArg0      = 16
)

// namespaceFlags are clone's flags that make new namespaces.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// seccompDenied are the system calls refused on every architecture.
var seccompDenied = []uintptr{
	unix.SYS_MKNODAT,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT,
	unix.SYS_FSPICK, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE, unix.SYS_OPEN_TREE_ATTR, unix.SYS_MOUNT_SETATTR,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_SETNS, unix.SYS_UNSHARE,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP,
	unix.SYS_SYSLOG, unix.SYS_ACCT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_QUOTACTL,
	unix.SYS_FCHOWN, unix.SYS_FCHOWNAT,
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
}

// seccompMeta are the calls that change a file's mode or times, refused
// where the bot runs as a user that owns files outside its folder.
var seccompMeta = []uintptr{unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2, unix.SYS_UTIMENSAT}

// seccompProgram returns the filter's program for this architecture, or
// false where the architecture has no filter here.
func seccompProgram(meta bool) ([]unix.SockFilter, bool) {
	if seccompArch == 0 {
		return nil, false
	}
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	deny := stmt(ret, seccompErrno|uint32(unix.EPERM))
	allow := stmt(ret, seccompAllow)
	p := []unix.SockFilter{
		stmt(ld, offArch),
		jump(jeq, seccompArch, 1, 0),
		deny, // another ABI (32-bit calls on a 64-bit kernel): nothing
		stmt(ld, offNr),
	}
	if seccompX32 {
		p = append(p, jump(jge, 0x40000000, 0, 1), deny) // the x32 ABI's numbers
	}
	denied := append(append([]uintptr(nil), seccompDenied...), seccompArchDenied...)
	if meta {
		denied = append(denied, seccompMeta...)
		denied = append(denied, seccompArchMeta...)
	}
	for _, nr := range denied {
		p = append(p, jump(jeq, uint32(nr), 0, 1), deny)
	}
	p = append(p, jump(jeq, unix.SYS_CLONE3, 0, 1), stmt(ret, seccompErrno|uint32(unix.ENOSYS)))
	// clone: no namespace flag; socket: none at all (socketpair stays);
	// ptrace: PTRACE_TRACEME only (the sandbox starts the bot traced, with
	// this filter on).
	p = append(p,
		jump(jeq, unix.SYS_CLONE, 0, 4), stmt(ld, offArg0), jump(jset, namespaceFlags, 0, 1), deny, allow,
		jump(jeq, unix.SYS_SOCKET, 0, 1), deny,
		jump(jeq, unix.SYS_PTRACE, 0, 4), stmt(ld, offArg0), jump(jeq, unix.PTRACE_TRACEME, 1, 0), deny, allow,
		allow)
	return p, true
}

// seccompInstall installs the filter on the calling thread (no_new_privs
// must be set); the processes it starts inherit it.
func seccompInstall(meta bool) error {
	prog, ok := seccompProgram(meta)
	if !ok {
		return nil
	}
	fp := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fp)), 0, 0); err != nil {
		return fmt.Errorf("installing the seccomp filter: %w", err)
	}
	return nil
}
