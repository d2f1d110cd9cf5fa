"""The faint-ink readers' 8-bit twins (scripts/quantize_models.py): made from the crops real
photos give, read through by default, and reading as the float networks do."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.classify import FaintBaseGameClassifier
from vision.model_files import models_dir
from vision.recognizer import Recognizer

TWINNED = ("faint_base_classifier", "faint_cell_classifier")


def _network_files(reader: Recognizer) -> set[str]:
    return {reader.faint.parts.session._model_path.split("/")[-1],
            reader.faint.base.session._model_path.split("/")[-1]}


def test_the_shipped_faint_readers_are_read_through_their_int8_twins():
    folder = models_dir()
    for name in TWINNED:
        twin = json.loads((folder / f"{name}.json").read_text())["int8"]
        assert twin["file"] == f"{name}.int8.onnx"
        assert (folder / twin["file"]).stat().st_size <= 1_000_000  # issue 16: under 1 MB
        # checked on crops of photos it was not calibrated on
        assert twin["check"]["seed"] != twin["calibration"]["seed"]
        assert twin["check"]["same_class"] >= 0.98
    assert _network_files(Recognizer.load()) == {f"{name}.int8.onnx" for name in TWINNED}
    assert _network_files(Recognizer.load(int8=False)) == {f"{name}.onnx" for name in TWINNED}


def test_a_phone_photo_reads_the_same_through_the_twins():
    """A phone photo whose board the faint-ink readers read: the twins give the same board,
    with probabilities within a few hundredths of the float networks'."""
    photo, _ = load_script("evaluate").render_case(8_980_003, None, "phone", None)
    float_reading = Recognizer.load(int8=False).read(photo.image)
    int8_reading = Recognizer.load().read(photo.image)
    assert float_reading.readers == int8_reading.readers
    assert "faint" in int8_reading.readers
    assert int8_reading.grid == float_reading.grid
    assert np.abs(int8_reading.probs - float_reading.probs).max() < 0.1


def test_quantizing_records_real_crops_and_checks_the_twin_on_others(tmp_path):
    quantize = load_script("quantize_models")
    assert quantize.main(["--names", "faint_base_classifier", "--out", str(tmp_path),
                          "--n", "2", "--check-n", "2", "--seed", "8990000",
                          "--check-seed", "8980000"]) == 0
    record = json.loads((tmp_path / "faint_base_classifier.json").read_text())
    shipped = json.loads((models_dir() / "faint_base_classifier.json").read_text())
    # the float network and its metadata travel unchanged beside the twin
    assert (tmp_path / "faint_base_classifier.onnx").read_bytes() == (
        models_dir() / "faint_base_classifier.onnx").read_bytes()
    assert {k: v for k, v in record.items() if k != "int8"} == {
        k: v for k, v in shipped.items() if k != "int8"}
    twin = record["int8"]
    assert twin["calibration"]["crops_used"] > 49  # more than one board's crops
    assert twin["check"]["crops"] > 49 and twin["check"]["same_class"] >= 0.95
    reader = FaintBaseGameClassifier.load(tmp_path)
    assert reader.session._model_path.endswith("faint_base_classifier.int8.onnx")
    assert FaintBaseGameClassifier.load(tmp_path, int8=False).session._model_path.endswith(
        "faint_base_classifier.onnx")
    # the twin is an int8 network: its convolutions read quantized weights
    import onnx

    ops = {node.op_type for node in onnx.load(tmp_path / twin["file"]).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv"} <= ops


def test_quantizing_an_unknown_network_says_which(tmp_path, capsys):
    quantize = load_script("quantize_models")
    with pytest.raises(SystemExit):
        quantize.main(["--names", "no_such_reader", "--out", str(tmp_path)])
    assert "no_such_reader: no no_such_reader.onnx and no_such_reader.json in" in (
        capsys.readouterr().err)


def test_a_twin_made_from_another_float_file_is_not_read(tmp_path):
    """A network retrained after its twin was made is read in float until quantized again
    (the twin names the SHA-256 of the float file it came from)."""
    import shutil

    for suffix in (".onnx", ".int8.onnx", ".json"):
        shutil.copyfile(models_dir() / f"faint_base_classifier{suffix}",
                        tmp_path / f"faint_base_classifier{suffix}")
    assert FaintBaseGameClassifier.load(tmp_path).session._model_path.endswith(".int8.onnx")
    meta_path = tmp_path / "faint_base_classifier.json"
    shipped = meta_path.read_text()
    record = json.loads(shipped)
    record["int8"]["from"] = "0" * 64  # as if the float network had been trained again
    meta_path.write_text(json.dumps(record))
    assert FaintBaseGameClassifier.load(tmp_path).session._model_path.endswith(
        "faint_base_classifier.onnx")
    meta_path.write_text(shipped)
    (tmp_path / "faint_base_classifier.int8.onnx").unlink()  # a twin named but missing
    assert FaintBaseGameClassifier.load(tmp_path).session._model_path.endswith(
        "faint_base_classifier.onnx")


def test_quantizing_a_broken_network_file_says_which(tmp_path):
    quantize = load_script("quantize_models")
    (tmp_path / "faint_base_classifier.onnx").write_text("not a network")
    (tmp_path / "faint_base_classifier.json").write_text(
        (models_dir() / "faint_base_classifier.json").read_text())
    with pytest.raises(SystemExit, match=r"faint_base_classifier\.onnx: not a readable ONNX file"):
        quantize.main(["--names", "faint_base_classifier", "--models", str(tmp_path),
                       "--out", str(tmp_path / "out")])
