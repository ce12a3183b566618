# ---- gridgym seeded play-time draws (shared by every exported bot) ---------
# Seeded play-time sampling (gridgym export --temperature, or the play settings
# the weights store; the Go policy's Temperature, agents/neural/play.go).
# TEMPERATURE, TEMP_STEPS and SEED are set above by the exporter. With
# TEMPERATURE = T > 0 (and, if TEMP_STEPS > 0, only in the game's first
# TEMP_STEPS steps) each head samples from softmax(logits / T) over its legal
# actions with a draw that depends only on (seed, observation, head):
# SplitMix64 on uint64, emulated here with masks, so that the bot plays exactly
# what gridgym's Go policy plays with that seed. Two copies of one greedy bot
# see the same request at Rectangle's placement and choose the same cells; the
# competition tells a bot no seat, so copies differ only by their seed:
# SEED = None draws one per process (os.urandom), which breaks that symmetry
# (Slime's bot is a fresh process every move, R14, so it draws afresh every
# move); a fixed SEED makes the bot reproducible.
_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z):
    """SplitMix64's output function on a Python int (neural.Mix64)."""
    z &= _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _play_seed():
    if SEED is not None:
        return int(SEED) & _M64
    import os as _os
    return int.from_bytes(_os.urandom(8), "little")


_SEED = _play_seed()


def _draw(key, head):
    """neural.Draw: the uniform draw in [0, 1) of head for the observation
    of key (obs_key) under _SEED."""
    return (_mix64(_mix64(_SEED ^ key) + (head + 1) * _GOLDEN) >> 11) / 9007199254740992.0
# ---- end of the draws -------------------------------------------------------
