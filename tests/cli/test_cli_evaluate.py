"""``turbometrics evaluate FILE``: every format, multiclass columns, weights,
groups and their gaps, the three output forms, streaming in chunks, exit
code 2 with one-line reasons, the progress bar, plots, and the built-in
example. Reported numbers are compared with turbometrics' in-memory
functions on the same arrays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import turbometrics as tm
from live_sigint import live_sigint
from turbometrics.cli import main

N = 3000
# "csv-stdlib" is CSV read by the csv module, as when pyarrow is not installed.
FORMATS = ["csv", "csv-stdlib", "npy", "jsonl", "parquet"]


def _use_format(fmt: str, monkeypatch) -> str:
    """The file extension of ``fmt``; selects the csv-module reader for
    "csv-stdlib"."""
    if fmt == "csv-stdlib":
        monkeypatch.setattr("turbometrics.io._table_reader._has_pyarrow", lambda: False)
        return "csv"
    return fmt


def _data(n: int = N, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.round(np.clip(0.3 * y + rng.normal(0.35, 0.2, n), 0, 1), 3)  # ties
    weight = np.round(rng.uniform(0.5, 2.0, n), 3)
    group = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    return {"label": y, "score": score, "w": weight, "g": group}


def _write(path: Path, columns: dict) -> Path:
    """Write the columns in the format of ``path``'s extension."""
    names = list(columns)
    fmt = path.suffix[1:]
    if fmt == "csv":
        lines = [",".join(names)] + [
            ",".join(repr(v.item()) if isinstance(v, np.floating) else str(v) for v in row)
            for row in zip(*columns.values())
        ]
        path.write_text("\n".join(lines) + "\n")
    elif fmt == "jsonl":
        with open(path, "w") as handle:
            for row in zip(*columns.values()):
                handle.write(json.dumps({k: v.item() for k, v in zip(names, row)}) + "\n")
    elif fmt == "npy":
        dtype = [(k, "U8" if v.dtype.kind == "U" else v.dtype.str) for k, v in columns.items()]
        table = np.zeros(len(next(iter(columns.values()))), dtype=dtype)
        for k, v in columns.items():
            table[k] = v
        np.save(path, table)
    else:
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(pa.table({k: v for k, v in columns.items()}), path)
    return path


def _run_json(capsys, *args, stderr: list | None = None) -> dict:
    """Run ``evaluate ARGS --json`` in-process; its stderr goes into ``stderr``."""
    code = main(["evaluate", *map(str, args), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    if stderr is not None:
        stderr.append(captured.err)
    return json.loads(captured.out)


# Tolerances of the values that are not bit for bit those of the in-memory functions: the ECE's
# streaming state sums exactly where the function sums floats in order; the Brier score and log
# loss are exact sums divided, correctly rounded, where the functions round their float sums
# (a few ulps apart; docs/guide/evaluator.md).
REL = {"ece": 1e-12, "brier": 1e-13, "log_loss": 1e-13}


def _assert_metrics(got: dict, expected: dict) -> None:
    """Equal metrics: bit for bit, except those of ``REL``."""
    assert set(got) == set(expected)
    for name, value in expected.items():
        assert got[name] == (pytest.approx(value, rel=REL[name]) if name in REL else value), name


def _expected_binary(y, score, weight=None, rows_metrics: bool = False) -> dict:
    """The default binary metrics (and brier and log_loss, which are not in
    it, when ``rows_metrics``), computed in memory."""
    common = dict(sample_weight=weight)
    pred = (score >= 0.5).astype(int)
    best = tm.best_threshold(y, score, **common)
    out = {
        "roc_auc": tm.roc_auc_score(y, score, **common),
        "average_precision": tm.average_precision_score(y, score, **common),
        "best_f1": best.value,
        "best_f1_threshold": best.threshold,
        "accuracy": tm.accuracy_score(y, pred, **common),
        "precision": tm.precision_score(y, pred, **common),
        "recall": tm.recall_score(y, pred, **common),
        "f1": tm.f1_score(y, pred, **common),
        "ece": tm.calibration_error(y, score, **common),
    }
    if rows_metrics:
        out["brier"] = tm.brier_score_loss(y, score, **common)
        out["log_loss"] = tm.log_loss(y, score, **common)
    if weight is None:
        ci = tm.roc_auc_ci(y, score)
        out["roc_auc_ci"] = [ci.lower, ci.upper]
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reports_the_in_memory_metrics(tmp_path, capsys, monkeypatch, fmt):
    data = _data()
    ext = _use_format(fmt, monkeypatch)
    path = _write(tmp_path / f"preds.{ext}", data)
    report = _run_json(capsys, path)
    assert report["format"] == ext and report["task"] == "binary"
    assert report["n_samples"] == N and report["n_positive"] == int(data["label"].sum())
    _assert_metrics(report["metrics"], _expected_binary(data["label"], data["score"]))


def test_metrics_of_the_rows(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "rows.csv", data)
    report = _run_json(capsys, path, "--metrics", "brier,log_loss", "--chunk-rows", "500")
    expected = _expected_binary(data["label"], data["score"], rows_metrics=True)
    _assert_metrics(report["metrics"], {"brier": expected["brier"], "log_loss": expected["log_loss"]})


def test_format_option_overrides_the_extension(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "preds.csv", data).rename(tmp_path / "preds.txt")
    report = _run_json(capsys, path, "--format", "csv", "--metrics", "roc_auc")
    assert report["metrics"]["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])


def test_the_vocabulary_of_the_evaluator_and_evaluate_parquet(tmp_path, capsys):
    # One vocabulary: the Evaluator's new names, and evaluate_parquet's old spelling of mcc.
    data = _data()
    path = _write(tmp_path / "preds.csv", data)
    metrics = "matthews_corrcoef,jaccard,cohen_kappa,mce,rmsce"
    report = _run_json(capsys, path, "--metrics", metrics)["metrics"]
    expected = tm.Evaluator(metrics.split(",")).update(data["label"], data["score"]).compute()["overall"]
    assert list(expected) == ["mcc", "jaccard", "cohen_kappa", "mce", "rmsce"]
    assert {name: report[name] for name in expected} == expected


def test_two_dimensional_npy_columns_are_indices(tmp_path, capsys):
    data = _data()
    np.save(tmp_path / "p.npy", np.column_stack([data["score"], data["label"]]))
    report = _run_json(capsys, tmp_path / "p.npy", "--label", "1", "--score", "0", "--metrics", "roc_auc,ece")
    _assert_metrics(
        report["metrics"],
        {
            "roc_auc": tm.roc_auc_score(data["label"], data["score"]),
            "ece": tm.calibration_error(data["label"], data["score"]),
        },
    )


def _multiclass(n: int = N, seed: int = 1):
    rng = np.random.default_rng(seed)
    prob = rng.dirichlet([1.0, 1.0, 1.0], n)
    y = (prob.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1)
    return y, prob


@pytest.mark.parametrize("scores", [["p*"], ["p0", "p1", "p2"]])
@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
def test_multiclass_probability_columns(tmp_path, capsys, monkeypatch, scores, fmt):
    _use_format(fmt, monkeypatch)
    y, prob = _multiclass()
    path = _write(tmp_path / "m.csv", {"y": y, "p0": prob[:, 0], "p1": prob[:, 1], "p2": prob[:, 2]})
    report = _run_json(capsys, path, "--label", "y", "--score", *scores)
    assert report["task"] == "multiclass" and report["columns"]["score"] == ["p0", "p1", "p2"]
    pred = prob.argmax(axis=1)
    labels = [0, 1, 2]
    _assert_metrics(
        report["metrics"],
        {
            "roc_auc": tm.roc_auc_score(y, prob, multi_class="ovr", labels=labels),
            "accuracy": tm.accuracy_score(y, pred),
            "balanced_accuracy": tm.balanced_accuracy_score(y, pred),
            "f1_macro": tm.f1_score(y, pred, average="macro", labels=labels),
            "ece": tm.calibration_error(y, prob),
            "brier": tm.brier_score_loss(y, prob, labels=labels),
            "log_loss": tm.log_loss(y, prob, labels=labels),
        },
    )


def test_multiclass_named_classes(tmp_path, capsys):
    y, prob = _multiclass()
    names = np.array(["cat", "dog", "eel"])[y]
    path = _write(tmp_path / "m.jsonl", {"y": names, "p_cat": prob[:, 0], "p_dog": prob[:, 1], "p_eel": prob[:, 2]})
    report = _run_json(
        capsys, path, "--label", "y", "--score", "p_*", "--classes", "cat,dog,eel", "--metrics", "accuracy,log_loss"
    )
    assert report["classes"] == ["cat", "dog", "eel"]
    _assert_metrics(
        report["metrics"],
        {"accuracy": tm.accuracy_score(y, prob.argmax(axis=1)), "log_loss": tm.log_loss(y, prob, labels=[0, 1, 2])},
    )


def test_weights(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "w.parquet", data)
    report = _run_json(capsys, path, "--weight", "w")
    assert "roc_auc_ci" not in report["metrics"]  # DeLong's interval is unweighted
    assert report["metrics"] == pytest.approx(_expected_binary(data["label"], data["score"], data["w"]), rel=1e-12)


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
def test_string_labels_with_pos_label(tmp_path, capsys, monkeypatch, fmt):
    _use_format(fmt, monkeypatch)
    data = _data()
    text = np.where(data["label"] == 1, "spam", "ham")
    path = _write(tmp_path / "s.csv", {"label": text, "score": data["score"]})
    report = _run_json(capsys, path, "--pos-label", "spam", "--metrics", "roc_auc,f1")
    assert report["pos_label"] == "spam"
    assert report["metrics"]["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_groups_and_the_largest_gap(tmp_path, capsys, fmt):
    data = _data()
    path = _write(tmp_path / f"g.{fmt}", data)
    report = _run_json(capsys, path, "--group", "g", "--weight", "w")
    assert list(report["groups"]) == ["a", "b", "c"]
    per_group = {}
    for key in "abc":
        rows = data["g"] == key
        expected = _expected_binary(data["label"][rows], data["score"][rows], data["w"][rows])
        assert report["groups"][key]["n_samples"] == int(rows.sum())
        assert report["groups"][key]["metrics"] == pytest.approx(expected, rel=1e-12)
        per_group[key] = expected
    for name, gap in report["gaps"].items():
        values = {key: per_group[key][name] for key in "abc"}
        high, low = max(values, key=values.get), min(values, key=values.get)
        assert (gap["max_group"], gap["min_group"]) == (high, low)
        assert gap["gap"] == pytest.approx(values[high] - values[low], rel=1e-12, abs=1e-15)
    assert set(report["gaps"]) == set(report["metrics"]) - {"best_f1_threshold"}  # a threshold has no gap


def test_a_group_with_one_class_is_undefined_and_left_out_of_the_gap(tmp_path, capsys):
    data = _data()
    data["label"][data["g"] == "c"] = 1
    path = _write(tmp_path / "one.csv", data)
    err: list = []
    report = _run_json(capsys, path, "--group", "g", "--metrics", "roc_auc,accuracy", stderr=err)
    assert report["groups"]["c"]["metrics"]["roc_auc"] is None
    assert {report["gaps"]["roc_auc"]["max_group"], report["gaps"]["roc_auc"]["min_group"]} == {"a", "b"}
    assert "group c: roc_auc: Only one class" in err[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_streaming_in_small_chunks_equals_in_memory(tmp_path, capsys, monkeypatch, fmt):
    data = _data()
    path = _write(tmp_path / f"big.{_use_format(fmt, monkeypatch)}", data)
    whole = _run_json(capsys, path, "--group", "g")
    chunked = _run_json(capsys, path, "--group", "g", "--chunk-rows", "97")
    assert chunked["metrics"] == whole["metrics"]  # the states are exact for every split
    _assert_metrics(whole["metrics"], _expected_binary(data["label"], data["score"]))
    assert chunked["groups"] == whole["groups"]
    assert chunked["gaps"] == whole["gaps"]


def test_table_output(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "t.csv", data)
    assert main(["evaluate", str(path), "--group", "g", "--metrics", "roc_auc,roc_auc_ci"]) == 0
    out = capsys.readouterr().out
    auc = tm.roc_auc_score(data["label"], data["score"])
    ci = tm.roc_auc_ci(data["label"], data["score"])
    assert f"{auc:.4f}" in out and f"[{ci.lower:.4f}, {ci.upper:.4f}]" in out
    header = next(line for line in out.splitlines() if line.startswith("metric"))
    assert header.split() == ["metric", "overall", "g=a", "g=b", "g=c", "gap", "(max", "-", "min)"]


def test_markdown_output_parses_to_the_json_numbers(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "md.csv", data)
    report = _run_json(capsys, path, "--group", "g")
    assert main(["evaluate", str(path), "--group", "g", "--markdown"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    assert cells[0] == ["metric", "overall", "g=a", "g=b", "g=c", "gap (max - min)"]
    assert set(cells[1][1:]) == {"---:"}
    rows = {row[0]: row[1:] for row in cells[2:]}
    for name in ("roc_auc", "ece", "f1"):
        expected = [report["metrics"][name]] + [report["groups"][k]["metrics"][name] for k in "abc"]
        assert [float(v) for v in rows[name][:4]] == pytest.approx(expected, abs=5e-5)
        gap = report["gaps"][name]
        assert rows[name][4] == f"{gap['gap']:.4f} ({gap['max_group']} - {gap['min_group']})"


BAD_INPUT = [
    (["missing.csv"], "missing.csv: no such file"),
    (["{d}/p.txt"], "unknown format '.txt'"),
    (["{d}/p.csv", "--format", "parquet"], "not a Parquet file"),
    (["{d}/p.csv", "--score", "nope"], "unknown column 'nope' (columns: label, score, w, g)"),
    (["{d}/p.csv", "--score", "q*"], "no column matches 'q*'"),
    (["{d}/p.csv", "--score", "g"], "column 'g': non-numeric value 'a'"),
    (["{d}/p.csv", "--weight", "g"], "column 'g': non-numeric value 'a'"),
    (["{d}/p.csv", "--label", "g"], "labels are {a, b, c}: give the positive one with --pos-label"),
    (["{d}/p.csv", "--metrics", "roc_auc,bogus"], "unknown binary metric 'bogus'"),
    (["{d}/p.csv", "--score", "score", "w", "--classes", "x,y"], "is not one of the classes x,y"),
    (["{d}/p.csv", "--score", "score", "w", "--classes", "x,x"], "--classes names 'x' twice"),
    (["{d}/p.csv", "--score", "score", "w", "--classes", "x"], "--classes names 1 classes for 2 score columns"),
    (["{d}/p.csv", "--score", "w", "--metrics", "ece"], "ece needs probabilities in [0, 1]; found a score of 1."),
    (["{d}/p.csv", "--pos-label", "7"], "--pos-label '7' is not a label (labels are {0, 1})"),
    (["{d}/p.csv", "--pos-label", "1.5"], "--pos-label '1.5' is not an integer, but the labels are"),
    (["{d}/bools.jsonl", "--pos-label", "7"], "--pos-label '7': the labels are booleans (give true or false)"),
    (["{d}/dup.csv"], "dup.csv: the header names column 'score' 2 times; rename the copies"),
    (["{d}/deep.jsonl"], "deep.jsonl: line 2: JSON nested too deeply"),
    (["{d}/deep_first.jsonl"], "deep_first.jsonl: line 1: JSON nested too deeply"),
    (["{d}/nulllabel.jsonl"], "column 'label': missing value (null) in row 2"),
    (["{d}/nanlabel.csv"], "column 'label': missing value (null) in row 3"),
    (["{d}/inflabel.csv", "--pos-label", "inf"], "column 'label': infinite label inf in row 2"),
    (["{d}/latin1.csv", "--group", "g"], "latin1.csv: not UTF-8 text"),
    (["{d}/listgroup.jsonl", "--group", "g"], "column 'g': a group must be text or a number, not [1]"),
    (["{d}/empty.csv"], "empty file"),
    (["{d}/header.csv"], "header.csv: no rows"),
    (["{d}/bad.jsonl"], "line 2: not JSON"),
    (["{d}/null.jsonl"], "column 'score': missing value (null)"),
    (["{d}/mixed.jsonl"], "column 'score': non-numeric value 'x'"),
    (["{d}/nokey.jsonl"], "line 2: no key 'score'"),
    (["{d}/signs.jsonl", "--chunk-rows", "2"], "labels are {-1, 0, 1} across the file"),
    (["{d}/nan.csv", "--metrics", "accuracy,f1"], "rows 1-2: Input contains NaN."),
    (["{d}/p.csv", "--labels", "x.npy", "--scores", "y.npy"], "give FILE or --labels/--scores, not both"),
    (["--group", "g"], "--group needs a FILE"),
]


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
def test_text_in_a_number_column_after_the_first_chunk(tmp_path, capsys, monkeypatch, fmt):
    _use_format(fmt, monkeypatch)
    data = _data()
    score = data["score"].astype(object)
    score[2500] = "n/a"
    path = _write(tmp_path / "late.csv", {"label": data["label"], "score": score})
    assert main(["evaluate", str(path), "--chunk-rows", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "n/a" in err


@pytest.mark.parametrize("args, message", BAD_INPUT)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, args, message):
    _write(tmp_path / "p.csv", _data(50))
    (tmp_path / "p.txt").write_text("x")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "header.csv").write_text("label,score\n")
    (tmp_path / "bad.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": \n')
    (tmp_path / "null.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": 0, "score": null}\n')
    (tmp_path / "mixed.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": 0, "score": "x"}\n')
    (tmp_path / "nokey.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": 0}\n')
    (tmp_path / "nan.csv").write_text("label,score\n0,0.1\n1,nan\n")
    (tmp_path / "signs.jsonl").write_text("".join(f'{{"label": {y}, "score": 0.5}}\n' for y in (0, 1, -1, 1)))
    (tmp_path / "bools.jsonl").write_text('{"label": true, "score": 0.5}\n{"label": false, "score": 0.2}\n')
    (tmp_path / "dup.csv").write_text("label,score,score\n0,0.1,0.9\n1,0.8,0.2\n")
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.jsonl").write_text(f'{{"label": 1, "score": 0.5}}\n{{"label": 0, "score": 0.1, "x": {deep}}}\n')
    (tmp_path / "deep_first.jsonl").write_text(f'{{"label": 0, "score": 0.1, "x": {deep}}}\n')
    (tmp_path / "nulllabel.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": null, "score": 0.2}\n')
    (tmp_path / "nanlabel.csv").write_text("label,score\n0,0.1\n1,0.9\nnan,0.3\n")
    (tmp_path / "inflabel.csv").write_text("label,score\n0,0.1\ninf,0.9\n")
    (tmp_path / "latin1.csv").write_bytes("label,score,g\n1,0.5,caf\xe9\n0,0.2,x\n".encode("latin-1"))
    (tmp_path / "listgroup.jsonl").write_text(
        '{"label": 1, "score": 0.5, "g": "a"}\n{"label": 0, "score": 0.2, "g": [1]}\n'
    )
    code = main(["evaluate", *[a.format(d=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("turbometrics: error: ")
    assert message in err


def test_missing_pyarrow_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    (tmp_path / "p.parquet").write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert main(["evaluate", str(tmp_path / "p.parquet")]) == 2
    assert "reading Parquet needs pyarrow: pip install 'turbometrics[parquet]'" in capsys.readouterr().err


def test_plots_without_matplotlib_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    path = _write(tmp_path / "p.csv", _data(50))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["evaluate", str(path), "--plots", str(tmp_path / "plots")]) == 2
    assert capsys.readouterr().err == (
        "turbometrics: error: --plots needs matplotlib: pip install 'turbometrics[plot]'\n"
    )
    assert not (tmp_path / "plots").exists()


def test_progress_bar_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    pytest.importorskip("tqdm")
    path = _write(tmp_path / "p.csv", _data())
    err: list = []
    _run_json(capsys, path, stderr=err)
    assert err == [""]  # captured stderr is not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["evaluate", str(path), "--json", "--chunk-rows", "500"]) == 0
    assert "p.csv" in capsys.readouterr().err  # the bar, labelled with the file name
    assert main(["evaluate", str(path), "--json", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_plots_are_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = _write(tmp_path / "p.csv", _data())
    report = _run_json(capsys, path, "--group", "g", "--plots", tmp_path / "plots")
    names = [
        "roc.png",
        "precision_recall.png",
        "thresholds.png",
        "reliability.png",
        "roc_by_group.png",
        "precision_recall_by_group.png",
    ]
    assert report["plots"] == [str(tmp_path / "plots" / name) for name in names]
    for name in names:
        data = (tmp_path / "plots" / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000


def test_group_plots_skipped_when_no_group_has_both_classes(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1], 200)
    path = _write(tmp_path / "one_class_groups.csv", {"y": y, "s": np.round(rng.random(400), 3), "g": y})
    stderr: list = []
    report = _run_json(
        capsys,
        path,
        "--label",
        "y",
        "--score",
        "s",
        "--group",
        "g",
        "--metrics",
        "roc_auc",
        "--plots",
        tmp_path / "plots",
        stderr=stderr,
    )
    assert [Path(p).name for p in report["plots"]] == [
        "roc.png",
        "precision_recall.png",
        "thresholds.png",
        "reliability.png",
    ]
    assert "no group has both classes: roc_by_group.png not written" in stderr[0]


def test_multiclass_plots(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    y, prob = _multiclass()
    path = _write(tmp_path / "m.csv", {"y": y, "p0": prob[:, 0], "p1": prob[:, 1], "p2": prob[:, 2]})
    report = _run_json(capsys, path, "--label", "y", "--score", "p*", "--plots", tmp_path / "mp")
    assert [Path(p).name for p in report["plots"]] == ["roc.png", "precision_recall.png", "reliability.png"]


def test_builtin_example_and_arrays_keep_working(tmp_path, capsys):
    report = _run_json(capsys)
    assert set(report) == {
        "n_samples",
        "roc_auc",
        "average_precision",
        "best_f1_threshold",
        "best_f1",
        "precision_at_best",
        "recall_at_best",
        "seconds",
        "source",
    }
    data = _data()
    np.save(tmp_path / "y.npy", data["label"])
    np.save(tmp_path / "s.npy", data["score"])
    report = _run_json(capsys, "--labels", tmp_path / "y.npy", "--scores", tmp_path / "s.npy")
    best = tm.best_threshold(data["label"], data["score"])
    assert report["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])
    assert (report["best_f1_threshold"], report["best_f1"]) == (best.threshold, best.value)


def test_installed_program_piped(tmp_path):
    """One real process: piped output has no progress bar and bad input no traceback."""
    path = _write(tmp_path / "p.csv", _data())
    run = [sys.executable, "-m", "turbometrics", "evaluate"]
    ok = subprocess.run(run + [str(path), "--json"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stderr == ""
    assert json.loads(ok.stdout)["n_samples"] == N
    bad = subprocess.run(run + [str(path), "--score", "g"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "turbometrics: error: column 'g': non-numeric value 'a'\n"


def test_default_metrics_stream_through_states_without_keeping_rows():
    from turbometrics.evaluator import DEFAULT_BINARY

    data = _data()
    y, score = data["label"].astype(np.int8), data["score"]
    ev = tm.Evaluator(DEFAULT_BINARY)
    for start in range(0, N, 250):
        ev.update(y[start : start + 250], score[start : start + 250])
    (part,) = [ev._overall]
    assert len(part.ranking) == np.unique(score).size  # one row per distinct score
    assert not hasattr(part, "rows")
    _assert_metrics(ev.compute()["overall"], _expected_binary(data["label"], score))


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
def test_bad_text_in_either_csv_reader(tmp_path, capsys, monkeypatch, fmt):
    """The csv-module reader (without pyarrow) gives the same one-line reasons."""
    _use_format(fmt, monkeypatch)
    (tmp_path / "latin1.csv").write_bytes("label,score,g\n1,0.5,caf\xe9\n0,0.2,x\n".encode("latin-1"))
    (tmp_path / "nanlabel.csv").write_text("label,score\n0,0.1\n1,0.9\nnan,0.3\n")
    for name, message in (
        ("latin1.csv", "latin1.csv: not UTF-8 text"),
        ("nanlabel.csv", "column 'label': missing value (null) in row 3"),
    ):
        assert (
            main(
                [
                    "evaluate",
                    str(tmp_path / name),
                    "--group" if name == "latin1.csv" else "--no-progress",
                    *(["g"] if name == "latin1.csv" else []),
                ]
            )
            == 2
        )
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err


def test_parquet_null_label_names_the_row(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({"label": pa.array([1.0, 0.0, None, 1.0]), "score": [0.9, 0.1, 0.4, 0.7]}), tmp_path / "n.parquet"
    )
    assert main(["evaluate", str(tmp_path / "n.parquet")]) == 2
    assert capsys.readouterr().err == "turbometrics: error: column 'label': missing value (null) in row 3\n"


def test_a_damaged_parquet_file_is_one_line(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    path = tmp_path / "damaged.parquet"
    pq.write_table(pa.table({"label": rng.integers(0, 2, 100_000), "score": np.round(rng.random(100_000), 2)}), path)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = bytes(4096)  # a page, not the footer
    path.write_bytes(bytes(data))
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"turbometrics: error: {path}: ")


USAGE_ERRORS = [
    (["--n-bins", "0"], "argument --n-bins: must be from 1 to 1,000,000, got 0"),
    (["--n-bins", "-3"], "argument --n-bins: must be from 1 to 1,000,000, got -3"),
    (["--n-bins", "1000000000000"], "argument --n-bins: must be from 1 to 1,000,000, got 1000000000000"),
    (["--n-bins", "x"], "argument --n-bins: not an integer: 'x'"),
    (["--threshold", "nan"], "argument --threshold: must be a finite number, got nan"),
    (["--threshold", "inf"], "argument --threshold: must be a finite number, got inf"),
    (["--threshold=-Infinity"], "argument --threshold: must be a finite number, got -Infinity"),
    (["--chunk-rows", "0"], "argument --chunk-rows: must be from 1 to 1,000,000,000, got 0"),
    (
        ["--chunk-rows", "10000000000000000000000"],
        "argument --chunk-rows: must be from 1 to 1,000,000,000, got 10000000000000000000000",
    ),
    (["--n-threads", "-1"], "argument --n-threads: must be from 1 to 1,024, got -1"),
    (["--n-threads", "100000"], "argument --n-threads: must be from 1 to 1,024, got 100000"),
    (["--format", "xls"], "argument --format: invalid choice: 'xls' (choose from 'csv', 'jsonl', 'npy', 'parquet')"),
    (["--bogus"], "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("args, message", USAGE_ERRORS)
def test_usage_errors_are_one_line(tmp_path, capsys, args, message):
    path = _write(tmp_path / "p.csv", _data(50))
    assert main(["evaluate", str(path), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"turbometrics evaluate: error: {message} (see turbometrics evaluate --help)\n"


@pytest.mark.parametrize(
    "argv, prog, message",
    [
        (
            ["bogus"],
            "turbometrics",
            "argument COMMAND: invalid choice: 'bogus' (choose from 'evaluate', 'coco', 'segmentation')",
        ),
        ([], "turbometrics", "give a command: evaluate, coco or segmentation"),
        (
            ["coco", "--iou-type", "x"],
            "turbometrics coco",
            "argument --iou-type: invalid choice: 'x' (choose from 'bbox', 'segm', 'keypoints')",
        ),
        (["coco", "--bogus"], "turbometrics coco", "unrecognized arguments: --bogus"),
        (["coco", "--n-threads", "0"], "turbometrics coco", "argument --n-threads: must be from 1 to 1,024, got 0"),
    ],
)
def test_usage_errors_of_every_command_are_one_line(capsys, argv, prog, message):
    assert main(argv) == 2
    assert capsys.readouterr().err == f"{prog}: error: {message} (see {prog} --help)\n"


def test_out_of_memory_is_one_line(tmp_path, capsys, monkeypatch):
    path = _write(tmp_path / "p.csv", _data(50))

    def exhausted(*args, **kwargs):
        raise MemoryError("Unable to allocate 7.28 TiB for an array with shape (1000000000000,)")

    monkeypatch.setattr("turbometrics.cli._evaluate.read", exhausted)
    assert main(["evaluate", str(path)]) == 2
    assert capsys.readouterr().err == (
        "turbometrics: error: out of memory (Unable to allocate 7.28 TiB for an array with shape (1000000000000,))\n"
    )


def test_read_error_after_opening_is_one_line(tmp_path, capsys, monkeypatch):
    import errno

    path = _write(tmp_path / "p.csv", _data(50))

    def failing(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error", str(path))

    monkeypatch.setattr("turbometrics.cli._evaluate.read", failing)
    assert main(["evaluate", str(path)]) == 2
    assert capsys.readouterr().err == f"turbometrics: error: {path}: Input/output error\n"


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib", "jsonl"])
def test_a_byte_order_mark_is_read(tmp_path, capsys, monkeypatch, fmt):
    """Excel's "CSV UTF-8" starts the file with a UTF-8 byte-order mark."""
    ext = _use_format(fmt, monkeypatch)
    data = _data()
    plain = _write(tmp_path / f"plain.{ext}", data)
    marked = tmp_path / f"marked.{ext}"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    expected = _run_json(capsys, plain)
    report = _run_json(capsys, marked, "--group", "g")
    assert report["n_samples"] == N and report["metrics"] == expected["metrics"]


def test_one_column_csv_arrays_with_a_byte_order_mark(tmp_path, capsys):
    data = _data()
    (tmp_path / "y.csv").write_bytes(b"\xef\xbb\xbf" + "\n".join(map(str, data["label"])).encode())
    (tmp_path / "s.csv").write_bytes(b"\xef\xbb\xbflabel\n" + "\n".join(map(repr, data["score"].tolist())).encode())
    report = _run_json(capsys, "--labels", tmp_path / "y.csv", "--scores", tmp_path / "s.csv")
    assert report["n_samples"] == N  # the first value is no header
    assert report["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])


def _strict_json(text: str) -> dict:
    """JSON without NaN or Infinity (which are no JSON)."""

    def refuse(name):
        raise AssertionError(f"{name} in the JSON output")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_null_groups_are_left_out_of_the_groups_as_pandas_dropna(tmp_path, capsys, fmt):
    pd = pytest.importorskip("pandas")
    data = _data()
    group = data["g"].astype(object)
    group[::7] = None
    data["g"] = group
    path = tmp_path / f"nullg.{fmt}"
    if fmt == "jsonl":
        _write(path, {k: v for k, v in data.items() if k != "g"})
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({**row, "g": g}) + "\n" for row, g in zip(rows, group)))
    else:
        pd.DataFrame(data).to_parquet(path)
    assert main(["evaluate", str(path), "--group", "g", "--metrics", "roc_auc", "--json"]) == 0
    captured = capsys.readouterr()
    report = _strict_json(captured.out)
    sizes = pd.DataFrame(data).groupby("g", dropna=True).size()
    assert {k: g["n_samples"] for k, g in report["groups"].items()} == sizes.to_dict()
    assert report["n_samples"] == N and report["n_group_null"] == int(sum(v is None for v in group))
    assert report["metrics"]["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])
    assert f"{report['n_group_null']:,} rows with a null 'g' are in no group" in captured.err


def test_float_group_nan_is_null(tmp_path, capsys):
    data = _data()
    data["g"] = np.where(np.arange(N) % 5 == 0, np.nan, (np.arange(N) % 3).astype(float))
    path = _write(tmp_path / "g.npy", data)
    report = _strict_json(_json_out(capsys, path, "--group", "g", "--metrics", "roc_auc"))
    assert list(report["groups"]) == ["0", "1", "2"] and report["n_group_null"] == N // 5


def _json_out(capsys, *args) -> str:
    assert main(["evaluate", *map(str, args), "--json"]) == 0
    return capsys.readouterr().out


def test_undefined_metrics_are_null_in_json(tmp_path, capsys):
    data = _data()
    data["label"][data["g"] == "c"] = 1
    path = _write(tmp_path / "one.csv", data)
    report = _strict_json(_json_out(capsys, path, "--group", "g"))
    assert report["groups"]["c"]["metrics"]["roc_auc"] is None


def test_options_before_the_file(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "churn.parquet", {"churned": data["label"], "churn_prob": data["score"]})
    report = _run_json(capsys, "--label", "churned", "--score", "churn_prob", path, "--metrics", "roc_auc")
    assert report["source"] == str(path) and report["columns"]["score"] == ["churn_prob"]
    assert report["metrics"]["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])
    y, prob = _multiclass()
    path = _write(tmp_path / "m.csv", {"y": y, "p0": prob[:, 0], "p1": prob[:, 1], "p2": prob[:, 2]})
    report = _run_json(capsys, "--label", "y", "--score", "p0", "p1", "p2", path, "--metrics", "accuracy")
    assert report["columns"]["score"] == ["p0", "p1", "p2"]
    assert report["metrics"]["accuracy"] == tm.accuracy_score(y, prob.argmax(axis=1))


def test_class_names_from_the_score_columns(tmp_path, capsys):
    y, prob = _multiclass(seed=3)
    names = np.array(["cat", "dog", "eel"])[y]
    path = _write(tmp_path / "m.csv", {"y": names, "p_cat": prob[:, 0], "p_dog": prob[:, 1], "p_eel": prob[:, 2]})
    named = _run_json(capsys, path, "--label", "y", "--score", "p_*", "--classes", "cat,dog,eel")
    inferred = _run_json(capsys, path, "--label", "y", "--score", "p_*", "--chunk-rows", "100")
    assert inferred["classes"] == ["cat", "dog", "eel"]
    assert inferred["metrics"] == named["metrics"]
    assert main(["evaluate", str(path), "--label", "y", "--score", "p_cat", "p_dog"]) == 2  # 'eel' has no column
    assert "neither class indices nor the ends of the score columns' names" in capsys.readouterr().err


def test_the_time_line_counts_reading_metrics_plots_and_total(tmp_path, capsys, monkeypatch):
    import time

    path = _write(tmp_path / "p.csv", _data())
    update = tm.Evaluator.update

    def slow_update(self, *args, **kwargs):
        time.sleep(0.02)
        return update(self, *args, **kwargs)

    monkeypatch.setattr(tm.Evaluator, "update", slow_update)
    report = _run_json(capsys, path, "--chunk-rows", "300", "--metrics", "roc_auc")
    seconds = report["seconds"]
    assert set(seconds) == {"read", "metrics", "plots", "total"} and seconds["plots"] == 0
    assert seconds["metrics"] >= 10 * 0.02  # the states' time (10 chunks) is metrics, not reading
    assert seconds["read"] + seconds["metrics"] <= seconds["total"]
    assert main(["evaluate", str(path), "--metrics", "roc_auc"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("time:    ") and "s reading" in line and line.endswith("s in all")


def test_the_time_of_plots_is_counted(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = _write(tmp_path / "p.csv", _data())
    assert main(["evaluate", str(path), "--metrics", "roc_auc", "--plots", str(tmp_path / "plots")]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    parts = dict(reversed(part.strip().split(" s ")) for part in line[len("time:") :].replace(";", ",").split(","))
    assert float(parts["plots"]) > 0
    assert sum(float(parts[k]) for k in ("reading", "metrics", "plots")) <= float(parts["in all"]) + 0.02


@pytest.mark.parametrize("argv", [["evaluate", "{path}"], ["evaluate", "{path}", "--json"], ["coco", "--per-category"]])
def test_a_closed_pipe_ends_quietly(tmp_path, argv):
    """``turbometrics ... | head -1``: the reader is gone before the output is written."""
    path = _write(tmp_path / "p.csv", _data(50))
    process = subprocess.Popen(
        [sys.executable, "-m", "turbometrics", *[a.format(path=path) for a in argv]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # before the program has started up
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 141 and err == b""


def test_an_integral_pos_label_for_integer_labels(tmp_path, capsys):
    data = _data()
    path = _write(tmp_path / "p.csv", data)
    report = _run_json(capsys, path, "--pos-label", "1.0", "--metrics", "roc_auc")
    assert report["pos_label"] == 1
    assert report["metrics"]["roc_auc"] == tm.roc_auc_score(data["label"], data["score"])


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
def test_csv_groups_are_the_same_with_either_reader(tmp_path, capsys, monkeypatch, fmt):
    """A number group column: "1.0" is the group 1 and "nan" is null, with or without pyarrow."""
    _use_format(fmt, monkeypatch)
    path = tmp_path / "g.csv"
    path.write_text("label,score,g\n1,0.9,1.0\n0,0.1,nan\n1,0.4,2.0\n0,0.3,1.0\n")
    report = _run_json(capsys, path, "--group", "g", "--metrics", "accuracy")
    assert {k: g["n_samples"] for k, g in report["groups"].items()} == {"1": 2, "2": 1}
    assert report["n_group_null"] == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["{d}/empty.npy"], "empty.npy: not a .npy file (it ends before its header)"),
        (["--labels", "{d}/empty.npy", "--scores", "{d}/empty.npy"], "empty.npy: not a .npy file"),
        (["{d}/digits.jsonl"], "digits.jsonl: line 2: an integer of more than 4,300 digits"),
    ],
)
def test_unreadable_files_exit_2_with_one_line(tmp_path, capsys, args, message):
    """A zero-byte .npy (NumPy's EOFError) and a JSON integer past Python's
    4,300-digit limit (a ValueError of json.loads) were tracebacks."""
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "digits.jsonl").write_text('{"label": 1, "score": 0.5}\n{"label": ' + "1" * 5000 + ', "score": 0.2}\n')
    assert main(["evaluate", *[a.format(d=tmp_path) for a in args]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("turbometrics: error: ") and message in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["evaluate", "{path}"], ["evaluate", "--json"], ["coco"]])
def test_output_that_cannot_be_written_is_one_line(tmp_path, argv):
    """stdout on a full disk: exit 2 with one line, not an OSError traceback."""
    path = _write(tmp_path / "p.csv", _data(50))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "turbometrics", *[a.format(path=path) for a in argv]],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "turbometrics: error: cannot write the output (No space left on device)\n"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_ctrl_c_exits_130_with_one_line(tmp_path):
    """SIGINT while a large file is read: exit 130 and one line on stderr
    (not a KeyboardInterrupt traceback and death by SIGINT). The signal is
    sent once the first progress line shows that the file is being read,
    and again every half second until the process exits (a reader library
    may take one SIGINT for its own cancellation; a loaded CI machine once
    saw a run read to the end after one signal); the file takes seconds to
    read, so the process cannot finish first."""
    import signal

    n = 1_000_000
    path = tmp_path / "large.jsonl"
    path.write_text('{"label": 1, "score": 0.25}\n{"label": 0, "score": 0.75}\n' * (n // 2))
    process = subprocess.Popen(
        [sys.executable, "-m", "turbometrics", "evaluate", str(path), "--progress", "--progress-every", "0"]
        + ["--chunk-rows", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=live_sigint,  # also when the suite runs with SIGINT ignored
    )
    try:
        first = process.stderr.readline()
        assert first.startswith("turbometrics: progress: large.jsonl: "), first
        for _ in range(120):
            process.send_signal(signal.SIGINT)
            try:
                out, err = process.communicate(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            pytest.fail("no exit within 60 s of SIGINT")
    finally:
        process.kill()
        process.communicate()
    lines = [line for line in err.splitlines() if not line.startswith("turbometrics: progress: ")]
    assert process.returncode == 130, err[-2000:]
    assert lines == ["turbometrics: interrupted"] and out == ""


def test_progress_lines_for_logs(tmp_path, capsys):
    """--progress when stderr is not a terminal: lines, the last one for the whole file."""
    path = _write(tmp_path / "p.csv", _data())
    assert main(["evaluate", str(path), "--json", "--progress", "--progress-every", "0", "--chunk-rows", "1000"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert all(line.startswith("turbometrics: progress: p.csv: ") for line in lines) and len(lines) >= 2
    assert lines[-1].split(": ")[3].startswith("100% (") and f"{N:,} rows" in lines[-1]
    assert main(["evaluate", str(path), "--progress", "--no-progress"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["csv", "csv-stdlib"])
@pytest.mark.parametrize("groups", ['a,,b,"",a,b', '1,,2,"",1.0,2'])
def test_an_empty_csv_group_field_is_a_null_group_as_pandas_reads_it(tmp_path, capsys, monkeypatch, fmt, groups):
    """An empty field (quoted or not) is NaN for pandas.read_csv: a null
    group, counted overall and in n_group_null, as a Parquet null."""
    pd = pytest.importorskip("pandas")
    _use_format(fmt, monkeypatch)
    path = tmp_path / "g.csv"
    rows = zip([1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.4, 0.3, 0.2, 0.5], groups.split(","))
    path.write_text("label,score,g\n" + "".join(f"{y},{s},{g}\n" for y, s, g in rows))
    frame = pd.read_csv(path)
    report = _run_json(capsys, path, "--group", "g", "--metrics", "accuracy")
    sizes = frame.groupby("g", dropna=True).size()
    assert {k: g["n_samples"] for k, g in report["groups"].items()} == {
        format(k, "g") if isinstance(k, float) else str(k): int(v) for k, v in sizes.items()
    }
    assert report["n_group_null"] == int(frame["g"].isna().sum()) == 2
    assert report["n_samples"] == 6


@pytest.mark.parametrize("fmt", FORMATS)
def test_groups_reach_the_evaluator_as_codes(tmp_path, capsys, monkeypatch, fmt):
    """Text groups were looked up row by row twice (here, then in the
    Evaluator), 14x slower than reading without groups: the Evaluator now
    gets each row's group code (numbers, which it sorts), and Arrow text
    columns arrive dictionary-encoded (no Python string per row)."""
    from turbometrics.io import Coded, open_table

    ext = _use_format(fmt, monkeypatch)
    data = _data()
    path = _write(tmp_path / f"p.{ext}", data)
    seen: list = []
    update = tm.Evaluator.update

    def spy(self, *args, groups=None, **kwargs):
        seen.append(np.asarray(groups).dtype.kind)
        return update(self, *args, groups=groups, **kwargs)

    monkeypatch.setattr(tm.Evaluator, "update", spy)
    report = _run_json(capsys, path, "--group", "g", "--metrics", "roc_auc", "--chunk-rows", "1000")
    assert set(seen) == {"f"}
    for name in ("a", "b", "c"):
        rows = data["g"] == name
        assert report["groups"][name]["metrics"]["roc_auc"] == tm.roc_auc_score(
            data["label"][rows], data["score"][rows]
        )
    chunk, _ = next(open_table(path).chunks(["g"], 1000, coded=["g"]))
    assert isinstance(chunk["g"], Coded) == (fmt in ("parquet", "csv"))


def test_parquet_dictionary_groups_with_nulls(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    data = _data()
    groups = pa.array(np.where(np.arange(N) % 7 == 0, None, data["g"]).tolist()).dictionary_encode()
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"label": data["label"], "score": data["score"], "g": groups}), path)
    report = _run_json(capsys, path, "--group", "g", "--metrics", "roc_auc", "--chunk-rows", "500")
    kept = np.arange(N) % 7 != 0
    assert report["n_group_null"] == N - int(kept.sum())
    for name in ("a", "b", "c"):
        rows = kept & (data["g"] == name)
        assert report["groups"][name]["n_samples"] == int(rows.sum())
        assert report["groups"][name]["metrics"]["roc_auc"] == tm.roc_auc_score(
            data["label"][rows], data["score"][rows]
        )


def test_thresholds_keep_their_digits_and_have_no_gap(tmp_path, capsys):
    """best_f1_threshold was printed with '.6g' ("0.44" next to "0.4402")
    and given a gap between groups, which a threshold does not have."""
    data = _data()
    path = _write(tmp_path / "p.csv", data)
    report = _run_json(capsys, path, "--group", "g", "--metrics", "best_f1")
    assert "best_f1" in report["gaps"] and "best_f1_threshold" not in report["gaps"]
    assert main(["evaluate", str(path), "--group", "g", "--metrics", "best_f1"]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines() if line}
    cells = rows["best_f1_threshold"]
    assert len(cells) == 4  # overall and three groups: no gap
    assert {len(cell.split(".")[1]) for cell in cells} == {6 - len(cell.split(".")[0].lstrip("0")) for cell in cells}
    for cell, value in zip(
        cells,
        [report["metrics"]["best_f1_threshold"]]
        + [g["metrics"]["best_f1_threshold"] for g in report["groups"].values()],
    ):
        assert float(cell) == float(f"{value:.6g}")
    from turbometrics.cli._report import threshold_text

    assert [threshold_text(v) for v in (0.44, 0.4402, 12.0, 1e-7, 123456.0)] == [
        "0.440000",
        "0.440200",
        "12.0000",
        "1.00000e-07",
        "123456",
    ]


def test_help_names_multiclass(capsys):
    assert main(["--help"]) == 0
    assert "binary and multiclass classifiers" in " ".join(capsys.readouterr().out.split())


def test_the_demo_data_script_writes_where_it_is_told_and_says_so(tmp_path):
    pytest.importorskip("pyarrow")
    script = Path(__file__).resolve().parents[2] / "docs" / "examples" / "cli_demo_data.py"
    output = tmp_path / "demo.parquet"
    done = subprocess.run(
        [sys.executable, str(script), str(output)], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout == f"wrote {output} (1,000,000 rows: label, score, region, weight)\n"
    assert output.stat().st_size > 0
