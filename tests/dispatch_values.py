"""The values tests/test_cpu_dispatch.py compares across instruction-set copies:
run as ``python dispatch_values.py OUT.npz`` under a TURBOMETRICS_CPU_DISPATCH cap."""

import sys

import numpy as np

import turbometrics as tm
from turbometrics import stability as S


def main(path: str) -> None:
    rng = np.random.default_rng(3)
    n = 5000
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    proba = rng.dirichlet(np.ones(5), n)
    labels = rng.integers(0, 5, n)
    w = rng.random(n)
    P = rng.random((7, n))
    P[:, :50] = np.round(P[:, :50], 1)
    P3 = rng.dirichlet(np.ones(3), (5, n))
    data = rng.normal(size=(400, 2))
    out = {
        "ece": [
            tm.calibration_error(y, p, norm=norm, sample_weight=ww) for norm in ("l1", "l2", "max") for ww in (None, w)
        ],
        "top_label": [
            tm.calibration_error(labels, proba, norm="l1"),
            tm.calibration_error(labels, proba, mode="classwise"),
        ],
        "diagram": np.concatenate(tm.reliability_diagram(labels, proba, sample_weight=w)[1:]),
        "iqr": S.iqr(P, per_sample=True),
        "label_stability": S.label_stability(P, per_sample=True),
        "jitter": np.concatenate([S.jitter(P, per_sample=True), S.jitter(P3, per_sample=True)]),
        "selection_rate": S.selection_rate(P > 0.5, sample_weight=w),
        "confusion": tm.confusion_matrix(labels, proba.argmax(axis=1)),
        "multilabel": tm.multilabel_confusion_matrix(labels, proba.argmax(axis=1)),
        "mean_max_confidence": tm.mean_max_confidence(proba, sample_weight=w),
        "aleatoric": np.concatenate(
            [S.aleatoric_uncertainty(P, per_sample=True), S.aleatoric_uncertainty(P3, per_sample=True)]
        ),
        "mutual_info": np.concatenate(
            [S.epistemic_uncertainty(P, per_sample=True), S.epistemic_uncertainty(P3, per_sample=True)]
        ),
        "variance": np.concatenate(
            [S.epistemic_uncertainty(P, method="variance", per_sample=True), S.std(P, per_sample=True)]
        ),
        "kde": np.concatenate(
            [tm.kde(data, data[:300], bandwidth=0.3, kernel=k) for k in ("gaussian", "exponential", "epanechnikov")]
        ),
        "gaussian_kde": tm.gaussian_kde(data.T).logpdf(data[:300].T),
        "smooth": tm.smooth_calibration_error(y, p, bandwidth=0.05),
        "log_loss": [tm.log_loss(labels, proba), tm.log_loss(y, p, sample_weight=w)],
    }
    np.savez(path, **{k: np.asarray(v) for k, v in out.items()})


if __name__ == "__main__":
    main(sys.argv[1])
