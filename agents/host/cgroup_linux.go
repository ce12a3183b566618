package host

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Per-bot cgroups. Every bot process (the sandbox and all it starts) joins
// a cgroup of its own for each limit that a cgroup enforces for the whole
// bot: its memory and its process count. Each is named gridgym-PID-N (PID
// is gridgym's, N counts its bots), so that the next gridgym can tell
// those of a run that was killed (cleanStale).

// cgroupHierarchies finds, once, where this process may make per-bot
// cgroups: a cgroup v2 directory whose subtree has the memory (and pids)
// controller, else cgroup v1's memory hierarchy at this process's own
// memory cgroup (its usage then counts against gridgym's own limit too).
// The pids hierarchy is probe's (features.pids).
func cgroupHierarchies() {
	features.memory, features.memoryV2 = "", false
	if os.Geteuid() != 0 {
		return // a delegated v2 subtree is possible, but not worth the guess
	}
	paths := ownCgroups()
	for _, mnt := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		p, ok := paths[""]
		if !ok {
			break
		}
		dir := filepath.Join(mnt, p)
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		if err == nil && strings.Contains(" "+strings.TrimSpace(string(b))+" ", " memory ") && unix.Access(dir, unix.W_OK) == nil {
			features.memory, features.memoryV2 = dir, true
			features.pidsV2 = strings.Contains(" "+strings.TrimSpace(string(b))+" ", " pids ")
			return
		}
	}
	if p, ok := paths["memory"]; ok {
		dir := filepath.Join("/sys/fs/cgroup/memory", p)
		if _, err := os.Stat(filepath.Join(dir, "memory.limit_in_bytes")); err == nil && unix.Access(dir, unix.W_OK) == nil {
			features.memory = dir
		}
	}
}

// ownCgroups reads /proc/self/cgroup: the path of this process's cgroup by
// v1 controller, "" for the v2 hierarchy.
func ownCgroups() map[string]string {
	out := map[string]string{}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// botCgroups makes the cgroups of one bot, named gridgym-PID-N: memory
// (memory.max in v2, and pids.max there where the pids controller is
// delegated too; memory.limit_in_bytes, and the same with swap where the
// kernel counts it, in v1) when memory > 0, pids when procs > 0. It
// returns the directories made and which limits they hold.
func botCgroups(memory int64, procs int) (dirs []string, memOK, pidsOK bool) {
	name := fmt.Sprintf("gridgym-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	mk := func(root string, files ...string) bool {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return false
		}
		for i := 0; i+1 < len(files); i += 2 {
			err := os.WriteFile(filepath.Join(dir, files[i]), []byte(files[i+1]), 0)
			if err != nil && i == 0 { // the first file is the limit; the rest are extras, best effort
				os.Remove(dir)
				return false
			}
		}
		dirs = append(dirs, dir)
		return true
	}
	if memory > 0 && features.memory != "" && !sandboxNoCgroup {
		m := strconv.FormatInt(memory, 10)
		if features.memoryV2 {
			memOK = mk(features.memory, "memory.max", m, "memory.swap.max", "0")
			// cgroup v2 has one hierarchy: the process count goes in the
			// same cgroup, where the pids controller is delegated too.
			if memOK && procs > 0 && features.pids == "" && features.pidsV2 {
				pidsOK = os.WriteFile(filepath.Join(dirs[len(dirs)-1], "pids.max"), []byte(strconv.Itoa(procs)), 0) == nil
			}
		} else {
			memOK = mk(features.memory, "memory.limit_in_bytes", m, "memory.memsw.limit_in_bytes", m)
		}
	}
	if procs > 0 && !pidsOK && features.pids != "" && !sandboxNoCgroup {
		pidsOK = mk(features.pids, "pids.max", strconv.Itoa(procs))
	}
	return dirs, memOK, pidsOK
}

// staleOnce runs cleanStale once per process.
var staleOnce sync.Once

// cleanStale removes, once per process, what a gridgym that was killed
// left behind: per-bot cgroups (their processes killed first) and
// temporary folders named with a pid that is no longer running.
func cleanStale() { staleOnce.Do(removeStale) }

// removeStale is cleanStale's work, every time it is called.
func removeStale() {
	for _, root := range []string{features.pids, features.memory} {
		if root == "" {
			continue
		}
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			if e.IsDir() && staleName(e.Name(), "gridgym-") {
				removeCgroup(filepath.Join(root, e.Name()))
			}
		}
	}
	ents, _ := os.ReadDir(os.TempDir())
	for _, e := range ents {
		if e.IsDir() && staleName(e.Name(), "gridgym-bot-") {
			os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
}

// staleName reports whether name is prefix, a pid and "-…" where the pid is
// not this process's and no process has it.
func staleName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	i := strings.IndexByte(rest, '-')
	if i <= 0 {
		return false
	}
	pid, err := strconv.Atoi(rest[:i])
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
