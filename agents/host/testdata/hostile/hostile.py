"""Rising Tide bots in the competition's form (rising-tide R18-R23) that
attack their host, for sandbox_test.go. Each plays the first legal move of
the view (R10), like risingtide_faulty.py's good, and misbehaves:

  setsid_child  starts a process in a session of its own
  daemon        double-forks a daemon (setsid in between)
  hog           allocates 50 MB per loop iteration, forever
  spin          starts a thread that burns CPU, then keeps answering
  fork_bomb     starts up to 100 processes and says how many ran
  snoop         reads an opponent's file, the parent's command line, writes
                outside and inside its temporary folder, and says what
                happened on stderr, one line each ("snoop: WHAT: ok|denied ...")

each at round_num 1 (its second move: round_num counts from 0).
The test's settings are in hostile.json beside this file (the sandbox gives
a bot no variable of gridgym's environment): "marker", an argument of the
processes started that the test looks for in /proc, and for snoop "other",
"parent" and "outside".
"""
import json
import os
import subprocess
import sys
import threading


def _settings():
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile.json")) as f:
            return json.load(f) or {}
    except OSError:
        return {}


SETTINGS = _settings()
MARKER = str(SETTINGS.get("marker", "gridgym-hostile-no-marker"))

S = 18
CITIES = {(5, 5), (5, 12), (12, 12), (12, 5)}
SLEEPER = "import time; time.sleep(1000)"


def first_legal(terrain):
    for i in range(S):
        for j in range(S):
            if terrain[i][j] < 1 or (i, j) in CITIES:
                continue
            for a in (i - 1, i, i + 1):
                for b in (j - 1, j, j + 1):
                    if (a, b) == (i, j) or not (0 <= a < S and 0 <= b < S) or (a, b) in CITIES:
                        continue
                    if 0 <= terrain[a][b] < 8:
                        return ((i, j), (a, b))
    return None


def setsid_child(terrain, round_num):
    if round_num == 1:
        subprocess.Popen([sys.executable, "-c", SLEEPER, MARKER],
                         start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return first_legal(terrain)


def daemon(terrain, round_num):
    if round_num == 1:
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                fd = os.open(os.devnull, os.O_RDWR)
                for i in (0, 1, 2):
                    os.dup2(fd, i)
                os.execv(sys.executable, [sys.executable, "-c", SLEEPER, MARKER])
            os._exit(0)
        os.waitpid(pid, 0)
    return first_legal(terrain)


_hog = []


def hog(terrain, round_num):
    if round_num == 1:
        while True:
            _hog.append(bytearray(50 << 20))
    return first_legal(terrain)


def _burn():
    while True:
        pass


def spin(terrain, round_num):
    if round_num == 1:
        threading.Thread(target=_burn, daemon=True).start()
    return first_legal(terrain)


def fork_bomb(terrain, round_num):
    if round_num == 1:
        procs, err = [], "none"
        for _ in range(100):
            try:
                procs.append(subprocess.Popen([sys.executable, "-c", SLEEPER, MARKER]))
            except OSError as e:
                err = type(e).__name__
                break
        print("fork_bomb: %d started, error %s" % (len(procs), err), file=sys.stderr, flush=True)
    return first_legal(terrain)


def _try(what, fn):
    try:
        got = fn()
        print("snoop: %s: ok %r" % (what, got[:300]), file=sys.stderr, flush=True)
    except OSError as e:
        print("snoop: %s: denied %s" % (what, type(e).__name__), file=sys.stderr, flush=True)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path):
    with open(path, "w") as f:
        f.write("written by a hostile bot")
    return path


def snoop(terrain, round_num):
    if round_num == 1:
        _try("other", lambda: _read(SETTINGS["other"]))
        _try("parent", lambda: _read("/proc/%s/cmdline" % SETTINGS["parent"]))
        _try("ppid", lambda: _read("/proc/%d/cmdline" % os.getppid()))
        _try("outside", lambda: _write(SETTINGS["outside"]))
        _try("tmp", lambda: _write(os.path.join(os.environ.get("TMPDIR", "/tmp"), "mine.txt")))
    return first_legal(terrain)


def all_out(terrain, round_num):
    """Every attack at once, and never an answer: in its first move it starts
    a setsid child and a daemon, in every move it snoops and then allocates
    until MemoryError (over the sandbox's memory limit). sandbox_game_test.go
    checks that the other seats play as against a bot that never answers."""
    if round_num == 0:
        setsid_child(terrain, 1)
        daemon(terrain, 1)
    snoop(terrain, 1)
    while True:
        _hog.append(bytearray(50 << 20))
