package host

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// maxLine bounds one line a bot process may write on the protocol stream;
// a longer one is garbage.
const maxLine = 4 << 20

// tailSize is how much of a process's standard error is kept for the log.
const tailSize = 2048

// errLineTooLong is the reader's verdict on a line over maxLine bytes.
var errLineTooLong = fmt.Errorf("line longer than %d bytes", maxLine)

// proc is one running bot process: its stdin, its stdout split into lines by
// a reader goroutine, and the tail of its stderr. Every proc is in live until
// it has exited, so KillAll can reach it.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan []byte   // stdout lines, newline included (the last may lack it); closed at EOF
	quit   chan struct{} // closed by kill/close: the reader stops
	exited chan struct{} // closed once the process has been waited for
	err    error         // Wait's result, valid after exited
	tail   tailWriter    // the end of stderr
	rdErr  error         // the reader's error (errLineTooLong), valid after lines is closed
	box    *contained    // the sandbox's folder and cgroup, nil without one
	once   sync.Once
}

var (
	liveMu sync.Mutex
	live   = map[*proc]struct{}{}
)

// start runs argv[0] with the rest of argv as arguments, in a session and
// process group of its own, with env added to the environment. With sb set
// (every hosted bot), it runs in sb's sandbox (sandbox_linux.go): limits,
// namespaces, Landlock; log receives a line about what this machine's
// sandbox lacks, once. Its stderr is copied to output (if not nil) and its
// tail kept. After Shutdown it starts nothing.
func start(argv, env []string, output io.Writer, sb *sandbox) (*proc, error) {
	if !beginStart() { // Shutdown: gridgym is exiting
		return nil, errShutDown
	}
	defer starting.Done() // the process is in live, or did not start
	if sandboxOff {
		sb = nil
	}
	p, err := startOnce(argv, env, output, sb, sb != nil && namespaces())
	if err != nil && sb != nil && namespaces() && namespaceFailed(err) {
		// No right to make namespaces here (a container): go on without.
		p, err = startOnce(argv, env, output, sb, false)
	}
	return p, err
}

func startOnce(argv, env []string, output io.Writer, sb *sandbox, ns bool) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &proc{
		lines:  make(chan []byte, 4),
		quit:   make(chan struct{}),
		exited: make(chan struct{}),
		stdin:  inW,
	}
	p.tail.out = output
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &p.tail
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.WaitDelay = time.Second // a grandchild holding stderr open cannot block Wait
	ownGroup(cmd)
	if sb != nil {
		p.box, err = contain(cmd, argv, env, sb, ns, sb.opt.Log)
		if err != nil {
			inR.Close()
			inW.Close()
			outR.Close()
			outW.Close()
			return nil, err
		}
	}
	p.cmd = cmd
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		p.box.cleanup()
		return nil, err
	}
	p.box.started(5 * time.Second)
	liveMu.Lock()
	live[p] = struct{}{}
	liveMu.Unlock()
	go p.read(outR)
	go func() {
		p.err = cmd.Wait() // which returns once stderr's copier has written its last piece
		p.tail.flush()
		killDescendants(0, p.box) // the cgroup's stragglers, where there is one
		p.box.cleanup()
		liveMu.Lock()
		delete(live, p)
		liveMu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// read splits the process's stdout into lines until EOF; after quit it
// discards them.
func (p *proc) read(r *os.File) {
	defer r.Close()
	defer close(p.lines)
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	discard := false
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			if len(long) > maxLine {
				p.rdErr = errLineTooLong
				return
			}
			continue
		}
		line := append(long, chunk...)
		long = nil
		if len(line) > maxLine {
			p.rdErr = errLineTooLong
			return
		}
		if len(line) > 0 && !discard {
			select {
			case p.lines <- bytes.Clone(line):
			case <-p.quit:
				discard = true // read on to EOF, so the process is not cut off mid-write
			}
		}
		if err != nil { // EOF, or the pipe closed under us
			return
		}
	}
}

// next waits for the next stdout line until timer fires. eof is true when the stream
// ended (the process exited or closed it) or the line was too long.
func (p *proc) next(timer *time.Timer) (line []byte, eof, timedOut bool) {
	select {
	case l, ok := <-p.lines:
		return l, !ok, false
	case <-timer.C:
		return nil, false, true
	}
}

// running reports whether the process has not exited yet.
func (p *proc) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// kill ends the process and its process group at once and waits (briefly)
// for it to be reaped.
func (p *proc) kill() {
	p.once.Do(func() { close(p.quit); p.stdin.Close() })
	if p.running() {
		killDescendants(p.cmd.Process.Pid, nil) // its session, while its id cannot have been reused
		killGroup(p.cmd)
	}
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
}

// close ends the process politely: stdin is closed, which makes a host
// process leave its loop, and the rest of stdout is read and discarded; one
// still running after grace is killed, and killed reports it.
func (p *proc) close(grace time.Duration) (killed bool) {
	p.once.Do(func() { close(p.quit); p.stdin.Close() })
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return false
	case <-t.C:
	}
	p.kill()
	return true
}

// status describes how the process ended, for the log.
func (p *proc) status() string {
	select {
	case <-p.exited:
	case <-time.After(500 * time.Millisecond):
		return "still running"
	}
	if p.err == nil {
		return "exit status 0"
	}
	return p.err.Error()
}

// KillAll kills every bot process this package has started and that is
// still running. Call it when gridgym is interrupted (a signal handler), so
// hosted bots die with it; agents closed normally need no help.
func KillAll() {
	liveMu.Lock()
	ps := make([]*proc, 0, len(live))
	for p := range live {
		ps = append(ps, p)
	}
	liveMu.Unlock()
	for _, p := range ps {
		p.kill()
	}
}

// tailWriter keeps the last tailSize bytes written to it and copies
// everything to out, if set, whole lines at a time: a process's stderr
// arrives in whatever pieces it wrote (Python's print writes its text and
// its newline apart), and several processes of one bot share one log file,
// so a piece ending mid-line waits in part for its newline (or for flush,
// when the process's stderr closes) instead of interleaving with another
// process's line. A partial line longer than maxPartial goes out as it is.
type tailWriter struct {
	mu   sync.Mutex
	buf  []byte
	part []byte // the last line begun and not yet ended, not yet copied to out
	out  io.Writer
}

// maxPartial bounds the unfinished line a tailWriter holds back from out.
const maxPartial = 64 << 10

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.out != nil {
		whole := bytes.LastIndexByte(b, '\n') + 1
		if whole > 0 {
			// The bot's own output: a failing log writer is no reason to stop it.
			if len(t.part) > 0 {
				t.out.Write(append(t.part, b[:whole]...))
				t.part = t.part[:0]
			} else {
				t.out.Write(b[:whole])
			}
		}
		t.part = append(t.part, b[whole:]...)
		if len(t.part) > maxPartial {
			t.flushLocked()
		}
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

// flush copies a last line without its newline to out; the process's
// stderr has closed.
func (t *tailWriter) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
}

func (t *tailWriter) flushLocked() {
	if t.out != nil && len(t.part) > 0 {
		t.out.Write(t.part)
		t.part = t.part[:0]
	}
}

// last returns the final line of stderr that is not blank, shortened for the log.
func (t *tailWriter) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(t.buf), []byte("\n"))
	s := string(bytes.TrimSpace(lines[len(lines)-1]))
	return shorten(s, 200)
}

// note is last as ": LINE" for an error message, or "" if stderr was empty.
func (t *tailWriter) note() string {
	if l := t.last(); l != "" {
		return ": " + l
	}
	return ""
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
