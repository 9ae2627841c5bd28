"""Demo predictions for the command line guide (docs/guide/cli.md):
1,000,000 rows, three regions; the model is noisier in 'south'.

Usage: ``python docs/examples/cli_demo_data.py [OUTPUT]`` writes OUTPUT
(default ``preds.parquet`` in the current directory, not next to this
script) and prints where it wrote it. Needs pyarrow.
"""

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from turbometrics._common.example import synthetic_scores


def main(output: str = "preds.parquet") -> Path:
    """Write the demo table to ``output``; returns its absolute path."""
    n = 1_000_000
    y, score = synthetic_scores(n, seed=0)
    rng = np.random.default_rng(1)
    region = rng.choice(["north", "east", "south"], size=n, p=[0.5, 0.3, 0.2])
    south = region == "south"
    logit = np.log(score[south] / (1 - score[south])) + rng.normal(0, 0.8, south.sum())
    score[south] = 1 / (1 + np.exp(-logit))
    weight = np.round(rng.uniform(0.5, 2.0, n), 2)
    path = Path(output).resolve()
    pq.write_table(pa.table({"label": y, "score": np.round(score, 4), "region": region, "weight": weight}), path)
    return path


if __name__ == "__main__":
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        sys.exit("usage: python docs/examples/cli_demo_data.py [OUTPUT.parquet]")
    written = main(*sys.argv[1:])
    print(f"wrote {written} (1,000,000 rows: label, score, region, weight)")
