"""Rising Tide bots (rising-tide R18-R23) that attack their host at their
first move, for hostile_test.go; each then plays hostile.py's first legal
move. Each attempt prints one line on stderr, "attack: WHAT: ok ..." where
it worked and "attack: WHAT: denied ERROR" where it did not:

  meta     chmod, chown, utime, setxattr and an append on each of the
           settings' "targets" (files outside the bot's folder)
  env      the names of its environment variables
  caps     its user and its effective and bounding capabilities
  files    /etc/shadow and the settings' "other" (another bot's file)
  devices  a character device made in $TMPDIR (the kernel log, 1:11), and
           /dev/kmsg and /dev/mem read directly
  net      UDP and TCP to 127.0.0.1 at the settings' "udp" and "tcp" ports,
           the unix socket at "unix" by path and "abstract" (abstract),
           raw ICMP, packet and netlink sockets
  mem      4 processes at once, each touching "each" bytes and holding
           them 3 s: how many held
  disk     up to 2 GiB written in $TMPDIR: how much went in
  flood    "flood" bytes on stderr, 1 KiB a line

The settings are hostile.json beside this file (the sandbox passes no
variable of gridgym's environment).
"""
import json
import os
import socket
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile import SETTINGS, first_legal  # noqa: E402


def _say(what, verdict):
    print("attack: %s: %s" % (what, verdict), file=sys.stderr, flush=True)


def _try(what, fn):
    try:
        got = fn()
        _say(what, "ok %r" % (got,))
    except OSError as e:
        _say(what, "denied %s %s" % (type(e).__name__, e.strerror))


def _append(path):
    with open(path, "a") as f:
        f.write("written by a hostile bot")
    return path


def _read(path, n=-1):
    with open(path, "rb") as f:
        return f.read(n)[:40]


def meta(terrain, round_num):
    if round_num == 0:
        for t in SETTINGS["targets"]:
            _try("chmod " + t, lambda t=t: os.chmod(t, 0))
            _try("chown " + t, lambda t=t: os.chown(t, 65534, 65534))
            _try("utime " + t, lambda t=t: os.utime(t, (0, 0)))
            _try("setxattr " + t, lambda t=t: os.setxattr(t, "user.gridgym", b"x"))
            _try("append " + t, lambda t=t: _append(t))
    return first_legal(terrain)


def env(terrain, round_num):
    if round_num == 0:
        _say("env", json.dumps(sorted(os.environ)))
    return first_legal(terrain)


def caps(terrain, round_num):
    if round_num == 0:
        with open("/proc/self/status") as f:
            status = dict(line.split(":", 1) for line in f if ":" in line)
        _say("caps", "uid %s eff %s bnd %s" % (status["Uid"].split()[0], status["CapEff"].strip(), status["CapBnd"].strip()))
    return first_legal(terrain)


def files(terrain, round_num):
    if round_num == 0:
        _try("shadow", lambda: _read("/etc/shadow"))
        _try("other", lambda: _read(SETTINGS["other"]))
    return first_legal(terrain)


def devices(terrain, round_num):
    if round_num == 0:
        node = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kmsg")
        _try("mknod", lambda: os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 11)))
        _try("read node", lambda: _read(node, 100))
        _try("/dev/kmsg", lambda: _read("/dev/kmsg", 100))
        _try("/dev/mem", lambda: _read("/dev/mem", 100))
    return first_legal(terrain)


def _connect(family, kind, address, proto=0):
    s = socket.socket(family, kind, proto)
    try:
        s.settimeout(2)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"hostile", address)
        else:
            s.connect(address)
            s.sendall(b"hostile")
        return "sent"
    finally:
        s.close()


def net(terrain, round_num):
    if round_num == 0:
        _try("udp", lambda: _connect(socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", SETTINGS["udp"])))
        _try("tcp", lambda: _connect(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", SETTINGS["tcp"])))
        _try("unix", lambda: _connect(socket.AF_UNIX, socket.SOCK_STREAM, SETTINGS["unix"]))
        _try("abstract", lambda: _connect(socket.AF_UNIX, socket.SOCK_STREAM, "\0" + SETTINGS["abstract"]))
        _try("icmp", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close())
        _try("packet", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0).close())
        _try("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close())
    return first_legal(terrain)


HOLD = ("import sys, time\n"
        "n = int(sys.argv[1])\n"
        "b = bytearray(n)\n"
        "b[::4096] = b'\\x01' * len(range(0, n, 4096))\n"
        "time.sleep(3)\n"
        "print('held', flush=True)\n")


def mem(terrain, round_num):
    if round_num == 0:
        procs = [subprocess.Popen([sys.executable, "-c", HOLD, str(SETTINGS["each"])],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) for _ in range(4)]
        held = sum(1 for p in procs if p.communicate()[0].strip() == b"held")
        _say("mem", "%d of 4 held" % held)
    return first_legal(terrain)


def disk(terrain, round_num):
    if round_num == 0:
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "big")
        written, err, chunk = 0, "none", b"\0" * (1 << 20)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while written < 2 << 30:
                written += os.write(fd, chunk)
        except OSError as e:
            err = type(e).__name__ + " " + str(e.strerror)
        finally:
            os.close(fd)
            os.remove(path)
        _say("disk", "%d written, error %s" % (written, err))
    return first_legal(terrain)


def flood(terrain, round_num):
    if round_num == 0:
        line = "x" * 1023 + "\n"
        for _ in range(int(SETTINGS["flood"]) // 1024):
            sys.stderr.write(line)
        sys.stderr.flush()
    return first_legal(terrain)
