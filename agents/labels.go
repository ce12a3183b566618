package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SplitLabel splits a bot spec written LABEL=SPEC into its label and spec;
// a spec without a label comes back with label "". A label is letters,
// digits and . _ - + only, so that URLs (s3://…?endpoint=…) and commands
// (cmd:prog --x=1), whose '=' comes after a ':' or '/', are never split.
func SplitLabel(spec string) (label, rest string) {
	i := strings.IndexByte(spec, '=')
	if i <= 0 {
		return "", spec
	}
	for _, r := range spec[:i] {
		ok := r == '.' || r == '_' || r == '-' || r == '+' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return "", spec
		}
	}
	return spec[:i], spec[i+1:]
}

// Labels returns the name each bot of a lineup is shown by in tables,
// reports and replays: its LABEL= where it has one, a registered name as it
// is, and a path (weights file, run folder, py:/cmd: program) made short —
// relative to the working directory where it lies under it, otherwise its
// shortest tail of path elements (at least two) that no other bot of the
// lineup shares. Equal specs get equal labels; two different specs may not
// share one.
func Labels(specs []string) ([]string, error) {
	labels := make([]string, len(specs))
	bare := make([]string, len(specs))
	explicit := make([]bool, len(specs))
	for i, s := range specs {
		l, rest := SplitLabel(s)
		bare[i] = rest
		if l != "" {
			labels[i], explicit[i] = l, true
		}
	}
	wd, _ := os.Getwd()
	for i, s := range bare {
		if explicit[i] {
			continue
		}
		labels[i] = shortPath(s, wd, bare)
	}
	owner := map[string]string{}
	for i, l := range labels {
		if o, ok := owner[l]; ok && o != bare[i] {
			return nil, fmt.Errorf("bots %q and %q are both shown as %q: give one a label (LABEL=SPEC)", o, bare[i], l)
		}
		owner[l] = bare[i]
	}
	return labels, nil
}

// shortPath shortens spec if it names a file (a path with a separator,
// possibly behind a py: or cmd: scheme); other specs come back as they are.
func shortPath(spec, wd string, all []string) string {
	scheme, p := "", spec
	if i := strings.IndexByte(spec, ':'); i > 1 && !strings.ContainsAny(spec[:i], `/\.`) {
		scheme, p = spec[:i+1], spec[i+1:]
		if strings.HasPrefix(p, "//") { // a URL: keep it whole
			return spec
		}
	}
	if !strings.ContainsRune(p, '/') || strings.ContainsRune(p, ' ') {
		return spec
	}
	clean := filepath.Clean(p)
	if filepath.IsAbs(clean) && wd != "" {
		if rel, err := filepath.Rel(wd, clean); err == nil && !strings.HasPrefix(rel, "..") {
			return scheme + rel
		}
	}
	if !filepath.IsAbs(clean) && !strings.HasPrefix(clean, "..") {
		return scheme + clean
	}
	parts := strings.Split(strings.TrimPrefix(clean, "/"), "/")
	for k := min(2, len(parts)); k <= len(parts); k++ {
		tail := strings.Join(parts[len(parts)-k:], "/")
		unique := true
		for _, o := range all {
			if o != spec && strings.HasSuffix(filepath.Clean(strings.TrimPrefix(o, scheme)), "/"+tail) {
				unique = false
				break
			}
		}
		if unique {
			return scheme + tail
		}
	}
	return spec
}
