# A Rising Tide bot in the competition's form (rising-tide R18): it imports
# the competition's util module, which gridgym ships (rules/risingtide/pylib, declared on its registration).
import util


def my_bot_fn(terrain, round_num):
    moves = sorted(util.allowed_moves(terrain))
    return moves[0] if moves else None


bot = util.make_bot("Util User", "UU", my_bot_fn)
