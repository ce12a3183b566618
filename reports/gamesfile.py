"""The games of a `gridgym tournament --report DIR` (DIR/games.jsonl), for the
scripts beside this file (standard library only):

    from gamesfile import read
"""
import json
import sys


def read(path):
    """Every game of path, one JSON object a line (blank lines skipped); a
    file that cannot be read or a line that is not JSON ends the script
    with the path and what is wrong."""
    games = []
    try:
        with open(path) as f:
            for i, line in enumerate(f, 1):
                if line.strip():
                    try:
                        games.append(json.loads(line))
                    except ValueError as e:
                        sys.exit(f"{path}:{i}: not a JSON line: {e}")
    except OSError as e:
        sys.exit(f"{path}: {e.strerror} (a `gridgym tournament --report DIR` writes DIR/games.jsonl)")
    return games
