# ---- Slime: the competition's program protocol (rules R14, R15, R17) -------
# The bot is run once per move as `python3 slime_bot.py P,row0,...,rowN-1`
# and prints `r1 c1 r2 c2`. It sees the board as gridgym's learner did
# (R18): turned by np.rot90 with k = 0, 1, 3, 2 for players 1..4 so that its
# start corner is top-left, players relabelled own, next1, next2, next3 in
# turn order. "-1 -1 -1 -1" is a pass (coordinates off the board, R15).
import sys

PASS_LINE = "-1 -1 -1 -1\n"
_CANON_K = (0, 1, 3, 2)
# The 24 offsets (dr, dc), row-major over the 5x5 square without its centre.
_OFFSETS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if (dr, dc) != (0, 0)]


def parse_request(arg):
    """(player 1..4, board as an N x N int array of 0..4) or None."""
    if not isinstance(arg, str):
        return None
    parts = arg.strip().split(",")
    if len(parts) < 5 or len(parts[0]) != 1 or parts[0] not in "1234":
        return None
    rows = parts[1:]
    n = len(rows)
    if n < 4 or n > 8 or any(len(r) != n for r in rows):
        return None
    table = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4}
    try:
        board = np.array([[table[ch] for ch in r] for r in rows], dtype=np.int8)
    except KeyError:
        return None
    return int(parts[0]), board


def observe(player, board):
    """Planes [5, N, N] and the 9 scalars of gridgym's Slime encoder (v2)."""
    n = board.shape[0]
    seat = player - 1
    canon = np.rot90(board, _CANON_K[seat])
    planes = np.zeros((5, n, n), dtype=np.uint8)
    for i in range(4):
        planes[i] = canon == ((seat + i) % 4) + 1
    planes[4] = canon == 0
    scalars = np.zeros(9, dtype=np.float32)
    full = not planes[4].any()
    if not full:
        scalars[0] = 1  # a bot is asked on its own turn
    inv = np.float32(1) / np.float32(n * n)
    for i in range(5):
        scalars[4 + i] = np.float32(int(planes[i].sum())) * inv
    return planes, scalars


def legal(planes):
    """The legal actions [1, 24*N*N + 1]: every move of R8 from an own cell to
    an empty cell at distance 1 or 2 (or an own cell at distance 1), and the
    pass, in the canonical frame."""
    n = planes.shape[1]
    own, empty = planes[0].astype(bool), planes[4].astype(bool)
    mask = np.zeros((1, 24 * n * n + 1), dtype=bool)
    mask[0, -1] = True
    if not empty.any():
        return mask  # the game is over: pass only
    for o, (dr, dc) in enumerate(_OFFSETS):
        target = empty | own if max(abs(dr), abs(dc)) == 1 else empty
        ok = np.zeros((n, n), dtype=bool)
        r0, r1 = max(0, -dr), min(n, n - dr)
        c0, c1 = max(0, -dc), min(n, n - dc)
        ok[r0:r1, c0:c1] = own[r0:r1, c0:c1] & target[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        mask[0, o * n * n:(o + 1) * n * n] = ok.reshape(-1)
    return mask


def _to_real(n, k, r, c):
    # The inverse of np.rot90 by k on an n x n board, for one cell.
    for _ in range(k % 4):
        r, c = c, n - 1 - r
    return r, c


def main_answer(arg):
    """The output line for one request; never raises."""
    try:
        req = parse_request(arg)
        if req is None:
            return PASS_LINE
        player, board = req
        n = board.shape[0]
        if n != ARCH["height"]:
            return PASS_LINE
        planes, scalars = observe(player, board)
        mask = legal(planes)
        a = choose(net_logits(planes, scalars)[0], mask)[0]
        if a < 0 or a >= 24 * n * n:
            return PASS_LINE
        o, cell = divmod(a, n * n)
        r, c = divmod(cell, n)
        dr, dc = _OFFSETS[o]
        k = _CANON_K[player - 1]
        r1, c1 = _to_real(n, k, r, c)
        r2, c2 = _to_real(n, k, r + dr, c + dc)
        return "%d %d %d %d\n" % (r1, c1, r2, c2)
    except Exception:  # noqa: BLE001 - a bot must answer
        return PASS_LINE


if __name__ == "__main__":
    sys.stdout.write(main_answer(sys.argv[1] if len(sys.argv) > 1 else ""))
