# ---- gridgym policy network (NumPy), shared by every exported bot ----------
# The weights below are a safetensors file (public format: 8-byte little-endian
# header length, JSON header, raw little-endian tensors), base64-encoded so the
# bot stays one file. The forward pass is the same network as gridgym's Go
# inference (agents/neural): 3x3 conv trunk with ReLU (optional coordinate
# input channels), a 1x1 policy conv per action plane, a global branch (1x1
# conv to 2 channels, dense, ReLU) that gives the value and the non-spatial
# logits, plus, where heads steer units, the trunk's features at each unit.
import base64 as _b64
import json as _json
import struct as _struct

import numpy as np


def _steady_heap():
    """Keep freed memory in the process (glibc only; elsewhere nothing).
    A move allocates and frees many NumPy arrays of a few hundred KB; with
    glibc's default thresholds the heap is trimmed, or the arrays mapped
    afresh, at nearly every one, and each is then page-faulted in again:
    measured on the Rectangle bot with ring_guard, 2-3 times the time of a
    move (reports/rectangle/rings/README.md). mallopt(M_TRIM_THRESHOLD,
    M_MMAP_THRESHOLD) to 256 MB keeps the pages."""
    try:
        import ctypes
        libc = ctypes.CDLL(None)
        for param in (-1, -3):  # M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
            libc.mallopt(param, 256 << 20)
    except Exception:
        pass


_steady_heap()

# Set SAMPLE = True to draw moves from the policy instead of playing the most
# probable legal move (the default, as gridgym evaluates it).
SAMPLE = False
_RNG = np.random.default_rng()

# The seeded draws (_M64, _GOLDEN, _mix64, _SEED, _draw) come from the
# exporter's draw module above.


def _mix64_np(z):
    """_mix64 on a uint64 array (NumPy's uint64 arithmetic wraps)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


_KEY_W = np.zeros(0, dtype=np.uint64)


def obs_key(planes, scalars):
    """neural.ObsKey: sum of planes[i] * mix64((i+1)*golden) and of the
    scalars' float32 bits * mix64((P+j+1)*golden), mod 2**64."""
    global _KEY_W
    p = np.asarray(planes, dtype=np.float32).ravel().astype(np.uint64)
    s = np.asarray(scalars, dtype=np.float32).ravel().view(np.uint32).astype(np.uint64)
    n = p.size + s.size
    if _KEY_W.size < n:
        with np.errstate(over="ignore"):
            _KEY_W = _mix64_np(np.arange(1, n + 1, dtype=np.uint64) * np.uint64(_GOLDEN))
    with np.errstate(over="ignore"):
        a = int(np.sum(p * _KEY_W[:p.size], dtype=np.uint64))
        b = int(np.sum(s * _KEY_W[p.size:n], dtype=np.uint64))
    return (a + b) & _M64


def _load_weights():
    raw = _b64.b64decode(_WEIGHTS_B64)
    (n,) = _struct.unpack("<Q", raw[:8])
    header = _json.loads(raw[8:8 + n].decode("utf-8"))
    body = raw[8 + n:]
    meta = header.pop("__metadata__", {})
    tensors = {}
    for name, t in header.items():
        if t["dtype"] != "F32":
            raise ValueError("tensor %s has dtype %s, want F32" % (name, t["dtype"]))
        a, b = t["data_offsets"]
        tensors[name] = np.frombuffer(body[a:b], dtype="<f4").reshape(t["shape"]).astype(np.float32)
    return tensors, meta


_W, _META = _load_weights()
ARCH = _json.loads(_META["arch"])
PARAMS = _json.loads(_META.get("params") or "{}") or {}
_H, _WD = ARCH["height"], ARCH["width"]
_HW = _H * _WD


def _conv3x3_relu(x, w, b):
    # x [C, H, W], w [F, C, 3, 3]: zero padding 1, stride 1, then bias, ReLU.
    c = x.shape[0]
    p = np.zeros((c, _H + 2, _WD + 2), dtype=np.float32)
    p[:, 1:-1, 1:-1] = x
    cols = np.empty((c, 3, 3, _H, _WD), dtype=np.float32)
    for dy in range(3):
        for dx in range(3):
            cols[:, dy, dx] = p[:, dy:dy + _H, dx:dx + _WD]
    out = w.reshape(w.shape[0], -1) @ cols.reshape(c * 9, _HW)
    out += b[:, None]
    np.maximum(out, 0, out=out)
    return out.reshape(w.shape[0], _H, _WD)


def net_logits(planes, scalars):
    """Policy logits [heads, actions] and value of one observation: planes
    [P, H, W] (0/1 or small counts), scalars [S] broadcast as planes."""
    a = ARCH
    nc = a["planes"] + a["scalars"]
    coords = bool(a.get("coords"))
    x = np.empty((nc + 2 * coords, _H, _WD), dtype=np.float32)
    x[:a["planes"]] = np.asarray(planes, dtype=np.float32).reshape(a["planes"], _H, _WD)
    for s in range(a["scalars"]):
        x[a["planes"] + s] = np.float32(scalars[s])
    if coords:
        # row r/(H-1) and column c/(W-1) of every cell (0 where a side is 1)
        x[nc] = (np.arange(_H, dtype=np.float32) / np.float32(max(_H - 1, 1)))[:, None]
        x[nc + 1] = (np.arange(_WD, dtype=np.float32) / np.float32(max(_WD - 1, 1)))[None, :]
    units = a.get("units", 0)
    marks = x[units:units + a["heads"]].reshape(a["heads"], _HW) if units else None
    for l in range(a["layers"]):
        x = _conv3x3_relu(x, _W["trunk%d.w" % l], _W["trunk%d.b" % l])
    f = x.reshape(a["filters"], _HW)
    heads, actions, ap, ex = a["heads"], a["actions"], a["aplanes"], a["extras"]
    logits = np.empty((heads, actions), dtype=np.float32)
    if ap > 0:
        sp = _W["policy.w"].reshape(heads * ap, a["filters"]) @ f + _W["policy.b"][:, None]
        logits[:, :ap * _HW] = sp.reshape(heads, ap * _HW)
    g = _W["global.w"].reshape(2, a["filters"]) @ f + _W["global.b"][:, None]
    np.maximum(g, 0, out=g)
    hid = g.reshape(2 * _HW) @ _W["hidden.w"] + _W["hidden.b"]
    np.maximum(hid, 0, out=hid)
    value = float(np.tanh(hid @ _W["value.w"][:, 0] + _W["value.b"][0]))
    if ex > 0:
        e = (hid @ _W["extra.w"] + _W["extra.b"]).reshape(heads, ex)
        if units:
            # each head's directions also read the trunk where its unit stands
            e = e + (marks @ f.T) @ _W["unit.w"]
        logits[:, ap * _HW:] = e
    return logits, value


def choose(logits, mask, planes=None, scalars=None, step=None):
    """One action per head: the most probable legal one (the first of equals,
    as gridgym's Go policy), a draw from the masked softmax when SAMPLE, or
    with TEMPERATURE > 0 the seeded draw above, keyed by the observation
    (planes, scalars) at the game's step (TEMP_STEPS). A head with no legal
    action gets -1."""
    hot = (TEMPERATURE > 0 and planes is not None
           and (TEMP_STEPS <= 0 or (step is not None and step < TEMP_STEPS)))
    if hot:
        key = obs_key(planes, scalars)
    out = []
    for h in range(logits.shape[0]):
        legal = np.flatnonzero(mask[h])
        if legal.size == 0:
            out.append(-1)
            continue
        l = logits[h, legal].astype(np.float64)
        if SAMPLE:
            p = np.exp(l - l.max())
            out.append(int(legal[_RNG.choice(legal.size, p=p / p.sum())]))
        elif hot:
            # neural.Draw and neural.SampleAt: the first legal action whose
            # running sum of weights exceeds u times their total.
            u = _draw(key, h)
            c = np.cumsum(np.exp((l - l.max()) / TEMPERATURE))
            i = int(np.searchsorted(c, u * c[-1], side="right"))
            out.append(int(legal[min(i, legal.size - 1)]))
        else:
            out.append(int(legal[int(np.argmax(l))]))
    return out
# ---- end of the shared network ---------------------------------------------
# The network's input and output shape, which game modules check against
# their encoding before answering (a network of another shape never guesses).
ARCH_SHAPE = tuple(ARCH.get(k) for k in ("height", "width", "planes", "scalars", "heads", "actions"))


def int_grid(x, rows, cols, lo, hi):
    """x as a rows x cols int64 array with values in lo..hi, or None if it is
    not one (strings, ragged lists, floats, values out of range)."""
    if isinstance(x, (str, bytes)):
        return None
    a = np.asarray(x)
    if a.shape != (rows, cols) or a.dtype.kind not in "iu":
        return None
    a = a.astype(np.int64)
    if a.size and (a.min() < lo or a.max() > hi):
        return None
    return a


# Game modules follow in the same namespace: they must not redefine the names
# above (_W, _META, ARCH, PARAMS, _H, _WD, _HW, ARCH_SHAPE, net_logits,
# choose, obs_key, int_grid, SAMPLE, TEMPERATURE, TEMP_STEPS, SEED, _SEED, _draw).
