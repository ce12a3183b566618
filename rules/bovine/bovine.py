# ---- Bovine Borders: the competition's entry point (rules R18-R22) ---------
# The tournament calls bot(board) once per round for every seat alive at
# round start (R6, R18). board is the seat's view (R19): 20 lists of 20
# integers (NumPy int16 scalars in the official controller), -1 = empty,
# otherwise the owner relative to the seat, 0 = own, 1 = seat+1, 2 = seat+2,
# 3 = seat+3; the own barn is at (0, 0), seat+1's at (0, 19), seat+2's at
# (19, 19), seat+3's at (19, 0). That view is exactly gridgym's canonical
# frame. The answer is the full move ((si, sj), (i, j)) in view coordinates,
# plain Python ints, or None = pass (R20, R22).
#
# Every feature of gridgym's encoder (encoding v2) comes from the board
# alone, so the bot keeps no memory between calls.

_N = 20                      # rows and columns (R1)
_CELLS = _N * _N             # 400 view cells, c = i*20 + j
_PASS_ACTION = 4 * _CELLS    # 1600: the last action
# Barn of seat+k in every seat's view, k = 0..3 (R3, R19).
_BARNS = ((0, 0), (0, _N - 1), (_N - 1, _N - 1), (_N - 1, 0))
# Source of an action relative to its destination, d = 0..3: above, left,
# right, below (the Go encoder's action planes; a = d*400 + i*20 + j moves
# the cow at (i+di, j+dj) to (i, j)).
_DIRS = ((-1, 0), (0, -1), (0, 1), (1, 0))

# Connectivity (R4) is a flood fill on Python ints used as bitboards: cell
# (i, j) is bit i*21 + j; column 20 of every row stays 0, so a shift by one
# column cannot wrap from one row into the next.
_STRIDE = _N + 1
# The parameter frontier_planes=true (observation only) adds planes 10 and 11:
# the empty cells the seat, and some rival, reaches first (rules/bovine
# frontier.go's reach).
_FRONTIER = str(PARAMS.get("frontier_planes", "false")).strip() == "true"
_PLANES = 12 if _FRONTIER else 10

def parse_board(board):
    """board as a 20 x 20 int64 array of -1..3, or None if malformed."""
    return int_grid(board, _N, _N, -1, 3)


def _bits(m):
    """The cells of a 20 x 20 bool array as an int, cell (i, j) = bit i*21+j."""
    p = np.zeros((_N, _STRIDE), dtype=bool)
    p[:, :_N] = m
    return int.from_bytes(np.packbits(p.reshape(-1), bitorder="little").tobytes(), "little")


def _cells(x):
    """The inverse of _bits: a 20 x 20 bool array."""
    n = (_N * _STRIDE + 7) // 8
    b = np.unpackbits(np.frombuffer(x.to_bytes(n, "little"), dtype=np.uint8), bitorder="little")
    return b[:_N * _STRIDE].reshape(_N, _STRIDE)[:, :_N].astype(bool)


def _connected(own, barn):
    """The cells of own (an int bitboard) 4-connected to cell barn (R4)."""
    conn = own & (1 << (barn[0] * _STRIDE + barn[1]))
    while conn:
        nxt = (conn | conn << 1 | conn >> 1 | conn << _STRIDE | conn >> _STRIDE) & own
        if nxt == conn:
            break
        conn = nxt
    return conn


def _race(mine, theirs, empty):
    """frontier.go's reach on int bitboards: breadth-first through the empty
    cells from mine and from theirs, one layer each at a time; the cells mine
    reaches in fewer steps, and those theirs reaches in fewer (ties: neither)."""
    first = rival = seen_m = seen_t = 0
    while True:
        nm = (mine << 1 | mine >> 1 | mine << _STRIDE | mine >> _STRIDE) & empty & ~seen_m
        nt = (theirs << 1 | theirs >> 1 | theirs << _STRIDE | theirs >> _STRIDE) & empty & ~seen_t
        if not nm and not nt:
            return first, rival
        first |= nm & ~seen_t & ~nt
        rival |= nt & ~seen_m & ~nm
        seen_m |= nm
        seen_t |= nt
        mine, theirs = nm, nt


def alive_flags(b):
    """alive[k]: seat+k still owns its barn (R12; a live seat always does,
    an eliminated one owns nothing)."""
    return np.array([b[i, j] == k for k, (i, j) in enumerate(_BARNS)], dtype=bool)


def observe(b):
    """The 10 planes [10, 20, 20] (12 with frontier_planes) and 8 scalars of
    gridgym's encoder (rules/bovine doc.go, "Learner interface") for view b."""
    planes = np.zeros((_PLANES, _N, _N), dtype=np.uint8)
    alive = alive_flags(b)
    scalars = np.zeros(8, dtype=np.float32)
    conn = [0, 0, 0, 0]
    for k in range(4):
        cows = b == k
        planes[k] = cows
        if alive[k]:
            conn[k] = _connected(_bits(cows), _BARNS[k])
            planes[4 + k] = _cells(conn[k])
            planes[9][_BARNS[k]] = 1
        scalars[k] = alive[k]
        scalars[4 + k] = np.float32(int(cows.sum())) / np.float32(_CELLS)
    planes[8] = b == -1
    if _FRONTIER:
        first, rival = _race(conn[0], conn[1] | conn[2] | conn[3], _bits(planes[8]))
        planes[10] = _cells(first)
        planes[11] = _cells(rival)
    return planes, scalars


def legal_mask(b):
    """The legal actions [1, 1601]: every full move valid under the default
    rules (R7: own source, side-adjacent destination not owned), and pass
    (always). A seat that is out, or a game that is over (at most one seat
    alive, R14), gets pass only. (After 10000 rounds the game is over too,
    but then the bot is not asked.)"""
    mask = np.zeros((1, _PASS_ACTION + 1), dtype=bool)
    mask[0, _PASS_ACTION] = True
    alive = alive_flags(b)
    if not alive[0] or alive.sum() <= 1:
        return mask
    own = b == 0
    p = np.zeros((_N + 2, _N + 2), dtype=bool)   # off board: no source
    p[1:-1, 1:-1] = own
    for d, (di, dj) in enumerate(_DIRS):
        ok = ~own & p[1 + di:1 + di + _N, 1 + dj:1 + dj + _N]
        mask[0, d * _CELLS:(d + 1) * _CELLS] = ok.reshape(-1)
    return mask


# The barn guard (rules/bovine guard.go, Guard; GUARD = 1 from the weights'
# play settings): the view cells one or two steps from the own barn,
# row-major.
_GUARD_WINDOW = ((0, 1), (0, 2), (1, 0), (1, 1), (2, 0))


def guard_move(b):
    """The barn guard's move for view b, or None where it declines (the
    network plays): with a rival cow one or two steps from the barn, capture
    one (beside the barn first, from a connected cow first, never from the
    barn; ties in _GUARD_WINDOW then _DIRS order), else place from the barn
    on an empty neighbour of it, (0, 1) first; exactly Go's State.Guard."""
    threat, best, best_v, conn = False, None, 0, None
    for i, j in _GUARD_WINDOW:
        if b[i, j] < 1:
            continue
        threat = True
        v0 = 20 if i + j == 1 else 10
        for di, dj in _DIRS:
            si, sj = i + di, j + dj
            if si < 0 or sj < 0 or (si == 0 and sj == 0) or b[si, sj] != 0:
                continue
            if conn is None:
                conn = _cells(_connected(_bits(b == 0), _BARNS[0]))
            v = v0 + (5 if conn[si, sj] else 0)
            if v > best_v:
                best, best_v = ((si, sj), (i, j)), v
    if not threat:
        return None
    if best is not None:
        return best
    for i, j in ((0, 1), (1, 0)):
        if b[i, j] == -1:
            return ((0, 0), (i, j))
    return None


def bot(board=None, *_):
    """The full move of the network's policy for this view, or None (pass).
    Never raises and never returns an invalid move (missing or extra
    arguments included)."""
    try:
        b = parse_board(board)
        if b is None:
            return None
        if ARCH_SHAPE != (_N, _N, _PLANES, 8, 1, _PASS_ACTION + 1):
            return None  # a network of another encoding: never guess
        mask = legal_mask(b)
        if not mask[0, :_PASS_ACTION].any():
            return None
        if GUARD:
            m = guard_move(b)
            if m is not None:
                return m
        planes, scalars = observe(b)
        a = choose(net_logits(planes, scalars)[0], mask, planes, scalars)[0]
        if a < 0 or a >= _PASS_ACTION:
            return None
        d, c = divmod(int(a), _CELLS)
        i, j = divmod(c, _N)
        si, sj = i + _DIRS[d][0], j + _DIRS[d][1]
        # R7 once more: in bounds, own source, destination not owned.
        if not (0 <= si < _N and 0 <= sj < _N) or b[si, sj] != 0 or b[i, j] == 0:
            return None
        return ((int(si), int(sj)), (int(i), int(j)))
    except Exception:  # noqa: BLE001 - a bot must answer; None is a pass
        return None
