package host

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// The unprivileged user a bot runs as when gridgym is root: nobody. It owns
// no file outside the bot's own (so chmod, chown, utime and setxattr of
// gridgym's binary or any other file fail), is in no group (setgroups to
// none: /etc/shadow's group is not its own) and has no capability.
const (
	nobodyUID = 65534
	nobodyGID = 65534
)

// nobodyCan reports whether user nobody (no supplementary groups) may walk
// to path and has the rights want (unix.R_OK, W_OK, X_OK bits) on it, by
// the mode bits of path and of every folder above it, both as written and
// with its links resolved (ACLs are not read: a folder shared only by an
// ACL counts as not shared).
func nobodyCan(path string, want uint32) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	paths := []string{abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		paths = append(paths, r)
	}
	for _, p := range paths {
		for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
			if !nobodyHas(dir, unix.X_OK) {
				return false
			}
			if dir == "/" {
				break
			}
		}
	}
	return nobodyHas(paths[len(paths)-1], want)
}

// nobodyHas reports whether nobody's rights on path's own mode bits include
// want (links followed).
func nobodyHas(path string, want uint32) bool {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return false
	}
	perm := st.Mode & 7
	switch {
	case st.Uid == nobodyUID:
		perm = st.Mode >> 6 & 7
	case st.Gid == nobodyGID:
		perm = st.Mode >> 3 & 7
	}
	return perm&want == want
}

// The POSIX ACL extended attribute's format (linux/posix_acl_xattr.h).
const (
	aclXattr     = "system.posix_acl_access"
	aclVersion   = 2
	aclUserObj   = 0x01
	aclUser      = 0x02
	aclGroupObj  = 0x04
	aclMask      = 0x10
	aclOther     = 0x20
	aclUndefined = 0xffffffff
)

// aclEntry is one entry of a POSIX ACL.
type aclEntry struct {
	tag, perm uint16
	id        uint32
}

// A write grant lets nobody write in a bot's own folder (a program bot's:
// the competitions allow it) for as long as a process of the bot runs: an
// ACL entry user:nobody:rwx on the folder, added by the first process and
// removed, with the folder's mode as it was, after the last (refcounted:
// several seats may share a folder). The files the bot makes are its own;
// those already there stay the owner's (the bot may replace them, not
// change them in place).
var (
	grantMu sync.Mutex
	grants  = map[string]*writeGrant{}
)

// writeGrant is one folder's grant: its users and what to restore.
type writeGrant struct {
	n    int
	orig []byte // the ACL before, nil = none
	mode uint32
}

// grantWrite gives nobody write access to dir (nothing to do where it has
// it already); the returned release takes it back.
func grantWrite(dir string) (release func(), err error) {
	if nobodyHas(dir, unix.W_OK|unix.X_OK) {
		return func() {}, nil
	}
	grantMu.Lock()
	defer grantMu.Unlock()
	g := grants[dir]
	if g == nil {
		var st unix.Stat_t
		if err := unix.Stat(dir, &st); err != nil {
			return nil, fmt.Errorf("granting the bot write access to %s: %w", dir, err)
		}
		g = &writeGrant{mode: st.Mode & 07777}
		buf := make([]byte, 4096)
		n, err := unix.Getxattr(dir, aclXattr, buf)
		switch {
		case err == nil:
			g.orig = slices.Clone(buf[:n])
		case errors.Is(err, unix.ENODATA):
		default:
			return nil, fmt.Errorf("granting the bot write access to %s: reading its ACL: %w", dir, err)
		}
		acl, ok := withNobody(g.orig, g.mode)
		if !ok {
			return nil, fmt.Errorf("granting the bot write access to %s: its ACL is not understood", dir)
		}
		if err := unix.Setxattr(dir, aclXattr, acl, 0); err != nil {
			return nil, fmt.Errorf("granting the bot write access to %s (an ACL entry for user nobody): %w", dir, err)
		}
		grants[dir] = g
	}
	g.n++
	var once sync.Once
	return func() { once.Do(func() { releaseWrite(dir) }) }, nil
}

// releaseWrite ends one user of dir's grant; the last restores the ACL and
// the mode as they were.
func releaseWrite(dir string) {
	grantMu.Lock()
	defer grantMu.Unlock()
	g := grants[dir]
	if g == nil {
		return
	}
	if g.n--; g.n > 0 {
		return
	}
	delete(grants, dir)
	if g.orig != nil {
		unix.Setxattr(dir, aclXattr, g.orig, 0)
	} else {
		unix.Removexattr(dir, aclXattr)
	}
	unix.Chmod(dir, g.mode) // the mask had become the group's bits
}

// withNobody returns the ACL orig (nil: the one mode's bits make) with
// user:nobody:rwx and a mask that lets it through.
func withNobody(orig []byte, mode uint32) ([]byte, bool) {
	var es []aclEntry
	if orig == nil {
		es = []aclEntry{{aclUserObj, uint16(mode >> 6 & 7), aclUndefined}, {aclGroupObj, uint16(mode >> 3 & 7), aclUndefined}, {aclOther, uint16(mode & 7), aclUndefined}}
	} else {
		if len(orig) < 4 || (len(orig)-4)%8 != 0 || binary.LittleEndian.Uint32(orig) != aclVersion {
			return nil, false
		}
		for b := orig[4:]; len(b) > 0; b = b[8:] {
			es = append(es, aclEntry{binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:]), binary.LittleEndian.Uint32(b[4:])})
		}
	}
	es = slices.DeleteFunc(es, func(e aclEntry) bool { return e.tag == aclUser && e.id == nobodyUID })
	es = append(es, aclEntry{aclUser, 7, nobodyUID})
	mask := -1
	group := uint16(0)
	for i, e := range es {
		switch e.tag {
		case aclMask:
			mask = i
		case aclGroupObj:
			group = e.perm
		}
	}
	if mask < 0 {
		es = append(es, aclEntry{aclMask, group | 7, aclUndefined})
	} else {
		es[mask].perm |= 7
	}
	slices.SortFunc(es, func(a, b aclEntry) int {
		if a.tag != b.tag {
			return int(a.tag) - int(b.tag)
		}
		return int(int64(a.id) - int64(b.id))
	})
	out := binary.LittleEndian.AppendUint32(nil, aclVersion)
	for _, e := range es {
		out = binary.LittleEndian.AppendUint16(out, e.tag)
		out = binary.LittleEndian.AppendUint16(out, e.perm)
		out = binary.LittleEndian.AppendUint32(out, e.id)
	}
	return out, true
}
