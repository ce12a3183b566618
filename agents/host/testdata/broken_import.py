"""A bot whose import fails, for host_test.go."""
raise RuntimeError("this bot cannot be imported")


def bot(board, move_num):
    return (0, 0)
