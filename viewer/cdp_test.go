package viewer

// A small Chrome DevTools Protocol client for the browser tests: Chromium
// started headless, one websocket (RFC 6455, client side: masked text
// frames), one page target in flattened session mode, and every JavaScript
// exception, console error and log error collected.

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumNames are the programs tried, in order, after $GRIDGYM_CHROMIUM.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium returns a headless-capable Chromium, installing Debian's
// chromium with apt-get where it is missing and we are root (unless
// GRIDGYM_NO_INSTALL is set); it skips the test loudly where there is none.
func findChromium(t *testing.T) string {
	t.Helper()
	look := func() string {
		if p := os.Getenv("GRIDGYM_CHROMIUM"); p != "" {
			return p
		}
		for _, n := range chromiumNames {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		return ""
	}
	if p := look(); p != "" {
		return p
	}
	why := "no chromium on PATH"
	_, aptErr := exec.LookPath("apt-get")
	switch {
	case os.Getenv("GRIDGYM_NO_INSTALL") != "":
		why += " and GRIDGYM_NO_INSTALL is set"
	case aptErr != nil:
		why += " and no apt-get to install it"
	case os.Geteuid() != 0:
		why += " and not root, so apt-get cannot install it (run: sudo apt-get install chromium)"
	default:
		ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
		defer cancel()
		t.Log("installing Debian's chromium (apt-get install -y chromium) for the browser tests")
		out, err := exec.CommandContext(ctx, "apt-get", "install", "-y", "-qq", "chromium").CombinedOutput()
		if err != nil {
			out2, err2 := exec.CommandContext(ctx, "sh", "-c", "apt-get update -qq && apt-get install -y -qq chromium").CombinedOutput()
			out, err = append(out, out2...), err2
		}
		if p := look(); p != "" {
			return p
		}
		why += fmt.Sprintf(" and apt-get install chromium failed (%v): %s", err, lastLines(string(out), 3))
	}
	msg := "BROWSER TEST SKIPPED: " + why + "; the HTML viewer is not checked in a real browser"
	fmt.Fprintln(os.Stderr, msg)
	t.Skip(msg)
	return ""
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " / ")
}

// browser is a headless Chromium with one page attached.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	conn    net.Conn
	rd      *bufio.Reader
	wmu     sync.Mutex
	session string

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpReply
	errs    []string // JavaScript exceptions, console errors, log errors
	loaded  chan struct{}
	closed  chan struct{}
	readErr error
}

type cdpReply struct {
	Result json.RawMessage
	Err    *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

// removeProfile removes Chromium's profile folder, trying again for up to
// two seconds while the browser's last child processes exit; a folder it
// still cannot remove is logged, not a failure.
func removeProfile(t *testing.T, dir string) {
	var err error
	for i := 0; i < 20; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("leaving Chromium's profile %s: %v", dir, err)
}

var devtoolsRe = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startBrowser starts Chromium headless and opens a blank page; it is shut
// down when the test ends. A browser that exits before it prints its
// DevTools address is started again, up to three times in all (a fresh
// profile each time): on a busy machine Chromium now and then dies at start
// (seen once in CI, after the two tests before it had started it fine); the
// test fails, with the end of what Chromium printed, only when every start
// fails.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	bin := findChromium(t)
	var cmd *exec.Cmd
	var wsURL string
	var why []string
	for try := 1; try <= 3 && wsURL == ""; try++ {
		var err error
		cmd, wsURL, err = launchChromium(t, bin)
		if err != nil {
			why = append(why, fmt.Sprintf("start %d: %v", try, err))
			t.Logf("%s: start %d of 3 failed: %v", bin, try, err)
		}
	}
	if wsURL == "" {
		t.Fatalf("%s: no DevTools address in three starts: %s", bin, strings.Join(why, "; "))
	}
	b := &browser{t: t, cmd: cmd, waiting: map[int]chan cdpReply{}, loaded: make(chan struct{}, 8), closed: make(chan struct{})}
	if err := b.dial(wsURL); err != nil {
		t.Fatalf("devtools websocket %s: %v", wsURL, err)
	}
	go b.readLoop()
	var target struct {
		TargetID string `json:"targetId"`
	}
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct {
		SessionID string `json:"sessionId"`
	}
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.session = att.SessionID
	for _, d := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		b.call(b.session, d, nil, nil)
	}
	return b
}

// launchChromium starts one headless Chromium with a new profile and
// returns it with its DevTools websocket address, or the error and the last
// lines it printed. The process and profile go when the test ends, whether
// or not it started.
func launchChromium(t *testing.T, bin string) (*exec.Cmd, string, error) {
	// The profile is not a t.TempDir: Chromium's child processes may still
	// write into it for a moment after the browser is killed, which made
	// t.TempDir's removal fail the test ("directory not empty").
	profile, err := os.MkdirTemp("", "gridgym-chromium-")
	if err != nil {
		return nil, "", err
	}
	// The background flags keep Chromium off the network this machine closes.
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--window-size=1280,1000", "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		removeProfile(t, profile)
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		removeProfile(t, profile)
		return nil, "", err
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		removeProfile(t, profile)
	})
	found := make(chan string, 1)
	// what Chromium printed before an address, for the error: written by the
	// reader below only, and read here only after it closed found
	var printed []string
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() { // keep draining, or Chromium blocks on a full pipe
			if m := devtoolsRe.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			} else if !sent {
				printed = append(printed, sc.Text())
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u, ok := <-found:
		if ok {
			return cmd, u, nil
		}
		return cmd, "", fmt.Errorf("exited without a DevTools address (%v), printing: %s", cmd.Wait(), lastLines(strings.Join(printed, "\n"), 4))
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return cmd, "", errors.New("no DevTools address within 30 s")
	}
}

// dial opens the websocket (RFC 6455 §4.1 client handshake).
func (b *browser) dial(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return err
	}
	var k [16]byte
	rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	rd := bufio.NewReaderSize(conn, 1<<16)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		conn.Close()
		return err
	}
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(h[:]) {
		conn.Close()
		return fmt.Errorf("handshake: %s", resp.Status)
	}
	b.conn, b.rd = conn, rd
	return nil
}

// writeFrame sends one masked frame.
func (b *browser) writeFrame(op byte, p []byte) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	hdr := []byte{0x80 | op}
	switch n := len(p); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	buf := make([]byte, len(p))
	for i := range p {
		buf[i] = p[i] ^ mask[i&3]
	}
	_, err := b.conn.Write(append(hdr, buf...))
	return err
}

// readMessage reads one whole message (joining fragments, answering pings).
func (b *browser) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(b.rd, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(b.rd, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(b.rd, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		if n > 256<<20 {
			return nil, fmt.Errorf("frame of %d bytes", n)
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(b.rd, mask[:]); err != nil {
				return nil, err
			}
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(b.rd, p); err != nil {
			return nil, err
		}
		if h[1]&0x80 != 0 {
			for i := range p {
				p[i] ^= mask[i&3]
			}
		}
		switch op {
		case 8:
			return nil, errors.New("websocket closed by the browser")
		case 9:
			b.writeFrame(10, p)
			continue
		case 10:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}

func (b *browser) readLoop() {
	defer close(b.closed)
	for {
		raw, err := b.readMessage()
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			b.mu.Unlock()
			return
		}
		var m struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- cdpReply{Result: m.Result, Err: m.Error}
			}
			continue
		}
		b.event(m.Method, m.Params)
	}
}

// event records what makes a page fail: exceptions, console errors and
// assertions, and the browser's own error log entries.
func (b *browser) event(method string, params json.RawMessage) {
	var msg string
	switch method {
	case "Page.loadEventFired":
		select {
		case b.loaded <- struct{}{}:
		default:
		}
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text       string `json:"text"`
				LineNumber int    `json:"lineNumber"`
				Exception  struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(params, &p)
		d := p.ExceptionDetails
		msg = fmt.Sprintf("exception at line %d: %s %s", d.LineNumber+1, d.Text, d.Exception.Description)
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(params, &p)
		if p.Type == "error" || p.Type == "assert" {
			var parts []string
			for _, a := range p.Args {
				parts = append(parts, fmt.Sprint(a.Value, a.Description))
			}
			msg = "console." + p.Type + ": " + strings.Join(parts, " ")
		}
	case "Log.entryAdded":
		var p struct {
			Entry struct {
				Level  string `json:"level"`
				Source string `json:"source"`
				Text   string `json:"text"`
				URL    string `json:"url"`
			} `json:"entry"`
		}
		json.Unmarshal(params, &p)
		if p.Entry.Level == "error" {
			msg = fmt.Sprintf("log %s (%s): %s %s", p.Entry.Level, p.Entry.Source, p.Entry.Text, p.Entry.URL)
		}
	}
	if msg != "" {
		b.mu.Lock()
		b.errs = append(b.errs, msg)
		b.mu.Unlock()
	}
}

// call sends a command (to the page's session, or the browser's with
// session "") and decodes its result into out (if not nil); it fails the
// test on an error or after 30 s.
func (b *browser) call(session, method string, params any, out any) {
	b.t.Helper()
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpReply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	req := map[string]any{"id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if session != "" {
		req["sessionId"] = session
	}
	js, _ := json.Marshal(req)
	if err := b.writeFrame(1, js); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			b.t.Fatalf("%s: %s (%d)", method, r.Err.Message, r.Err.Code)
		}
		if out != nil {
			if err := json.Unmarshal(r.Result, out); err != nil {
				b.t.Fatalf("%s: %v in %s", method, err, r.Result)
			}
		}
	case <-b.closed:
		b.mu.Lock()
		err := b.readErr
		b.mu.Unlock()
		b.t.Fatalf("%s: the browser connection ended: %v", method, err)
	case <-time.After(30 * time.Second):
		b.t.Fatalf("%s: no answer within 30 s", method)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its value.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	b.call(b.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	if r.ExceptionDetails != nil {
		b.t.Fatalf("evaluate %s: %s", expr, r.ExceptionDetails.Text)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("evaluate %s: %v in %s", expr, err, r.Result.Value)
		}
	}
}

// open navigates to path and waits for the load event and the page's
// data-ready; it returns the time that took.
func (b *browser) open(path string) time.Duration {
	b.t.Helper()
	for len(b.loaded) > 0 {
		<-b.loaded
	}
	b.mu.Lock()
	b.errs = nil // each page answers for its own errors
	b.mu.Unlock()
	start := time.Now()
	b.call(b.session, "Page.navigate", map[string]any{"url": "file://" + path}, nil)
	select {
	case <-b.loaded:
	case <-time.After(30 * time.Second):
		b.t.Fatalf("%s: no load event within 30 s", path)
	}
	for {
		var ready string
		b.eval(`document.body && document.body.dataset.ready || ""`, &ready)
		if ready == "1" {
			return time.Since(start)
		}
		if time.Since(start) > 30*time.Second {
			b.t.Fatalf("%s: the page did not get ready within 30 s; errors: %v", path, b.errors())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// click clicks the middle of the element with id with the mouse, or the
// point at fraction fx of its width.
func (b *browser) click(id string, fx float64) {
	b.t.Helper()
	var xy [2]float64
	b.eval(fmt.Sprintf(`(function(){var e=document.getElementById(%q); e.scrollIntoView({block:"center"}); var r=e.getBoundingClientRect(); return [r.left+%g*r.width, r.top+r.height/2];})()`, id, fx), &xy)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		b.call(b.session, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": xy[0], "y": xy[1], "button": "left", "clickCount": 1}, nil)
	}
}

// keyCodes are the Windows virtual key codes of the keys the tests press.
var keyCodes = map[string]int{" ": 32, "End": 35, "Home": 36, "ArrowLeft": 37, "ArrowRight": 39}

// press presses and releases key (a KeyboardEvent.key value).
func (b *browser) press(key string) {
	b.t.Helper()
	code := key
	if key == " " {
		code = "Space"
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		b.call(b.session, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key, "code": code, "windowsVirtualKeyCode": keyCodes[key]}, nil)
	}
}

// errors returns what went wrong in the page so far.
func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// screenshot saves the page as a PNG.
func (b *browser) screenshot(path string) error {
	var r struct {
		Data string `json:"data"`
	}
	b.call(b.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}
