"""util: the helper module the Rising Tide competition ships beside the bots
(written for gridgym from the rules, shared/rules/rising-tide.md; the same
names and behaviour as the competition's util.py, in plain Python without
NumPy). A bot file does `import util` and ends with

    bot = util.make_bot("My Bot", "MB", my_bot_fn)          # R18

gridgym makes this module importable by every hosted Rising Tide bot (a
util.py in the bot's own folder takes precedence) and `gridgym new-bot --game
rising-tide` writes it beside the template.

Coordinates are (i, j) = (row, column) of the bot's own view (R1, R20): its
settlement is at (5, 5).
"""
import typing

BOARD_SIZE = 18  # R1

# The four settlement cells, in the bot's view: its own first (R4, R20).
CITIES = [
    (5, 5),
    (5, 12),
    (12, 12),
    (12, 5),
]

SINK_RATE = 1 / 100  # the water level of round r is r * SINK_RATE (R6)


def _start_height(i, j):
    if (i, j) in CITIES:
        return 0
    return min(i, j, BOARD_SIZE - 1 - i, BOARD_SIZE - 1 - j, 5) + 1  # R3


# The start board (R3, R4), as a list of lists of ints.
START_TERRAIN = [[_start_height(i, j) for j in range(BOARD_SIZE)] for i in range(BOARD_SIZE)]


def copy_grid(grid: list[list[int]]) -> list[list[int]]:
    """A deep copy of a list of lists, every value made a Python int."""
    return [[int(num) for num in row] for row in grid]


def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The taxicab (Manhattan) distance between two cells."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


_NEARBY = {}
for _i in range(BOARD_SIZE):
    for _j in range(BOARD_SIZE):
        _NEARBY[(_i, _j)] = {
            (_i + di, _j + dj)
            for di in (-1, 0, 1)
            for dj in (-1, 0, 1)
            if (di, dj) != (0, 0) and 0 <= _i + di < BOARD_SIZE and 0 <= _j + dj < BOARD_SIZE
        }


def nearby(pos: tuple[int, int]) -> set[tuple[int, int]]:
    """The set of pos's 8-neighbours on the board (diagonals included)."""
    return _NEARBY[tuple(pos)]


def in_bounds(pos: tuple[int, int]) -> bool:
    """Whether pos is on the board."""
    return 0 <= pos[0] < BOARD_SIZE and 0 <= pos[1] < BOARD_SIZE


def is_legal(terrain: list[list[int]], src: tuple[int, int], dst: tuple[int, int]) -> bool:
    """Whether moving one unit of land from src to dst is legal (R10c-e; like
    the competition's, it does not check that the cells are neighbours, R10b:
    pass neighbours, e.g. from nearby())."""
    if not in_bounds(src) or not in_bounds(dst):
        return False
    if terrain[src[0]][src[1]] <= 0:
        return False
    if terrain[dst[0]][dst[1]] == -1 or terrain[dst[0]][dst[1]] == 8:
        return False
    return tuple(src) not in CITIES and tuple(dst) not in CITIES


def allowed_moves(terrain: list[list[int]]) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """Every legal move ((i1, j1), (i2, j2)) between neighbours."""
    allowed = set()
    for i in range(BOARD_SIZE):
        for j in range(BOARD_SIZE):
            for dst in _NEARBY[(i, j)]:
                if is_legal(terrain, (i, j), dst):
                    allowed.add(((i, j), dst))
    return allowed


def is_near_water(terrain: list[list[int]], pos: tuple[int, int]) -> bool:
    """Whether pos has a flooded 8-neighbour or is on the board's edge."""
    for i, j in nearby(pos):
        if terrain[i][j] == -1:
            return True
    return 0 in pos or BOARD_SIZE - 1 in pos


def rotate_move(plr: int, move):
    """A move of seat plr's view in the real board's coordinates (R20's
    view -> real map with k = plr); None stays None."""
    if move is None:
        return None
    (i1, j1), (i2, j2) = move
    for _ in range(plr):
        i1, j1 = BOARD_SIZE - 1 - j1, i1
        i2, j2 = BOARD_SIZE - 1 - j2, i2
    return (i1, j1), (i2, j2)


def flood(terrain: list[list[int]], round_num: int) -> list[list[int]]:
    """The board after round round_num's flood step (R12): a land cell below
    the water level floods if it is on the edge or next to a flooded cell
    (flooded before this step)."""
    n = BOARD_SIZE
    out = copy_grid(terrain)
    for i in range(n):
        for j in range(n):
            h = terrain[i][j]
            if h < 0 or not h < round_num * SINK_RATE:
                continue
            if i in (0, n - 1) or j in (0, n - 1) or any(terrain[a][b] == -1 for a, b in _NEARBY[(i, j)]):
                out[i][j] = -1
    return out


class Bot(typing.NamedTuple):
    """A competition bot: its name, its two-letter code and its function
    my_bot_fn(terrain, round_num)."""

    name: str
    code: str
    func: typing.Callable


def make_bot(name: str, code: str, func: typing.Callable) -> Bot:
    """The bot the tournament imports (R18)."""
    return Bot(name, code, func)
