"""An opponent's bot file, which hostile.py's snoop tries to read: the
sandbox must keep it out of reach (sandbox_test.go)."""
SECRET = "opponent-secret-4f1c"


def my_bot_fn(terrain, round_num):
    return None
