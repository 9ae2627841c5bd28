"""The Ray example of docs/guide/states.md: a turbometrics Evaluator as a ray.data aggregation
(``AggregateFnV2`` whose accumulator is the Evaluator's ``to_bytes()``) equals the in-memory
Evaluator. Skipped without ray."""

from __future__ import annotations

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

import turbometrics as tm  # noqa: E402

# Slow (seconds per test: a local Ray runtime): `pytest -m "not slow"` leaves it out.
# One pytest-xdist worker runs them all (`--dist loadgroup`), so that one Ray runtime starts.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


def evaluator_aggregate(metrics, label="label", score="score", weight=None, group=None):
    """The documented example (docs/guide/states.md): per block an Evaluator, shipped and merged as bytes."""
    from ray.data.aggregate import AggregateFnV2

    from turbometrics import Evaluator

    class EvaluatorAggregate(AggregateFnV2):
        def __init__(self) -> None:
            super().__init__(
                name="evaluation", zero_factory=lambda: Evaluator(metrics).to_bytes(), on=None, ignore_nulls=False
            )

        def aggregate_block(self, block):  # one Evaluator per block, on the worker
            table = block if isinstance(block, pa.Table) else pa.Table.from_pandas(block)
            ev = Evaluator(metrics).update(
                table[label].to_numpy(),
                table[score].to_numpy(),
                sample_weight=None if weight is None else table[weight].to_numpy(),
                groups=None if group is None else table[group].to_numpy(zero_copy_only=False),
            )
            return ev.to_bytes()  # arrays + JSON, nothing pickled

        def combine(self, current, new):  # exact merge
            return Evaluator.from_bytes(current).merge(Evaluator.from_bytes(new)).to_bytes()

        def finalize(self, accumulator):
            return Evaluator.from_bytes(accumulator).compute()

    return EvaluatorAggregate()


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_data_aggregation_equals_in_memory(local_ray):
    rng = np.random.default_rng(0)
    n = 200_000
    frame = pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),
            "score": np.round(rng.random(n), 4),
            "w": rng.random(n),
            "region": rng.choice(["north", "south", "east"], n),
        }
    )
    dataset = ray.data.from_pandas(frame).repartition(5)
    metrics = ["roc_auc", "average_precision", "best_f1", "f1", "ece", "log_loss"]
    got = dataset.aggregate(evaluator_aggregate(metrics, group="region"))["evaluation"]
    expected = tm.Evaluator(metrics).update(frame.label, frame.score, groups=frame.region).compute()
    assert got == expected
    assert got["overall"]["roc_auc"] == tm.roc_auc_score(frame.label, frame.score)
    weighted = dataset.aggregate(evaluator_aggregate(["roc_auc", "log_loss"], weight="w"))["evaluation"]["overall"]
    in_memory = tm.Evaluator(["roc_auc", "log_loss"]).update(frame.label, frame.score, sample_weight=frame.w)
    assert weighted == pytest.approx(in_memory.compute()["overall"], rel=1e-12)
    assert weighted["log_loss"] == in_memory.compute()["overall"]["log_loss"]  # an exact sum: split-invariant
