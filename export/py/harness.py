"""Runs an exported gridgym bot on requests, for gridgym's parity tests.

    python3 harness.py BOT.py ENTRY < requests.jsonl > answers.jsonl

Each input line is the JSON array of the competition's arguments (what the
game's codec sends); the bot module may define _harness_args(args) to turn
them into the exact Python types the competition passes. Each output line is
{"answer": <tagged answer>, "us": <microseconds the call took>}, the answer
tagged as gridgym's pyval package reads it. An exception is reported as
{"error": "..."}: an exported bot must never raise.
"""
import importlib.util
import json
import sys
import time

import numpy as np


def tag(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, np.bool_):
        return {"type": "numpy.bool_"}
    if isinstance(v, np.integer):
        return {"np": str(v.dtype), "v": int(v)}
    if isinstance(v, np.floating):
        return {"np": str(v.dtype), "v": float(v)}
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return v if v == v and abs(v) != float("inf") else {"type": "float"}
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, tuple):
        return {"tuple": [tag(x) for x in v]}
    return {"type": type(v).__name__}


def main():
    path, entry = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("exported_bot", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, entry)
    conv = getattr(mod, "_harness_args", None)
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        args = json.loads(line)
        if conv is not None:
            args = conv(args)
        t0 = time.perf_counter()
        try:
            ans = fn(*args)
            rec = {"answer": tag(ans)}
        except BaseException as e:  # noqa: BLE001 - reported, the test fails
            rec = {"error": "%s: %s" % (type(e).__name__, e)}
        rec["us"] = int((time.perf_counter() - t0) * 1e6)
        out.write(json.dumps(rec) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
