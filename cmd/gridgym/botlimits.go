package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/host"
)

// addBotLimitFlags adds the limits of hosted bots (py:, cmd:) to every
// command, as flags bound to host.Defaults, which the bot specs use.
func addBotLimitFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	host.Defaults.Memory = host.DefaultMemory
	f.Var((*memoryValue)(&host.Defaults.Memory), "bot-memory",
		"address space of each hosted bot process (py:, cmd:), e.g. 2G, 512M, or none;\n"+
			"a Python bot over it gets MemoryError, played as no answer (e.g. --bot-memory 1G)")
	host.Defaults.CPU, host.Defaults.Procs = host.DefaultCPU, host.DefaultProcs
	f.Var((*cpuValue)(&host.Defaults.CPU), "bot-cpu",
		"CPU time of each hosted bot process; over it the process is killed, logged as a crash\n"+
			"(e.g. --bot-cpu 10m; 0 or none: no limit)")
	f.Var((*procsValue)(&host.Defaults.Procs), "bot-procs",
		"processes a hosted bot may run at once (e.g. --bot-procs 16; 0 or none: no limit)")
}

// memoryValue is a size in bytes written with a unit (K, M, G), or none.
type memoryValue int64

func (m *memoryValue) Type() string { return "size" }

func (m *memoryValue) String() string {
	switch v := int64(*m); {
	case v < 0:
		return "none"
	case v%(1<<30) == 0:
		return fmt.Sprintf("%dG", v>>30)
	case v%(1<<20) == 0:
		return fmt.Sprintf("%dM", v>>20)
	case v%(1<<10) == 0:
		return fmt.Sprintf("%dK", v>>10)
	default:
		return strconv.FormatInt(v, 10)
	}
}

func (m *memoryValue) Set(s string) error {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "NONE" || s == "0" {
		*m = -1
		return nil
	}
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("want a size such as 512M or 2G, or none")
	}
	*m = memoryValue(n * mult)
	return nil
}

// cpuValue is a duration, or none (0): host.Options.CPU's "no limit" is
// negative, its 0 the default.
type cpuValue time.Duration

func (c *cpuValue) Type() string { return "duration" }

func (c *cpuValue) String() string {
	if *c < 0 {
		return "none"
	}
	return time.Duration(*c).String()
}

func (c *cpuValue) Set(s string) error {
	if s = strings.TrimSpace(s); strings.EqualFold(s, "none") {
		*c = -1
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration such as 90s or 10m, or none")
	}
	if d == 0 {
		d = -1
	}
	*c = cpuValue(d)
	return nil
}

// procsValue is a process count, or none (0).
type procsValue int

func (p *procsValue) Type() string { return "int" }

func (p *procsValue) String() string {
	if *p < 0 {
		return "none"
	}
	return strconv.Itoa(int(*p))
}

func (p *procsValue) Set(s string) error {
	if s = strings.TrimSpace(s); strings.EqualFold(s, "none") {
		*p = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a process count such as 64, or none")
	}
	if n == 0 {
		n = -1
	}
	*p = procsValue(n)
	return nil
}
