# ---- Nuggets (rules/nuggets.md §5) -----------------------------------------
# The competition calls bot(board, move_num) (R17):
#   board     20 lists (rows y) of 20 ints, board[y][x]: -1 empty, otherwise
#             (owner - seat) mod 4, so 0 is our own colour (R18; no rotation);
#   move_num  the 0-based move t, 0..259 (R19).
# It answers (x, y), two Python ints in 0..19, x (the column) first (R20).
#
# The request is already gridgym's canonical frame (rules/nuggets/doc.go,
# "Learner interface"): no rotation, seats relabelled own = 0. The code below
# rebuilds exactly the planes and scalars of rules/nuggets/encode.go; the game
# lengths and the decay table come from the training parameters (PARAMS).
import math as _math

_N = 20                  # board side (R1)
_CELLS = _N * _N         # squares, and the action of Pass under invalid_query=pass
_SEATS = 4
_LOG_SCORE_SCALE = 25.0  # nuggets.LogScoreScale
_DEFAULT_DECAY = "121-200:5,4,2,1,0;6-120:8,6,4,3,1;1-5:10,8,12,8,3"
_NUM_PLANES, _NUM_SCALARS = 12, 9
_SIZE_CAP = 60             # nuggets.SizeCap
_TUNED = (0.15, 0.07, 0.001, 0.1)  # nuggets.TunedWeights: Singleton, Compact, Room, Attack
_TIE = 1e-9                # nuggets.Tie


def _param_int(name, default):
    try:
        return int(str(PARAMS.get(name, default)).strip())
    except (TypeError, ValueError):
        return default


_SETUP = _param_int("setup_moves", 60)
_BUILD = _param_int("build_moves", 200)
_TOTAL = _SETUP + _BUILD
_PASS = str(PARAMS.get("invalid_query", "origin")).strip() == "pass"


def _decay_table(text, build):
    """base[m] = the 5 base percentages (N = 0..4) for m = 1..build moves
    left (nuggets.ParseDecayTable, "lo-hi:b0,b1,b2,b3,b4;..."); row 0 and
    moves left outside every band are 0, as Go's config.base."""
    base = np.zeros((build + 1, 5), dtype=np.int64)
    for part in text.split(";"):
        rng, vals = part.split(":")
        lo, hi = (int(v) for v in rng.split("-"))
        row = [int(v) for v in vals.split(",")]
        for m in range(lo, min(hi, build) + 1):
            base[m] = row
    return base


try:
    _BASE = _decay_table(str(PARAMS.get("decay_table", _DEFAULT_DECAY)), _BUILD)
except Exception:  # an unreadable table: the written rules' (R12)
    _BASE = _decay_table(_DEFAULT_DECAY, _BUILD)


def _read_board(board):
    """board as an int64 array [20, 20] with values in -1..3, or None."""
    return int_grid(board, _N, _N, -1, 3)


def _read_move_num(move_num):
    if isinstance(move_num, (bool, np.bool_)):
        return None
    if isinstance(move_num, (int, np.integer)) and move_num >= 0:
        return int(move_num)
    return None


def _same_neighbours(b):
    """N(s) of R12: same-colour side neighbours of each coloured square (0
    for an empty one)."""
    col = b >= 0
    n = np.zeros(b.shape, dtype=np.int64)
    h = (b[:, :-1] == b[:, 1:]) & col[:, :-1]  # (x, y) and (x+1, y) agree
    v = (b[:-1, :] == b[1:, :]) & col[:-1, :]  # (x, y) and (x, y+1) agree
    n[:, :-1] += h
    n[:, 1:] += h
    n[:-1, :] += v
    n[1:, :] += v
    return n


def _nuggets(b):
    """Each label's log-score (R15), the sum of ln(size) over its nuggets,
    added in the row-major order of the nuggets' first squares as Go's
    fastLogScore does; and, per square, its nugget's size and number (0 for
    an empty square)."""
    flat = b.ravel().tolist()
    comp = [0] * _CELLS
    sizes = [0]                          # nugget sizes by number (1, 2, ...)
    scores = [0.0] * _SEATS
    for start in range(_CELLS):
        lab = flat[start]
        if lab < 0 or comp[start]:
            continue
        k = len(sizes)
        comp[start] = k
        stack, size = [start], 0
        while stack:  # flood fill of the nugget of start
            c = stack.pop()
            size += 1
            y, x = divmod(c, _N)
            for d, ok in ((c - _N, y > 0), (c + _N, y < _N - 1), (c - 1, x > 0), (c + 1, x < _N - 1)):
                if ok and not comp[d] and flat[d] == lab:
                    comp[d] = k
                    stack.append(d)
        sizes.append(size)
        scores[lab] += _math.log(size)
    return scores, flat, comp, sizes


def _size_planes(planes, flat, comp, sizes):
    """Planes 7..10 of rules/nuggets/encode.go (nuggetPlanes): own_size,
    rival_size, join_size (1 + the sizes of the distinct own nuggets a square
    not our own side-touches) and join_count, sizes capped at _SIZE_CAP."""
    own, riv, join, count = (p.reshape(-1) for p in planes[7:11])
    for c in range(_CELLS):
        lab = flat[c]
        if lab == 0:
            own[c] = min(sizes[comp[c]], _SIZE_CAP)
            continue
        if lab > 0:
            riv[c] = min(sizes[comp[c]], _SIZE_CAP)
        y, x = divmod(c, _N)
        seen, total = [], 1
        for d, ok in ((c - _N, y > 0), (c + _N, y < _N - 1), (c - 1, x > 0), (c + 1, x < _N - 1)):
            if ok and flat[d] == 0 and comp[d] not in seen:
                seen.append(comp[d])
                total += sizes[comp[d]]
        join[c] = min(total, _SIZE_CAP)
        count[c] = len(seen)


def _greedy_best(t, flat, comp, sizes):
    """Plane 11, greedy_best: 1 on the squares within _TIE of the top score
    of greedy_tuned's one-ply evaluation (rules/nuggets/greedy.go, Evaluate
    and BestSquares, step for step), all 0 once the game is over."""
    plane = np.zeros(_CELLS, dtype=np.float32)
    if t >= _TOTAL:
        return plane
    single_w, compact, room_w, attack = _TUNED
    build = t >= _SETUP
    single = 0.0 if _TOTAL - t <= 1 else single_w

    def val(n):
        return single if n == 1 else _math.log(n)

    def neighbours(c):
        y, x = divmod(c, _N)  # Go's order: x+1, x-1, y+1, y-1
        return [d for d, ok in ((c + 1, x < _N - 1), (c - 1, x > 0), (c + _N, y < _N - 1), (c - _N, y > 0)) if ok]

    def split_value(c):
        lab, rest, total = flat[c], {c}, 0.0
        for d in neighbours(c):
            if flat[d] != lab or d in rest:
                continue
            rest.add(d)
            stack, n = [d], 0
            while stack:
                e = stack.pop()
                n += 1
                for f in neighbours(e):
                    if flat[f] == lab and f not in rest:
                        rest.add(f)
                        stack.append(f)
            total += val(n)
        return total

    neg = float("-inf")
    scores = [neg] * _CELLS
    best = neg
    for c in range(_CELLS):
        lab = flat[c]
        if lab == 0 or (lab > 0 and not build):
            continue
        seen, total, lost, room, mine = [], 1, 0.0, 0, 0
        for d in neighbours(c):
            if flat[d] == -1:
                room += 1
            elif flat[d] == 0:
                mine += 1
                if comp[d] not in seen:
                    seen.append(comp[d])
                    total += sizes[comp[d]]
                    lost += val(sizes[comp[d]])
        gain = val(total) - lost + compact * mine
        if lab < 0:
            score = gain + room_w * room
        else:
            score = 0.4 * gain
            if attack > 0:
                m = sizes[comp[c]]
                if 0.4 * (gain + attack * val(m)) >= best - _TIE:
                    score = 0.4 * (gain + attack * (val(m) - split_value(c)))
        scores[c] = score
        if score > best + _TIE:
            best = score
    top = max(scores)
    if top == neg:
        return plane
    plane[np.asarray(scores) >= top - _TIE] = 1
    return plane


def observe(b, t):
    """The planes [12, 20, 20] and scalars [9] of rules/nuggets/encode.go for
    the board b (view labels, -1 empty) before move t."""
    planes = np.zeros((_NUM_PLANES, _N, _N), dtype=np.float32)
    for k in range(_SEATS):              # own, next, opposite, previous
        planes[k] = b == k
    planes[4] = b == -1                  # empty
    n = _same_neighbours(b)
    planes[5] = n                        # same_neighbours
    if _SETUP <= t < _TOTAL:             # decay_base: only moves with decay
        planes[6] = np.where(b >= 0, _BASE[_TOTAL - t][n], 0)
    scores, flat, comp, sizes = _nuggets(b)
    _size_planes(planes, flat, comp, sizes)
    planes[11] = _greedy_best(t, flat, comp, sizes).reshape(_N, _N)
    f32 = np.float32
    s = np.zeros(_NUM_SCALARS, dtype=np.float32)
    s[0] = f32(t) / f32(_TOTAL)                                    # move_num
    s[1] = 1 if t >= _SETUP else 0                                 # build_phase
    if t < _SETUP:
        s[2] = f32(_SETUP - t) / f32(_SETUP)                       # setup_left
    if _BUILD > 0:
        s[3] = f32(min(_TOTAL - t, _BUILD)) / f32(_BUILD)          # build_left
    s[4] = f32(int((b >= 0).sum())) / f32(_CELLS)                  # colored
    for k, ls in enumerate(scores):                                # log_score_*
        s[5 + k] = f32(ls / _LOG_SCORE_SCALE)
    return planes, s


def legal_mask(t):
    """Encoder.Mask: every square while the game runs; Pass (action 400)
    always under invalid_query=pass."""
    mask = np.zeros((1, ARCH["actions"]), dtype=bool)
    if t < _TOTAL:
        mask[0, :_CELLS] = True
    if _PASS and ARCH["actions"] > _CELLS:
        mask[0, _CELLS] = True
    return mask


def _fits():
    a = ARCH
    return (a.get("game") == "nuggets" and a["planes"] == _NUM_PLANES and a["scalars"] == _NUM_SCALARS
            and a["height"] == _N and a["width"] == _N and a["heads"] == 1
            and a["actions"] == _CELLS + (1 if _PASS else 0))


_FITS = _fits()


def bot(board=None, move_num=None, *_):
    """The Nuggets entry point (R17): the network's most probable query as
    (x, y). Never raises (missing or extra arguments included): a malformed
    request, or a network that does not fit the game, answers (0, 0), what
    the rules make of an invalid answer anyway (R6). Under invalid_query=pass
    the network's Pass answers None, which queries nothing."""
    try:
        b, t = _read_board(board), _read_move_num(move_num)
        if b is None or t is None or not _FITS:
            return (0, 0)
        planes, scalars = observe(b, t)
        logits, _ = net_logits(planes, scalars)
        a = choose(logits, legal_mask(t), planes, scalars, t)[0]
        if 0 <= a < _CELLS:
            return (int(a % _N), int(a // _N))   # action y*20 + x -> (x, y)
        if a == _CELLS and _PASS:
            return None
    except Exception:
        pass
    return (0, 0)
