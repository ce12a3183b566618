package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents/host"
)

// TestBotLimitFlags: --bot-memory, --bot-cpu and --bot-procs set the hosted
// bots' limits (host.Defaults); none and 0 mean no limit; bad values are
// usage errors naming the form wanted.
func TestBotLimitFlags(t *testing.T) {
	cases := []struct {
		flag, value string
		memory      int64
		cpu         time.Duration
		procs       int
		err         string
	}{
		{"--bot-memory", "512M", 512 << 20, host.DefaultCPU, host.DefaultProcs, ""},
		{"--bot-memory", "3g", 3 << 30, host.DefaultCPU, host.DefaultProcs, ""},
		{"--bot-memory", "none", -1, host.DefaultCPU, host.DefaultProcs, ""},
		{"--bot-memory", "lots", 0, 0, 0, "512M or 2G"},
		{"--bot-memory", "-5M", 0, 0, 0, "512M or 2G"},
		{"--bot-cpu", "90s", host.DefaultMemory, 90 * time.Second, host.DefaultProcs, ""},
		{"--bot-cpu", "0", host.DefaultMemory, -1, host.DefaultProcs, ""},
		{"--bot-cpu", "soon", 0, 0, 0, "90s or 10m"},
		{"--bot-procs", "16", host.DefaultMemory, host.DefaultCPU, 16, ""},
		{"--bot-procs", "none", host.DefaultMemory, host.DefaultCPU, -1, ""},
		{"--bot-procs", "-3", 0, 0, 0, "process count"},
	}
	for _, c := range cases {
		root := newRoot()
		err := root.PersistentFlags().Parse([]string{c.flag, c.value})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want one mentioning %q", c.flag, c.value, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.flag, c.value, err)
			continue
		}
		d := host.Defaults
		if d.Memory != c.memory || d.CPU != c.cpu || d.Procs != c.procs {
			t.Errorf("%s %s: memory %d, cpu %v, procs %d; want %d, %v, %d", c.flag, c.value, d.Memory, d.CPU, d.Procs, c.memory, c.cpu, c.procs)
		}
	}
	newRoot() // back to the defaults
	_, err := run("play", "--bot-memory", "lots")
	var ue usageError
	if err == nil || !errors.As(err, &ue) && !isFlagError(err) {
		t.Errorf("play --bot-memory lots: %v, want a usage error", err)
	}
}

// FuzzBotLimitValues: the limit flags never panic on any input, and a value
// they accept prints as a value they read back the same.
func FuzzBotLimitValues(f *testing.F) {
	for _, s := range []string{"2G", "512m", "none", "0", "-1", "9999999999G", "1K", "90s", "10m", "64", " 3g "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var m, m2 memoryValue
		if m.Set(s) == nil {
			if err := m2.Set(m.String()); err != nil || m2 != m && m2.String() != m.String() {
				t.Errorf("memory %q: read %d, printed %q, read back %d (%v)", s, m, m.String(), m2, err)
			}
		}
		var c, c2 cpuValue
		if c.Set(s) == nil {
			if err := c2.Set(c.String()); err != nil || c2 != c {
				t.Errorf("cpu %q: read %d, printed %q, read back %d (%v)", s, c, c.String(), c2, err)
			}
		}
		var p, p2 procsValue
		if p.Set(s) == nil {
			if err := p2.Set(p.String()); err != nil || p2 != p {
				t.Errorf("procs %q: read %d, printed %q, read back %d (%v)", s, p, p.String(), p2, err)
			}
		}
	})
}
