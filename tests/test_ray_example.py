"""The Ray example of docs/guide/states.md: turbometrics states as a ray.data aggregation
(``AggregateFnV2``) equal the in-memory functions. Skipped without ray."""

from __future__ import annotations

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

import turbometrics as tm  # noqa: E402
from turbometrics.states import RankingState  # noqa: E402


def ranking_state_aggregate(label: str, score: str, weight: str | None = None):
    """The documented example (docs/guide/states.md): an AggregateFnV2 whose accumulator is a RankingState."""
    from ray.data.aggregate import AggregateFnV2

    class RankingStateAggregate(AggregateFnV2):
        def __init__(self) -> None:
            name = f"ranking_state({score})" if weight is None else f"ranking_state({score}, {weight})"
            super().__init__(name=name, zero_factory=RankingState, on=None, ignore_nulls=False)

        def aggregate_block(self, block):
            table = block if isinstance(block, pa.Table) else pa.Table.from_pandas(block)
            weights = None if weight is None else table[weight].to_numpy()
            return RankingState.from_arrays(table[label].to_numpy(), table[score].to_numpy(), sample_weight=weights)

        def combine(self, current, new):
            return current.merge(new)

        def finalize(self, accumulator):
            return accumulator

    return RankingStateAggregate()


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_data_aggregation_equals_in_memory(local_ray):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"y": rng.integers(0, 2, 200_000), "score": np.round(rng.random(200_000), 4), "w": rng.random(200_000)}
    )
    dataset = ray.data.from_pandas(frame).repartition(5)
    result = dataset.aggregate(ranking_state_aggregate("y", "score"), ranking_state_aggregate("y", "score", "w"))
    unweighted = result["ranking_state(score)"]
    assert unweighted.roc_auc() == tm.roc_auc_score(frame.y, frame.score)
    assert unweighted.average_precision() == tm.average_precision_score(frame.y, frame.score)
    weighted = result["ranking_state(score, w)"]
    np.testing.assert_allclose(
        weighted.roc_auc(), tm.roc_auc_score(frame.y, frame.score, sample_weight=frame.w), rtol=1e-12
    )
