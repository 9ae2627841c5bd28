"""Demo predictions for the CLI README: 1,000,000 rows, three regions; the
model is noisier in 'south'."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from turbometrics._common.example import synthetic_scores

n = 1_000_000
y, score = synthetic_scores(n, seed=0)
rng = np.random.default_rng(1)
region = rng.choice(["north", "east", "south"], size=n, p=[0.5, 0.3, 0.2])
south = region == "south"
logit = np.log(score[south] / (1 - score[south])) + rng.normal(0, 0.8, south.sum())
score[south] = 1 / (1 + np.exp(-logit))
weight = np.round(rng.uniform(0.5, 2.0, n), 2)
pq.write_table(
    pa.table({"label": y, "score": np.round(score, 4), "region": region, "weight": weight}), "preds.parquet"
)  # python docs/examples/cli_demo_data.py (writes ./preds.parquet)
