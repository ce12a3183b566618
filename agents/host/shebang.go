package host

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// hintAfter is how many moves in a row must time out, from a program's
// first, before its start is looked into (shebangHint).
const hintAfter = 3

// shebangHint looks at why a program may be too slow to answer within
// limit at all: if its first line is a #! line, it measures, once, how
// long that interpreter takes just to start (`INTERPRETER --version`), and
// says so when that alone takes half the limit or more — the case of
// `#!/usr/bin/env python3` resolving to a version manager's shim (pyenv,
// asdf), a shell script that costs a few hundred milliseconds before
// Python starts. "" when the program has no #! line or its interpreter
// starts fast.
func shebangHint(program string, limit time.Duration) string {
	f, err := os.Open(program)
	if err != nil {
		return ""
	}
	first, _ := bufio.NewReader(f).ReadString('\n')
	f.Close()
	first = strings.TrimSpace(first)
	if !strings.HasPrefix(first, "#!") {
		return ""
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) == 0 {
		return ""
	}
	interp, via := fields[0], ""
	if filepath.Base(interp) == "env" {
		// #!/usr/bin/env [-S] [NAME=VALUE…] PROGRAM: the program is looked up on the PATH
		for _, a := range fields[1:] {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
				continue
			}
			path, err := exec.LookPath(a)
			if err != nil {
				return ""
			}
			interp, via = path, a
			break
		}
		if via == "" {
			return ""
		}
	}
	took, ok := startTime(interp)
	if !ok || took < limit/2 {
		return ""
	}
	what := interp
	if via != "" {
		what = fmt.Sprintf("%s (what %q finds on the PATH)", interp, via)
	}
	kind := ""
	if isScript(interp) {
		kind = ", itself a script (a version manager's shim, such as pyenv's or asdf's?),"
	}
	fix := "name the interpreter's own path in the first line"
	if real := RealPython(interp, via); real != "" && real != interp {
		fix = fmt.Sprintf("name the interpreter itself: first line #!%s, or the spec cmd:%s %s", real, real, program)
	}
	return fmt.Sprintf("its first line %q starts %s%s which takes %.2f s just to start (`%s --version`), against the %v limit; %s",
		first, what, kind, took.Seconds(), filepath.Base(interp), limit, fix)
}

// startTime times `interp --version`, at most 10 s.
func startTime(interp string) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, interp, "--version")
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil && ctx.Err() == nil {
		return 0, false
	}
	return d, true
}

// isScript reports whether path is a #! script (after symbolic links).
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 2)
	n, _ := f.Read(b)
	return bytes.Equal(b[:n], []byte("#!"))
}

// RealPython asks a Python interpreter (or shim) for the executable it
// finally runs — to suggest in the shebang hint, and for `gridgym export`
// to time a bot without a shim's start-up — or "" for other interpreters
// (neither interp's base name nor name starts with "python") or when it
// does not answer within 10 s.
func RealPython(interp, name string) string {
	base := filepath.Base(interp)
	if !strings.HasPrefix(base, "python") && !strings.HasPrefix(name, "python") {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, interp, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
