"""Hosts a user's own competition bot for gridgym (Go package agents/host).

    python3 host.py [--check] [--traces] [--args MODE] BOTFILE ENTRY

Imports BOTFILE (its folder first on sys.path and as the working directory,
as when the competition runs next to it) and looks up ENTRY, a callable (a
util.make_bot tuple with a callable .func is accepted too). Then it answers
{"ready": true, "pid": N}, or {"error": "..."} and exits 1. With --check it
stops there.

Then, one JSON line per move on stdin:

    {"id": 7, "move": 5, "args": [...]}
                               the entry point's arguments, as the game's
                               codec writes them (JSON); "move", optional,
                               is the move's number in the game, for the log

and one JSON line per request on stdout:

    {"id": 7, "answer": <tagged>, "repr": "(1, 2)", "us": 812}
                               the answer, tagged as gridgym's rules/pyval
                               package reads it, and as Python writes it
    {"id": 7, "error": "ZeroDivisionError: ...", "us": 40}   the bot raised

With --traces, an exception of the bot (or of reading its answer) is also
written to stderr, the bot's log, after whatever the bot printed before it:
a line "--- gridgym: move N: ..." and Python's traceback.

"us" is the wall-clock time of the call itself in microseconds, which is
what the competitions limit. The bot can fake it (it shares this
interpreter's time module), so gridgym also times each move with its own
clock, from writing the request to reading the answer.

MODE converts the JSON arguments into the exact Python types the
competition passes: "plain" (lists of ints, the default),
"int16-board" (Bovine Borders: the board's values as NumPy int16 scalars,
R19), "robot-tuples" (Rectangle: robot cells as (r, c) tuples, R19).

The competition's helper modules (Rising Tide's util) are importable: the
Go side prepends _GRIDGYM_MODULES = {name: source} to this script, and a
finder placed after every other one on sys.meta_path imports them, so a
module of that name in the bot's folder (or installed) takes precedence.

The protocol runs over private copies of the original stdin and stdout:
file descriptor 1 is pointed at stderr and 0 at /dev/null before the bot is
imported, so whatever the bot prints (print, os.write, C code, child
processes) goes to stderr, and nothing it reads can swallow a request.
The host exits at the end of its input, or when its parent process dies.
"""
import importlib.util
import json
import os
import sys
import threading
import time
import traceback

MODES = ("plain", "int16-board", "robot-tuples")

# PROTOCOL is the host's private copy of its original stdout, the protocol
# stream (global for the tests, which check that writing garbage on it is
# survived).
PROTOCOL = None


def tag(v, depth=0):
    """Tags a Python value as gridgym's pyval package reads it."""
    if depth > 60:
        return {"type": "deep"}
    if v is None or isinstance(v, bool):
        return v
    np = sys.modules.get("numpy")  # the bot can return NumPy values only if it imported NumPy
    if np is not None:
        if isinstance(v, np.bool_):
            return {"type": "numpy.bool_"}
        if isinstance(v, np.integer):
            return {"np": str(v.dtype), "v": int(v)}
        if isinstance(v, np.floating):
            f = float(v)
            if f != f or abs(f) == float("inf"):
                return {"type": "numpy.float"}
            return {"np": str(v.dtype), "v": f}
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v) if v == v and abs(v) != float("inf") else {"type": "float"}
    if isinstance(v, str):
        return str(v)
    if isinstance(v, list):
        return [tag(x, depth + 1) for x in v]
    if isinstance(v, tuple):
        return {"tuple": [tag(x, depth + 1) for x in v]}
    return {"type": type(v).__name__}


def convert(mode, args):
    """Turns the codec's JSON arguments into the competition's Python types;
    malformed arguments go to the bot unchanged."""
    if mode == "int16-board":
        try:
            import numpy as np

            b = np.array(args[0])
            if b.ndim == 2 and b.dtype.kind == "i" and b.size and -32768 <= b.min() and b.max() <= 32767:
                b = b.astype(np.int16)
                rows, cols = b.shape
                args = [[[b[i, j] for j in range(cols)] for i in range(rows)]] + list(args[1:])
        except Exception:  # noqa: BLE001 - no NumPy, or an odd request: plain ints
            pass
    elif mode == "robot-tuples":
        try:
            args = list(args)
            args[1] = [[tuple(p) for p in rs] for rs in args[1]]
        except Exception:  # noqa: BLE001
            pass
    return args


class ShippedModules:
    """Imports the competition's helper modules that gridgym ships
    (_GRIDGYM_MODULES), after every other finder."""

    def __init__(self, sources):
        self.sources = sources

    def find_spec(self, name, path=None, target=None):
        if path is None and name in self.sources:
            return importlib.util.spec_from_loader(name, self, origin="gridgym:%s.py" % name)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        src = self.sources[module.__name__]
        exec(compile(src, "<gridgym's %s.py>" % module.__name__, "exec"), module.__dict__)


def answer_repr(v):
    """The answer as Python writes it (repr), shortened, for gridgym's log of
    refused answers; never raises."""
    try:
        import reprlib

        r = reprlib.Repr()
        r.maxlevel, r.maxtuple, r.maxlist, r.maxstring, r.maxother = 4, 12, 12, 60, 60
        s = r.repr(v)
    except BaseException:  # noqa: BLE001 - a hostile __repr__
        s = "<%s>" % type(v).__name__
    return s if len(s) <= 200 else s[:200] + "..."


def where(e):
    """Names the innermost frame of an exception's traceback, for the log."""
    tb = traceback.extract_tb(e.__traceback__)
    if not tb:
        return ""
    f = tb[-1]
    return " (%s:%d in %s)" % (os.path.basename(f.filename), f.lineno, f.name)


def describe(e):
    msg = "%s: %s" % (type(e).__name__, e)
    if len(msg) > 300:
        msg = msg[:300] + "..."
    return msg + where(e)


# TRACE_LIMIT bounds the traceback written to the log, in characters.
TRACE_LIMIT = 16000


def write_trace(fd, move, e, skip):
    """Writes the bot's exception e with its traceback on file descriptor fd
    (a private copy of stderr, which the bot may have closed or replaced),
    after what the bot printed, the traceback's first skip frames (the
    host's own call of the bot) left out; never raises."""
    try:
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the bot's own sys.stderr
        pass
    try:
        tb = e.__traceback__
        for _ in range(skip):
            if tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
        text = "".join(traceback.format_exception(type(e), e, tb))
    except BaseException:  # noqa: BLE001 - a hostile __str__
        text = "%s (its traceback cannot be written)\n" % type(e).__name__
    if len(text) > TRACE_LIMIT:
        text = text[:TRACE_LIMIT // 2] + "\n[... %d characters left out ...]\n" % (len(text) - TRACE_LIMIT) + text[-TRACE_LIMIT // 2:]
    at = "move %s" % move if move is not None else "a move"
    head = "--- gridgym: %s: the bot raised an exception: played as no answer\n" % at
    try:
        os.write(fd, (head + text).encode("utf-8", "replace"))
    except BaseException:  # noqa: BLE001 - no log to write to
        pass


def watch_parent():
    """Exits when the process that started the host goes away, so a hung bot
    cannot outlive gridgym."""
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(3)


def load(path, entry):
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    os.chdir(folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else "user_bot"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise ImportError("%s is not a Python file" % path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except ModuleNotFoundError as e:
        hint = ""
        if e.name in ("util", "board", "display"):
            hint = " (copy the competition's %s.py next to the bot file)" % e.name
        raise ImportError("importing %s: %s%s" % (path, describe(e), hint)) from None
    except BaseException as e:  # noqa: BLE001 - SyntaxError, SystemExit, ...
        raise ImportError("importing %s: %s" % (path, describe(e))) from None
    fn = getattr(mod, entry, None)
    if fn is None:
        names = sorted(n for n, v in vars(mod).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", name) == name)
        raise ImportError("%s has no %s (its functions: %s)" % (path, entry, ", ".join(names) or "none"))
    if not callable(fn) and callable(getattr(fn, "func", None)):
        fn = fn.func  # util.make_bot(name, code, my_bot_fn)
    if not callable(fn):
        raise ImportError("%s: %s is a %s, not a function" % (path, entry, type(fn).__name__))
    return fn


def main():
    global PROTOCOL
    argv = sys.argv[1:]
    check, traces, mode = False, False, "plain"
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        if flag == "--check":
            check = True
        elif flag == "--traces":
            traces = True
        elif flag == "--args" and argv:
            mode = argv.pop(0)
        else:
            argv = []
    # The protocol's own streams, then fd 0 and 1 taken away from the bot.
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    proto = PROTOCOL = os.fdopen(os.dup(1), "w", encoding="utf-8")
    log = os.dup(2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)

    def send(rec):
        proto.write(json.dumps(rec) + "\n")
        proto.flush()

    if len(argv) != 2 or mode not in MODES:
        send({"error": "usage: host.py [--check] [--traces] [--args %s] BOTFILE ENTRY" % "|".join(MODES)})
        sys.exit(2)
    threading.Thread(target=watch_parent, daemon=True).start()
    shipped = globals().get("_GRIDGYM_MODULES")
    if shipped:
        sys.meta_path.append(ShippedModules(shipped))
    try:
        fn = load(os.path.abspath(argv[0]), argv[1])
    except ImportError as e:
        send({"error": str(e)})
        sys.exit(1)
    if mode == "int16-board":
        try:
            import numpy  # noqa: F401
        except ImportError:
            sys.stderr.write("host.py: no NumPy for %s: the board is passed as plain ints, not int16\n"
                             % sys.executable)
    send({"ready": True, "pid": os.getpid()})
    if check:
        return
    for line in proto_in:
        line = line.strip()
        if not line:
            continue
        rid = move = None
        try:
            req = json.loads(line)
            rid = req["id"]
            move = req.get("move")
            args = convert(mode, req["args"])
        except Exception as e:  # noqa: BLE001 - gridgym's bug, reported as such
            send({"id": rid, "error": "host: bad request: %s" % e})
            continue
        t0 = time.perf_counter()
        try:
            ans = fn(*args)
            us = int((time.perf_counter() - t0) * 1e6)
            try:
                rec = {"id": rid, "answer": tag(ans), "repr": answer_repr(ans), "us": us}
            except BaseException as e:  # noqa: BLE001 - e.g. RecursionError
                rec = {"id": rid, "error": "answer cannot be read: " + describe(e), "us": us}
                if traces:
                    write_trace(log, move, e, 0)
        except BaseException as e:  # noqa: BLE001 - the competition: exception = pass
            rec = {"id": rid, "error": describe(e), "us": int((time.perf_counter() - t0) * 1e6)}
            if traces:
                write_trace(log, move, e, 1)
        sys.stderr.flush()
        send(rec)


if __name__ == "__main__":
    main()
