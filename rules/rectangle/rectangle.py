# ---- Rectangle (rules/rectangle.md §5) -------------------------------------
# The competition calls bot(board, robots, scores, move_num) (R18), every
# argument relabelled so that we are player 0 and player (me + k) mod p is k:
#   board     n lists (rows r) of n ints, board[r][c]: -2 unpaintable,
#             -1 unpainted, k painted by player k;
#   robots    p lists; robots[k] holds the b (r, c) tuples of player k, in
#             robot order (all empty at the placement, move_num 0);
#   scores    p ints;
#   move_num  0 for the placement, t >= 1 for moves.
# It answers b (r, c) tuples at the placement, else a string of b letters
# from "NESWX" (R20). There is no rotation: the request is already gridgym's
# canonical frame (rules/rectangle/encode.go), and the code below rebuilds
# exactly its planes and scalars, the plan and step planes included (_plans
# repeats rectangle.Plans, rules/rectangle/plan.go, step for step), and with
# the parameter rings=true the ring planes (_ring and _ring_steps repeat
# RingOf and RingSteps, rules/rectangle/ring.go).
# Every feature comes from the request alone (encoding v2 dropped the idle
# counter, which the request does not hold), so the bot keeps no memory,
# except with ring_memory=true: the ring planes then remember the ring from
# move to move (_ring_kept repeats RingKept; R18 allows memory in globals),
# and with ring_guard=true as well the bot keeps every seat's memory, as the
# Go state does, to know the rivals' rings; ring_rule picks the ring
# procedure's constants (_RING_RULES, ring.go RuleOf) and ring_step=free the
# ringer's step (_ring_moves, RingMoves). With OPENING = K > 0
# (the weights' play settings) the placement is the opening square of side K
# (_opening_cells, rules/rectangle/opening.go), drawn from SEED, not the
# network's.

_DIRS = "NESWX"  # move action n*n + d, d = 0 N, 1 E, 2 S, 3 W, 4 X


def _param_int(name, default):
    try:
        return int(str(PARAMS.get(name, default)).strip())
    except (TypeError, ValueError):
        return default


def _clamp(v, lo, hi):
    return max(lo, min(hi, v))


# The game's parameters (R1), clamped as rectangle.NewSized does.
_N = _clamp(_param_int("n", 20), 8, 64)
_P = _clamp(_param_int("players", 4), 2, 8)
_B = _clamp(_param_int("robots", 4), 1, 8)
_K = _clamp(_param_int("idle_limit", 100), 1, 100000)
_M = _clamp(_param_int("max_moves", 2000), _K, 1000000)
_NN = _N * _N
_RINGS = str(PARAMS.get("rings", "false")).strip() == "true"  # the ring planes (rings=true)
_RING_MEMORY = _RINGS and str(PARAMS.get("ring_memory", "false")).strip() == "true"  # RingKept
_RING_GUARD = _RING_MEMORY and str(PARAMS.get("ring_guard", "false")).strip() == "true"  # RingKept's guard
_NUM_PLANES, _NUM_SCALARS = 2 * _P + 3 * _B + 6 + (6 if _RINGS else 0), 2 + _P


def _read_request(board, robots, scores, move_num):
    """The request as arrays (board [n, n], robot rows and columns [p, b],
    scores [p], t), or None if it is malformed or not of this game's shape."""
    if isinstance(move_num, (bool, np.bool_)) or not isinstance(move_num, (int, np.integer)) or move_num < 0:
        return None
    t = int(move_num)
    b = np.asarray(board)
    if b.shape != (_N, _N) or b.dtype.kind not in "iu" or b.min() < -2 or b.max() >= _P:
        return None
    sc = np.asarray(scores)
    if sc.shape != (_P,) or sc.dtype.kind not in "iu" or sc.min() < 0:
        return None
    if not isinstance(robots, (list, tuple)) or len(robots) != _P:
        return None
    if t == 0:
        pos = None  # no robot is on the board before the placement
    else:
        pos = np.asarray(robots)
        if pos.shape != (_P, _B, 2) or pos.dtype.kind not in "iu" or pos.min() < 0 or pos.max() >= _N:
            return None
        pos = pos.astype(np.int64)
    return b.astype(np.int64), pos, sc.astype(np.int64), t


_DR = (-1, 0, 1, 0, 0)  # N E S W X
_DC = (0, 1, 0, -1, 0)
_SIDES = (6, 5, 4, 3)  # planned square sides, in scan order


def _windows(prefix, k):
    """Sums over the k x k windows of a prefix-sum table [n+1, n+1], indexed
    by the top-left corner [n-k+1, n-k+1]."""
    return prefix[k:, k:] - prefix[:-k, k:] - prefix[k:, :-k] + prefix[:-k, :-k]


def _prefix(a):
    p = np.zeros((_N + 1, _N + 1), dtype=np.int64)
    p[1:, 1:] = a.astype(np.int64).cumsum(0).cumsum(1)
    return p


def _plans(b, pos, sc, t):
    """rectangle.Plans: per robot (R, C, K, TR, TC, step), K = 0 without a
    plan, TR = -1 without a target, step a direction index (X = 4)."""
    placing = t == 0
    unp, own = _prefix(b == -2), _prefix(b == 0)
    if not placing:  # cells not painted 0 holding two or more robots of other players
        count = np.zeros((_N, _N), dtype=np.int64)
        np.add.at(count, (pos[1:, :, 0].ravel(), pos[1:, :, 1].ravel()), 1)
        stuck = _prefix((count >= 2) & (b != 0))

    def ring(prefix, k, m):
        return _windows(prefix, k) - _windows(prefix, k - 2)[1:m + 1, 1:m + 1]

    cands = []  # per side: k, gain [m, m], open [m, m], base cost [m, m], corner rows, corner columns
    for k in _SIDES:
        m = _N - k + 1
        inner = _windows(unp, k - 2)[1:m + 1, 1:m + 1]  # unpaintable interior cells
        ok = (ring(unp, k, m) == 0) & (inner < (k - 2) * (k - 2))
        pr, pc = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
        if placing:
            ok[0, 0] = False  # R9 parks failed placements on (0,0)
        else:
            ok &= ring(stuck, k, m) == 0
        gain = ((k - 2) * (k - 2) - inner).astype(np.float64)
        cands.append((k, gain, ok, (4 * k - 4) - ring(own, k, m), pr, pc))
    given = [None] * _B  # assigned plans (R, C, K), None until assigned

    def candidate(i):
        best, best_v = (0, 0, 0), -1.0
        for k, gain, ok, base, pr, pc in cands:
            allowed = ok.copy()
            for g in given:
                if g is not None and g[2] > 0:
                    R, C, K = g
                    allowed &= ~((pr < R + K) & (R < pr + k) & (pc < C + K) & (C < pc + k))
            cost = base
            if not placing:
                r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
                r2, c2 = pr + k - 1, pc + k - 1
                dr = np.maximum(np.maximum(pr - r, r - r2), 0)
                dc = np.maximum(np.maximum(pc - c, c - c2), 0)
                inside = np.minimum(np.minimum(r - pr, r2 - r), np.minimum(c - pc, c2 - c))
                cost = base + np.where((dr > 0) | (dc > 0), dr + dc, inside)
            val = np.where(allowed, gain / (cost + 1).astype(np.float64), -1.0)
            j = int(np.argmax(val))
            if val.flat[j] > best_v:
                best, best_v = (int(pr.flat[j]), int(pc.flat[j]), k), float(val.flat[j])
        return best, best_v

    def overlaps(p, q):
        return p[0] < q[0] + q[2] and q[0] < p[0] + p[2] and p[1] < q[1] + q[2] and q[1] < p[1] + p[2]

    best = [candidate(i) for i in range(_B)]
    for _ in range(_B):
        bi = -1
        for i in range(_B):
            if given[i] is None and (bi < 0 or best[i][1] > best[bi][1]):
                bi = i
        p = best[bi][0]
        given[bi] = p
        if p[2] == 0:
            continue
        for i in range(_B):
            if given[i] is None and best[i][0][2] > 0 and overlaps(best[i][0], p):
                best[i] = candidate(i)
    plans = [[R, C, K, -1, -1, 4] for R, C, K in given]
    if placing:
        return plans
    foreign = set()
    for k in range(1, _P):
        for j in range(_B):
            foreign.add((int(pos[k, j, 0]), int(pos[k, j, 1])))
    for i, pl in enumerate(plans):
        R, C, K = pl[0], pl[1], pl[2]
        if K == 0:
            continue
        r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
        y, x, td = R, C, -1
        for e in range(4):  # clockwise from the top-left corner: E, S, W, N
            for _ in range(K - 1):
                if b[y, x] != 0:
                    d = abs(y - r) + abs(x - c) + (4 * _N if (y, x) in foreign else 0)
                    if td < 0 or d < td:
                        pl[3], pl[4], td = y, x, d
                y, x = y + _DR[(e + 1) & 3], x + _DC[(e + 1) & 3]
        pl[5] = _step(plans, pos, sc, t, i)
    return plans


def _on_boundary(pl, y, x):
    R, C, K = pl[0], pl[1], pl[2]
    return R <= y <= R + K - 1 and C <= x <= C + K - 1 and (y in (R, R + K - 1) or x in (C, C + K - 1))


def _waits(pos, sc, t, i):
    """plan.go's waits: a hash bit of move_num, i, the own score and the own
    robots' cells (uint32 arithmetic)."""
    m = 0xFFFFFFFF
    x = (t * 2654435761 + i * 40503 + int(sc[0]) * 97) & m
    for j in range(_B):
        x = (x + (int(pos[0, j, 0]) * 64 + int(pos[0, j, 1])) * (j + 1)) & m
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & m
    x ^= x >> 12
    return x & 1 == 1


def _step(plans, pos, sc, t, i):
    """Robot i's step (robots before it have theirs): plan.go's step."""
    pl = plans[i]
    if pl[3] < 0:
        return 4
    r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
    td = abs(pl[3] - r) + abs(pl[4] - c)
    if td == 0 and _waits(pos, sc, t, i):
        return 4
    best, top = 4, 0
    for d in range(4):
        y, x = r + _DR[d], c + _DC[d]
        if not (0 <= y < _N and 0 <= x < _N):
            continue
        blocked = False
        for j in range(_B):
            if j < i:
                s = plans[j][5]
                blocked = int(pos[0, j, 0]) + _DR[s] == y and int(pos[0, j, 1]) + _DC[s] == x
            elif j > i:
                blocked = int(pos[0, j, 0]) == y and int(pos[0, j, 1]) == x
            if blocked:
                break
        if blocked:
            continue
        w = 1
        if td > 0 and abs(pl[3] - y) + abs(pl[4] - x) >= td:
            w = 0
        elif _on_boundary(pl, y, x):
            w = 2
        if w > top:
            best, top = d, w
    return best


import itertools  # noqa: E402 (the module follows export/py/common.py)

# ---- The ring planes (rings=true): rules/rectangle/ring.go's RingOf and
# RingSteps, the encloser bot's choice with no memory.
# The constants of the rule ring_rule names (ring.go RuleOf): alpha,
# hazard, max side, still, stall, cool.
_RING_RULES = {"encloser": (1.5, 1.0, 20, 3, 10, 20), "mason": (0.0, 1.5, 8, 3, 6, 4)}
_RING_RULE = _RING_RULES.get(str(PARAMS.get("ring_rule", "encloser")).strip(), _RING_RULES["encloser"])
_RING_ALPHA, _RING_HAZARD, _RING_MAX_SIDE = _RING_RULE[:3]
_RING_STILL, _RING_STALL, _RING_COOL = _RING_RULE[3:]  # RingKept (ring_memory=true)
_RING_GUARD_SHARE = 0.5  # RingGuard (ring_guard=true)
_RING_FREE = str(PARAMS.get("ring_step", "first")).strip() == "free"  # RingMoves' free (ring_step=free)


def _all_rects():
    """The row pairs (r1, r2) of the rectangles Best scans, in its scan
    order; the column pairs are the same. Rectangles are their outer
    product, row pair major: (r1, r2, c1, c2) in Best's order."""
    pairs = [(a, z) for a in range(_N) for z in range(a + 2, min(_N, a + _RING_MAX_SIDE))]
    if not pairs:
        return None
    p = np.array(pairs, dtype=np.int64)
    return p[:, 0], p[:, 1]


_PAIRS = _all_rects() if _RINGS else None


def _scan_index():
    """The corners of every scanned rectangle (flattened, row pair major)."""
    lo, hi = _PAIRS
    r1, r2 = np.repeat(lo, len(lo)), np.repeat(hi, len(lo))
    c1, c2 = np.tile(lo, len(lo)), np.tile(hi, len(lo))
    return r1, c1, r2, c2


_SCAN = _scan_index() if _RINGS else None
# Rings.Assign's robot orders: every permutation in lexicographic order
# (rules.NextPermutation from the identity), the identity alone past 6 robots.
_ORDERS = (list(itertools.permutations(range(_B))) if _B <= 6 else [tuple(range(_B))]) if _RINGS else None


def _scan_sums(prefix):
    """The sums of a prefix table [n+1, n+1] over every scanned rectangle's
    whole area and over its interior (flattened, row pair major): the
    column pairs' sums of every prefix row first, then the row pairs'
    differences of those rows (whole rows gathered, not single cells)."""
    lo, hi = _PAIRS
    cols = prefix[:, hi + 1] - prefix[:, lo]     # [n+1, pairs]: columns c1..c2
    cols_in = prefix[:, hi] - prefix[:, lo + 1]  # columns c1+1..c2-1
    return (cols[hi + 1] - cols[lo]).ravel(), (cols_in[hi] - cols_in[lo + 1]).ravel()


def _psum(prefix, r, c, h, w):
    return prefix[r + h, c + w] - prefix[r, c + w] - prefix[r + h, c] + prefix[r, c]


def _pboundary(prefix, r1, c1, r2, c2):
    h, w = r2 - r1 + 1, c2 - c1 + 1
    return _psum(prefix, r1, c1, h, w) - _psum(prefix, r1 + 1, c1 + 1, h - 2, w - 2)


def _valid(unp, bad, r1, c1, r2, c2):
    """Rings.Valid: the rectangle's gain (its paintable interior cells), 0
    if a boundary cell is unpaintable or blocked or no interior cell is
    paintable (bad None: no cell is blocked)."""
    if _pboundary(unp, r1, c1, r2, c2) != 0 or bad is not None and _pboundary(bad, r1, c1, r2, c2) != 0:
        return 0
    return max(0, (r2 - r1 - 1) * (c2 - c1 - 1) - int(_psum(unp, r1 + 1, c1 + 1, r2 - r1 - 1, c2 - c1 - 1)))


def _rdist(r1, c1, r2, c2, r, c):
    """Rect.Dist: the Manhattan distance from (r, c) to the boundary."""
    dr = max(r1 - r, r - r2, 0)
    dc = max(c1 - c, c - c2, 0)
    if dr > 0 or dc > 0:
        return dr + dc
    return min(r - r1, r2 - r, c - c1, c2 - c)


def _pair_terms(v):
    """For every row (or column) pair of the scan: how far v lies outside
    the pair's span (0 within it), and how far inside it from the nearer end
    (negative outside). A rectangle's Rect.Dist is the sum of its pairs'
    outside terms where that is positive, else the smaller inside term."""
    lo, hi = _PAIRS
    return np.maximum(np.maximum(lo - v, v - hi), 0), np.minimum(v - lo, hi - v)


def _scan_dist(r, c):
    """Rect.Dist from (r, c) for every scanned rectangle (row pair major)."""
    (dr, ir), (dc, ic) = _pair_terms(r), _pair_terms(c)
    out = dr[:, None] + dc[None, :]
    return np.where(out > 0, out, np.minimum(ir[:, None], ic[None, :])).ravel()


def _cand_dist(r, c, cand, rp, cp):
    """Rect.Dist from (r, c) for the scanned rectangles cand (flat indices;
    rp, cp their row and column pairs): gathered from the pair terms when
    they are few, else taken from the whole scan."""
    if len(cand) * 4 > len(_SCAN[0]):
        return _scan_dist(r, c)[cand]
    (dr, ir), (dc, ic) = _pair_terms(r), _pair_terms(c)
    out = dr[rp] + dc[cp]
    return np.where(out > 0, out, np.minimum(ir[rp], ic[cp]))


def _perimeter(q):
    """Rect.Perimeter: q's boundary cells clockwise from the top-left corner."""
    R1, C1, R2, C2 = q
    per = [(R1, c) for c in range(C1, C2)] + [(r, C2) for r in range(R1, R2)]
    return per + [(R2, c) for c in range(C2, C1, -1)] + [(r, C1) for r in range(R2, R1, -1)]


def _guarded(b, guard):
    """markGuarded: the boundary cells of the rivals' rings guard[k] (k >= 1,
    None: none) that rival k has painted at least _RING_GUARD_SHARE of."""
    out = np.zeros((_N, _N), dtype=bool)
    for k in range(1, _P):
        if guard[k] is None:
            continue
        per = _perimeter(guard[k])
        if sum(1 for y, x in per if b[y, x] == k) < _RING_GUARD_SHARE * len(per):
            continue
        for y, x in per:
            out[y, x] = True
    return out


class _Unpaintable:
    """The unpaintable cells' prefix table and, once asked, their sums over
    every scanned rectangle's whole area and interior: the same in every
    seat's view of one position (the guard's rings of all seats share it)."""

    def __init__(self, b):
        self.prefix, self._sums = _prefix(b == -2), None

    def sums(self):
        if self._sums is None:
            self._sums = _scan_sums(self.prefix)
        return self._sums


def _ring(b, pos, plans, moving=None, parked=None, keep=None, guard=None, unp=None):
    """RingOf (moving and parked None: every rival robot moves, none is
    parked), or with keep the part of RingKept after its memory test: keep
    is taken again if still valid; guard (None: none) the rivals' rings to
    keep off (RingKept's guard). plans may be a function that returns them
    (asked only if a ring is sought); unp an _Unpaintable of b. Returns the
    ring (r1, c1, r2, c2), its boundary cells clockwise from the top-left
    corner, the indices of those to paint and each robot's arc; None
    without a ring."""
    if _SCAN is None:
        return None
    rivals = np.zeros((_N, _N), dtype=np.int64)
    np.add.at(rivals, (pos[1:, :, 0].ravel(), pos[1:, :, 1].ravel()), 1)
    blocked = rivals >= 2
    if parked is not None:
        blocked |= parked
    bad = (b != 0) & blocked
    if guard is not None:
        bad |= _guarded(b, guard)
    any_bad = bool(bad.any())
    unp = unp or _Unpaintable(b)
    bad = _prefix(bad)
    q = keep if keep is not None and _valid(unp.prefix, bad, *keep) > 0 else None
    if q is None:
        q = _best(b, pos, plans() if callable(plans) else plans, moving, unp, _prefix(b == 0), bad if any_bad else None)
        if q is None:
            return None
    return (q,) + _arcs(b, pos, q, rivals)


def _best(b, pos, plans, moving, unps, mine, bad):
    """Rings.Best against RingAlpha × SquaresRate: the ring, or None. unps
    is an _Unpaintable; bad None: no blocked cell."""
    unp = unps.prefix
    squares = 0.0
    for i, pl in enumerate(plans):
        R, C, K = pl[0], pl[1], pl[2]
        if K == 0:
            continue
        R2, C2 = R + K - 1, C + K - 1
        g = _valid(unp, bad, R, C, R2, C2)
        if g > 0:
            u = 4 * (K - 1) - int(_pboundary(mine, R, C, R2, C2))
            d = _rdist(R, C, R2, C2, int(pos[0, i, 0]), int(pos[0, i, 1]))
            squares += float(g) / float(u + d + 1)
    floor = _RING_ALPHA * squares
    r1, c1, r2, c2 = _SCAN
    unp_out, unp_in = unps.sums()
    ok = unp_out == unp_in
    if bad is not None:
        bad_out, bad_in = _scan_sums(bad)
        ok &= bad_out == bad_in
    g = (r2 - r1 - 1) * (c2 - c1 - 1) - unp_in
    ok &= g > 0
    far = _scan_dist(int(pos[0, 0, 0]), int(pos[0, 0, 1]))
    for i in range(1, _B):
        far = np.maximum(far, _scan_dist(int(pos[0, i, 0]), int(pos[0, i, 1])))
    mine_out, mine_in = _scan_sums(mine)
    u = 2 * (r2 - r1) + 2 * (c2 - c1) - (mine_out - mine_in)
    t = far + (u + _B - 1) // _B
    # The hazard only adds time, so a rectangle whose rate without it is
    # below floor cannot be the answer (Best's bound); the hazard is summed
    # over the others alone, which keeps their scan order.
    cand = np.flatnonzero(ok & (g.astype(np.float64) / (t + 1).astype(np.float64) >= floor))
    if len(cand) == 0:
        return None
    t, g = t[cand], g[cand]
    tf = t.astype(np.float64)
    h = np.zeros(len(cand), dtype=np.float64)
    rp, cp = np.divmod(cand, len(_PAIRS[0]))
    for k in range(1, _P):  # the moving rival robots, in Best's order
        for j in range(_B):
            if moving is None or moving[k, j]:
                h += tf / (1 + _cand_dist(int(pos[k, j, 0]), int(pos[k, j, 1]), cand, rp, cp)).astype(np.float64)
    t = t + (_RING_HAZARD * h).astype(np.int64)
    rate = g.astype(np.float64) / (t + 1).astype(np.float64)
    k = int(np.argmax(rate))  # the first in scan order among equals
    if rate[k] < floor:
        return None
    k = int(cand[k])
    return (int(r1[k]), int(c1[k]), int(r2[k]), int(c2[k]))


def _arcs(b, pos, q, rivals):
    """Rings.Needs and Assign: ring q's boundary, the indices of its cells to
    paint and each robot's arc."""
    per = _perimeter(q)
    need = [k for k, (y, x) in enumerate(per) if b[y, x] != 0 and rivals[y, x] == 0]
    arcs = [(0, 0)] * _B
    U, L = len(need), len(per)
    if U > 0:  # Rings.Assign
        runs = min(_B, U)
        best_cost = 1 << 30
        step = max(1, U // runs // 3)
        for rot in range(0, max(1, U // runs), step):
            st = [(rot + k * U // runs) % U for k in range(runs)]
            ln = [(k + 1) * U // runs - k * U // runs for k in range(runs)]
            for perm in _ORDERS:
                cost = 0
                for i in range(_B):
                    k = perm[i]
                    if k < runs:
                        p0, p1 = per[need[st[k]]], per[need[(st[k] + ln[k] - 1) % U]]
                        r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
                        d = min(abs(p0[0] - r) + abs(p0[1] - c), abs(p1[0] - r) + abs(p1[1] - c))
                        cost = max(cost, d + ln[k])
                if cost < best_cost:
                    best_cost = cost
                    arcs = []
                    for i in range(_B):
                        k = perm[i]
                        if k < runs:
                            a, z = need[st[k]], need[st[(k + 1) % runs]]
                            arcs.append((a, L if runs == 1 else (z - a + L) % L))
                        else:
                            arcs.append((0, 0))
    return per, need, arcs


# RingKept's memory (ring_memory=true): the bot is called once a move, and
# keeps what the Go state keeps (rectangle.State's ringTrack): its own seat's
# memory, and with ring_guard=true every seat's (in view labels), since a
# seat guards against the rings its rivals kept before the move. A call
# whose move_num does not follow the last one's starts afresh.
_MEM = {"t": -1, "prev": None, "still": None, "seats": None}


def _ring_kept(b, pos, plans, sc, t):
    """RingKept with the module's memory, updated: the ring as _ring
    returns it, or None."""
    m = _MEM
    if t != m["t"] + 1 or t == 1 or m["prev"] is None:
        m.update(still=np.zeros((_P, _B), dtype=np.int64), seats=[
                 {"kept": None, "low": 0, "since": 0, "off": 0} for _ in range(_P if _RING_GUARD else 1)])
    else:
        m["still"] = np.where((pos == m["prev"]).all(axis=2), m["still"] + 1, 0)
    m["t"], m["prev"] = t, pos.copy()
    if not _RING_GUARD:
        return _seat_kept(b, pos, plans, m["still"], m["seats"][0], None)
    kept = [seat["kept"] for seat in m["seats"]]  # the rings kept before this move
    unp = _Unpaintable(b)  # the same in every seat's view
    ring = None
    for k in range(_P):  # seat k's view: label j is our label (k + j) mod p
        if k == 0:
            bk, pk, plk, sk = b, pos, plans, m["still"]
        else:
            bk = np.where(b >= 0, (b - k) % _P, b)
            pk, sk = np.roll(pos, -k, axis=0), np.roll(m["still"], -k, axis=0)
            plk = (lambda bk=bk, pk=pk, sck=np.roll(sc, -k): _plans(bk, pk, sck, t))  # only if sought
        r = _seat_kept(bk, pk, plk, sk, m["seats"][k], [kept[(k + j) % _P] for j in range(_P)], unp)
        if k == 0:
            ring = r
    return ring


def _seat_kept(b, pos, plans, still, m, guard, unp=None):
    """RingKept for one seat's view with its memory m (updated) and its
    robots' still counts: the ring as _ring returns it, or None. plans and
    unp as _ring takes them."""
    moving = still < _RING_STILL
    parked = np.zeros((_N, _N), dtype=bool)
    for k in range(1, _P):
        for j in range(_B):
            if not moving[k, j]:
                parked[pos[k, j, 0], pos[k, j, 1]] = True
    if m["off"] > 0:
        m["off"] -= 1
        return None
    ring = _ring(b, pos, plans, moving, parked, m["kept"], guard, unp)
    if ring is None:
        m["kept"] = None
        return None
    q, per, need, arcs = ring
    if q != m["kept"]:
        m.update(kept=q, low=1 << 30, since=0)
    pot = len(need) + sum(max(_target(b, pos, q, per, need, arcs, i)[2], 0) for i in range(_B))
    if pot < m["low"]:
        m["low"], m["since"] = pot, 0
    else:
        m["since"] += 1
        if m["since"] >= _RING_STALL:
            m["kept"], m["off"] = None, _RING_COOL
    return ring


def _target(b, pos, q, per, need, arcs, i):
    """Rings.Target: robot i's target on ring q and its distance (td < 0:
    none)."""
    R1, C1, R2, C2 = q
    r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
    if b[r, c] != 0 and R1 <= r <= R2 and C1 <= c <= C2 and (r in (R1, R2) or c in (C1, C2)):
        return r, c, 0
    tr, tc, td = -1, -1, -1
    L = len(per)
    for pas in range(2):  # own arc first, then anywhere
        if td >= 0:
            break
        for k in need:
            if pas == 0 and (k - arcs[i][0] + L) % L >= arcs[i][1]:
                continue
            y, x = per[k]
            d = abs(y - r) + abs(x - c)
            if td < 0 or d < td:
                tr, tc, td = y, x, d
    return tr, tc, td


def _ring_steps(b, pos, q, per, need, arcs, i, blocked=None):
    """RingSteps: the directions (indices) among which the encloser draws
    robot i's step toward its target on ring q; with blocked(y, x), among
    the steps it allows (ringSteps)."""
    R1, C1, R2, C2 = q

    def on_boundary(y, x):
        return R1 <= y <= R2 and C1 <= x <= C2 and (y in (R1, R2) or x in (C1, C2))

    r, c = int(pos[0, i, 0]), int(pos[0, i, 1])
    tr, tc, td = _target(b, pos, q, per, need, arcs, i)
    if td < 0:
        return [4]
    out, top = [], 0
    for d in range(4):
        y, x = r + _DR[d], c + _DC[d]
        if not (0 <= y < _N and 0 <= x < _N) or (td > 0 and abs(y - tr) + abs(x - tc) >= td):
            continue
        if blocked is not None and blocked(y, x):
            continue
        w = 2 if on_boundary(y, x) else 1
        if w > top:
            out, top = [d], w
        elif w == top:
            out.append(d)
    return out or [4]


def _ring_moves(b, pos, q, per, need, arcs):
    """RingMoves: robot by robot, the first of its _ring_steps that no later
    robot of its own holds and no earlier one steps onto (OwnBlocked), else
    X; with ring_step=free the first of the best steps among those."""
    dest = []
    out = []
    for i in range(_B):
        def blocked(y, x):
            return (y, x) in dest or any(int(pos[0, j, 0]) == y and int(pos[0, j, 1]) == x for j in range(i + 1, _B))
        d = 4
        for s in _ring_steps(b, pos, q, per, need, arcs, i, blocked if _RING_FREE else None):
            if s == 4:
                continue
            if blocked(int(pos[0, i, 0]) + _DR[s], int(pos[0, i, 1]) + _DC[s]):
                continue
            d = s
            break
        out.append(d)
        dest.append((int(pos[0, i, 0]) + _DR[d], int(pos[0, i, 1]) + _DC[d]))
    return out


def observe(b, pos, sc, t):
    """The planes [2p+3b+6 (+6 with rings), n, n] and scalars [2+p] of
    Encoder.Observe."""
    planes = np.zeros((_NUM_PLANES, _N, _N), dtype=np.float32)
    planes[0] = b == -2                       # unpaintable
    planes[1] = b == -1                       # unpainted
    for k in range(_P):
        planes[2 + k] = b == k                # paint_k
    if pos is not None:
        for i in range(_B):                   # own_robot_i
            planes[_P + 2 + i, pos[0, i, 0], pos[0, i, 1]] = 1
        for k in range(1, _P):                # robots_k: how many on the cell
            np.add.at(planes[_P + _B + 1 + k], (pos[k, :, 0], pos[k, :, 1]), 1)
    plans = _plans(b, pos, sc, t)
    for i, (R, C, K, tr, tc, d) in enumerate(plans):
        if K == 0:
            continue
        plan = planes[2 * _P + _B + 1 + i]    # plan_i: boundary 1, target 2
        plan[R, C:C + K] = plan[R + K - 1, C:C + K] = 1
        plan[R:R + K, C] = plan[R:R + K, C + K - 1] = 1
        if tr >= 0:
            plan[tr, tc] = 2
        step = planes[2 * _P + 2 * _B + 1 + i]  # step_i: where the plan sends robot i
        if t == 0:
            step[R, C] = 1
        else:
            step[pos[0, i, 0] + _DR[d], pos[0, i, 1] + _DC[d]] = 1
    if t > 0:
        for i, pl in enumerate(plans):       # go_d: the robots' steps on their cells
            planes[2 * _P + 3 * _B + 1 + pl[5], pos[0, i, 0], pos[0, i, 1]] += 1
        ring = None
        if _RING_MEMORY:
            ring = _ring_kept(b, pos, plans, sc, t)
        elif _RINGS:
            ring = _ring(b, pos, plans)
        if ring is not None:
            q, per, need, arcs = ring
            base = 2 * _P + 3 * _B + 6
            for y, x in per:                  # ring: 1 painted 0, 2 to paint
                planes[base, y, x] = 1 if b[y, x] == 0 else 2
            # ring_go_d: the robots' choices on their cells; with memory
            # the one step each takes (ringer's), else every candidate.
            moves = _ring_moves(b, pos, q, per, need, arcs) if _RING_MEMORY else None
            for i in range(_B):
                for d in ([moves[i]] if moves else _ring_steps(b, pos, q, per, need, arcs, i)):
                    planes[base + 1 + d, pos[0, i, 0], pos[0, i, 1]] += 1
    f32 = np.float32
    s = np.zeros(_NUM_SCALARS, dtype=np.float32)
    s[0] = 1 if t == 0 else 0                 # placement
    s[1] = f32(t) / f32(_M)                   # move_num
    s[2:] = sc.astype(np.float32) / f32(_NN)  # score_k
    return planes, s


def legal_mask(t):
    """Encoder.Mask: every cell of every head at the placement, the five
    directions of every head at a move."""
    mask = np.zeros((_B, _NN + 5), dtype=bool)
    if t == 0:
        mask[:, :_NN] = True
    else:
        mask[:, _NN:] = True
    return mask


def _fits():
    a = ARCH
    return (a.get("game") == "rectangle" and a["planes"] == _NUM_PLANES and a["scalars"] == _NUM_SCALARS
            and a["height"] == _N and a["width"] == _N and a["heads"] == _B and a["actions"] == _NN + 5)


_FITS = _fits()


def _default(move_num, robots):
    """A valid answer for when the network cannot answer: robot i on (0, i)
    at the placement, all robots stay at a move. The phase is move_num's, or
    with a malformed move_num, the placement iff no robot is listed."""
    try:
        place = int(move_num) == 0
    except Exception:
        try:
            place = not any(len(r) for r in robots)
        except Exception:
            place = False
    if place:
        return [(0, i % _N) for i in range(_B)]
    return "X" * _B


def _opening_cells(k, u):
    """rectangle.OpeningCells: robot i's cell round the k x k square in the
    corner that u[0] (< 0.5: top) and u[1] (< 0.5: left) draw, clockwise
    from its top-left corner, from the offset that u[2] draws."""
    r0 = _N - k if u[0] >= 0.5 else 0
    c0 = _N - k if u[1] >= 0.5 else 0
    per = ([(r0, c0 + j) for j in range(k - 1)] + [(r0 + j, c0 + k - 1) for j in range(k - 1)]
           + [(r0 + k - 1, c0 + k - 1 - j) for j in range(k - 1)] + [(r0 + k - 1 - j, c0) for j in range(k - 1)])
    L = len(per)
    off = int(u[2] * float(max(1, L // _B)))
    return [per[(off + i * L // _B) % L] for i in range(_B)]


def bot(board=None, robots=None, scores=None, move_num=None, *_):
    """The Rectangle entry point (R18): the network's most probable action of
    every robot. Never raises (missing or extra arguments included); a
    malformed request gets _default's answer."""
    try:
        req = _read_request(board, robots, scores, move_num)
        if req is not None and _FITS:
            b, pos, sc, t = req
            planes, scalars = observe(b, pos, sc, t)
            if t == 0 and 3 <= OPENING <= _N:
                # neural.Agent's opening (Play.Opening): the draws
                # neural.OpeningDraw, head 1000 + i, keyed by the observation.
                key = obs_key(planes, scalars)
                return _opening_cells(OPENING, [_draw(key, 1000 + i) for i in range(3)])
            acts = choose(net_logits(planes, scalars)[0], legal_mask(t), planes, scalars, t)
            if t == 0 and all(0 <= a < _NN for a in acts):
                return [(int(a // _N), int(a % _N)) for a in acts]   # a = r*n + c
            if t > 0 and all(_NN <= a < _NN + 5 for a in acts):
                return "".join(_DIRS[a - _NN] for a in acts)
    except Exception:
        pass
    return _default(move_num, robots)
