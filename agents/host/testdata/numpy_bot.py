"""A Rising Tide bot that uses NumPy (a 200x200 matrix product and an
argmax over the terrain), for sandbox_test.go: it must run under the
sandbox's default limits."""
import numpy as np


def my_bot_fn(terrain, round_num):
    a = np.arange(40000, dtype=np.float64).reshape(200, 200) / 40000.0
    b = a @ a.T
    t = np.asarray(terrain)
    if not np.isfinite(b).all() or t.shape != (18, 18):
        return None
    return None
