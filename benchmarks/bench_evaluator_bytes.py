#!/usr/bin/env python3
"""Size and time of an Evaluator's bytes per group (issue 23).

Builds ``Evaluator()`` (the default binary metrics) over ``--groups``
groups of about ``--rows`` random rows each, then times one ``to_bytes()``
and one ``Evaluator.from_bytes()`` and prints the bytes per group.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import turbometrics as tm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=float, default=1e4)
    parser.add_argument("--rows", type=int, default=20, help="rows per group (on average)")
    args = parser.parse_args()
    groups = int(args.groups)
    rng = np.random.default_rng(0)
    n = args.rows * groups
    y, p, g = rng.integers(0, 2, n), rng.random(n), rng.integers(0, groups, n)
    ev = tm.Evaluator().update(y, p, groups=g)
    start = time.perf_counter()
    data = ev.to_bytes()
    dump = time.perf_counter() - start
    start = time.perf_counter()
    back = tm.Evaluator.from_bytes(data)
    load = time.perf_counter() - start
    assert back.n_samples_by_group == ev.n_samples_by_group
    print(
        f"{groups} groups of {args.rows} rows: {len(data) / groups:.0f} bytes per group, "
        f"to_bytes {dump:.2f} s, from_bytes {load:.2f} s"
    )


if __name__ == "__main__":
    main()
