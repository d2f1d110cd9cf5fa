"""A tiny end-to-end training run keeps generate_dataset.py and train_classifier.py working."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.classify import BaseGameClassifier, CellClassifier
from vision.crops import InkGain
from vision.model_meta import CLASSES, ModelMeta, mirror_index_map, rotation_index_map
from vision.space_parts import BASE_CLASSES, WATER_CLASSES

pytest.importorskip("torch", reason="training needs the 'train' extra (torch)")


def _small_boards(out: Path, n: int, seed: int, *options: str) -> Path:
    """``n`` small photos (1-1.2 MP) of generate_dataset.py in one part under ``out``."""
    generate = load_script("generate_dataset")
    assert generate.main(["--n", str(n), "--seed", str(seed), "--out", str(out),
                          "--workers", "1", "--part-size", str(n), "--mp-min", "1",
                          "--mp-max", "1.2", *options]) == 0
    return out


def test_generate_then_train_then_run(tmp_path):
    generate = load_script("generate_dataset")
    train = load_script("train_classifier")
    data = tmp_path / "data"
    assert generate.main(["--n", "4", "--seed", "4242", "--out", str(data), "--workers", "1",
                          "--part-size", "4", "--mp-min", "1", "--mp-max", "1.2"]) == 0
    part = data / "part000.npz"
    with np.load(part) as d:
        assert d["boards"].shape == (4, 384, 384) and d["labels"].shape == (4, 7, 7)
        assert d["wide"].shape[0] == 4
    models = tmp_path / "models"
    assert train.main(["--data", str(part), "--out", str(models), "--epochs", "1",
                       "--batch", "32", "--val-fraction", "0.25", "--orienter-epochs", "1"]) == 0
    meta = ModelMeta.load(models / "cell_classifier.json")
    assert meta.n_training_samples > 100 and meta.accuracy["epochs_done"] == 1
    classifier = CellClassifier.load(models)
    crops = np.zeros((49, meta.input_size, meta.input_size), np.uint8)
    probs = classifier.read(crops, turns=4)
    assert probs.shape == (49, len(CLASSES))
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    sides, joins = classifier.parts(crops[:3])
    assert sides.shape == (3, 4, 5) and joins.shape == (3, 6)
    np.testing.assert_allclose(sides.sum(axis=2), 1.0, atol=1e-4)
    assert meta.side_kinds == ["_", "H", "R", "W", "L"] and len(meta.join_pairs) == 6
    assert (models / "board_orienter.onnx").exists()
    assert meta.data_version.endswith("4 photos, seeds 4242-4245")
    assert meta.recipe.startswith("scripts/train_classifier.py --data ")


def test_deep_blue_and_phone_photos_are_labelled_by_their_parts(tmp_path):
    """--expansion draws River/Lake boards whose water is labelled with the water classes;
    --conditions phone photos of base boards keep to the base classes (hidden spaces: -1)."""
    generate = load_script("generate_dataset")
    water, phone = tmp_path / "water", tmp_path / "phone"
    common = ["--workers", "1", "--part-size", "6", "--mp-min", "1", "--mp-max", "1.2"]
    assert generate.main(["--n", "6", "--seed", "4300", "--out", str(water),
                          "--expansion", "mix", *common]) == 0
    water_classes = {i for i, token in enumerate(CLASSES) if token in WATER_CLASSES}
    with np.load(water / "part000.npz") as d:
        labels = d["labels"]
        assert str(d["expansion"]) == "mix"
    assert len(water_classes & set(labels.ravel().tolist())) >= 5
    assert generate.main(["--n", "6", "--seed", "4400", "--out", str(phone),
                          "--conditions", "phone", *common]) == 0
    with np.load(phone / "part000.npz") as d:
        labels = d["labels"]
    assert labels.min() >= -1 and labels.max() < len(BASE_CLASSES) + 32
    assert not water_classes & set(labels.ravel().tolist())


def test_partly_covered_spaces_keep_their_label_below_hidden(tmp_path):
    """--hidden: a space that a hand, pen or die covers by less than that share keeps its
    label (the reader learns to read what shows of it); more covered ones stay -1, the
    default (0.2) is as before, and the photos are the same either way."""
    from vision.render import PhotoOptions, render_photo, sample_grid

    generate = load_script("generate_dataset")
    seed, common = 4404, ["--n", "1", "--workers", "1", "--part-size", "1", "--mp-min", "1",
                          "--mp-max", "1.2", "--conditions", "phone"]
    rng = np.random.default_rng([seed, 77])
    grid = sample_grid(rng)
    truth = render_photo(grid, seed=seed, megapixels=float(rng.uniform(1, 1.2)),
                         options=PhotoOptions(conditions="phone")).covered
    partly = {space for space, share in truth.items() if 0.2 <= share < 0.5}
    mostly = {space for space, share in truth.items() if share >= 0.5}
    assert partly and mostly  # this render has both (a hand over the bottom left)
    read = {}
    for hidden in (None, "0.5"):
        out = tmp_path / str(hidden)
        extra = [] if hidden is None else ["--hidden", hidden]
        assert generate.main([*common, "--seed", str(seed), "--out", str(out), *extra]) == 0
        with np.load(out / "part000.npz") as data:
            read[hidden] = {key: data[key] for key in ("hidden", "boards", "labels")}
    before, after = read[None], read["0.5"]
    assert float(before["hidden"]) == 0.2 and float(after["hidden"]) == 0.5
    np.testing.assert_array_equal(before["boards"], after["boards"])
    for r, c in partly:
        assert before["labels"][0, r, c] == -1 and after["labels"][0, r, c] >= 0
    for r, c in mostly:
        assert before["labels"][0, r, c] == after["labels"][0, r, c] == -1
    changed = {tuple(int(i) for i in rc)
               for rc in np.argwhere(before["labels"][0] != after["labels"][0])}
    assert changed == partly
    with pytest.raises(SystemExit):
        generate.main([*common, "--seed", str(seed), "--out", str(tmp_path / "x"),
                       "--hidden", "0"])


def test_data_and_training_are_reproducible(tmp_path):
    """The same seeds give the same data bit for bit, and the same data the same model."""
    import torch

    generate = load_script("generate_dataset")
    train = load_script("train_classifier")
    parts = []
    for run in ("a", "b"):
        out = tmp_path / f"data_{run}"
        generate.main(["--n", "2", "--seed", "777", "--out", str(out), "--workers", "1",
                       "--part-size", "2", "--mp-min", "1", "--mp-max", "1.1"])
        parts.append(out / "part000.npz")
    with np.load(parts[0]) as a, np.load(parts[1]) as b:
        for key in ("boards", "wide", "labels"):
            np.testing.assert_array_equal(a[key], b[key])
    weights = []
    for run in ("a", "b"):
        models = tmp_path / f"models_{run}"
        train.main(["--data", str(parts[0]), "--out", str(models), "--epochs", "1",
                    "--batch", "16", "--val-fraction", "0.5", "--orienter-epochs", "0",
                    "--threads", "2"])
        weights.append(torch.load(models / "cell_classifier.pt", weights_only=True))
    for name, tensor in weights[0].items():
        assert torch.equal(tensor, weights[1][name]), name


def test_the_ink_measure_travels_from_the_data_to_the_model(tmp_path):
    """Data version 7 (as 5 and 6) cuts crops from each colour channel, version 4
    (--darkest-channel) from the darkest; a model records which (ModelMeta.ink_channels),
    so that the reader gives it its crops cut the same way."""
    generate = load_script("generate_dataset")
    train = load_script("train_classifier")
    common = ["--n", "2", "--seed", "4500", "--workers", "1", "--part-size", "2",
              "--mp-min", "1", "--mp-max", "1.1"]
    darkest, each = tmp_path / "v4", tmp_path / "v5"
    assert generate.main([*common, "--out", str(darkest), "--darkest-channel"]) == 0
    assert generate.main([*common, "--out", str(each)]) == 0
    with np.load(darkest / "part000.npz") as d4, np.load(each / "part000.npz") as d5:
        assert (str(d4["data_version"]), str(d5["data_version"])) == ("v4", "v7")
        assert "blue" in d5 and "blue" not in d4
        assert "marks" in d5 and not d5["marks"].any()  # the renderer's own conditions: none
        np.testing.assert_array_equal(d4["labels"], d5["labels"])
        assert not np.array_equal(d4["boards"], d5["boards"])  # tinted paper differs
    for parts, expected in (([darkest], "darkest"), ([darkest, each], "each")):
        models = tmp_path / f"models_{expected}"
        assert train.main(["--data", *(str(p / "part000.npz") for p in parts), "--out",
                           str(models), "--epochs", "1", "--batch", "16", "--val-fraction",
                           "0.5", "--orienter-epochs", "0"]) == 0
        meta = ModelMeta.load(models / "cell_classifier.json")
        assert meta.ink_channels == expected
        assert meta.data_version.startswith("generate_dataset v4" + (
            " + v7" if expected == "each" else ","))


def test_augmentation_turns_labels_with_the_crops():
    train = load_script("train_classifier")
    size = 48
    j = train.JITTER_PX
    crops = np.zeros((2, size + 2 * j, size + 2 * j), np.uint8)
    crops[:, j + 20:j + 28, j:j + 24] = 255  # a stroke from the West side to the centre
    labels = np.array([0, 5])
    augment = train.Augmenter(size, seed=1)
    x, y = augment(crops, labels)
    assert x.shape == (2, 1, size, size)
    rot = [rotation_index_map(k) for k in range(4)]
    mirror = mirror_index_map()
    # every label is some dihedral image of the original
    for original, out in zip(labels, y.tolist()):
        images = {rot[k][original] for k in range(4)} | {rot[k][mirror[original]] for k in range(4)}
        assert out in images


def test_the_base_game_reader_trains_on_base_boards_only_with_the_ink_gain(tmp_path):
    """--base-game: a flat head over the 83 base classes, water boards left out, the ink gain
    recorded; the exported file reads as the base-game reader."""
    generate = load_script("generate_dataset")
    train = load_script("train_classifier")
    common = ["--workers", "1", "--part-size", "3", "--mp-min", "1", "--mp-max", "1.2"]
    base, water = tmp_path / "base", tmp_path / "water"
    assert generate.main(["--n", "3", "--seed", "4500", "--out", str(base), *common]) == 0
    assert generate.main(["--n", "3", "--seed", "4600", "--out", str(water),
                          "--expansion", "river", *common]) == 0
    models = tmp_path / "models"
    assert train.main(["--data", str(base / "part000.npz"), str(water / "part000.npz"),
                       "--out", str(models), "--epochs", "1", "--batch", "32",
                       "--val-fraction", "0.34", "--orienter-epochs", "0", "--width", "8",
                       "--base-game"]) == 0
    assert not (models / "cell_classifier.onnx").exists()
    meta = ModelMeta.load(models / "base_classifier.json")
    assert meta.classes == list(CLASSES[:83]) and meta.side_kinds == []
    assert meta.data_version.endswith("the 3 base-game boards among them")
    assert meta.n_training_samples <= 2 * 49  # one board held out for validation
    assert meta.ink_gain == asdict(InkGain())
    reader = BaseGameClassifier.load(models)
    probs = reader.read(np.zeros((49, meta.input_size, meta.input_size), np.uint8))
    assert probs.shape == (49, 83)


def test_the_blue_channel_travels_from_the_data_to_the_model(tmp_path):
    """Data version 6 keeps each board's ink blueness; ``--blue`` trains the parts network on
    it as a second input channel, started from a one-channel network's weights (the new
    channel's at zero, so it first reads exactly as that one), and the reader gives it its
    crops both ways (ModelMeta.ink_channels "each+blue")."""
    import torch

    generate = load_script("generate_dataset")
    train = load_script("train_classifier")
    common = ["--n", "2", "--seed", "4600", "--workers", "1", "--part-size", "2",
              "--mp-min", "1", "--mp-max", "1.1", "--expansion", "river"]
    v6, v4 = tmp_path / "v6", tmp_path / "v4"
    assert generate.main([*common, "--out", str(v6)]) == 0
    assert generate.main([*common, "--out", str(v4), "--darkest-channel"]) == 0
    with np.load(v6 / "part000.npz") as d:
        assert str(d["data_version"]) == "v7" and d["blue"].shape == d["boards"].shape
        assert d["blue"].max() > 0  # blue water or ink somewhere on the two boards
    training = ["--epochs", "1", "--batch", "16", "--val-fraction", "0.5",
                "--orienter-epochs", "0", "--no-ink-gain"]
    one = tmp_path / "one"
    assert train.main(["--data", str(v6 / "part000.npz"), "--out", str(one), *training]) == 0
    two = tmp_path / "two"
    assert train.main(["--data", str(v6 / "part000.npz"), "--out", str(two), *training,
                       "--blue", "--init", str(one / "cell_classifier.pt")]) == 0
    meta = ModelMeta.load(two / "cell_classifier.json")
    assert (meta.channels, meta.ink_channels) == (2, "each+blue")
    classifier = CellClassifier.load(two)
    crops = np.random.default_rng(1).integers(0, 255, (49, 2, 72, 72), dtype=np.uint8)
    probs = classifier.read(crops, turns=4)
    assert probs.shape == (49, len(CLASSES))
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    with pytest.raises(SystemExit, match="no ink blueness"):
        train.main(["--data", str(v4 / "part000.npz"), "--out", str(tmp_path / "x"),
                    *training, "--blue"])
    # widened from the one-channel weights, the network reads as they do, whatever the blue
    narrow, wide = train.CellNet(), train.CellNet(channels=2)
    train.load_matching(narrow, one / "cell_classifier.pt")
    train.load_matching(wide, one / "cell_classifier.pt")
    narrow.eval(), wide.eval()
    x = torch.from_numpy(crops[:8].astype(np.float32) / 255)
    with torch.no_grad():
        torch.testing.assert_close(wide(x)[0], narrow(x[:, :1])[0])


def test_a_mark_head_is_added_without_changing_the_reading(tmp_path):
    """generate_dataset.py labels the marks of profile phone_marked; train_mark_head.py puts a
    head on a trained parts network (here the shipped one, frozen) and exports it with a
    fourth output, while the network's own outputs stay as they were."""
    import onnxruntime as ort

    from vision.model_files import models_dir
    from vision.onnx_model import softmax

    train_marks = load_script("train_mark_head")
    data = _small_boards(tmp_path / "data", 4, 4500, "--conditions", "phone_marked")
    part = data / "part000.npz"
    with np.load(part) as d:
        assert d["marks"].shape == (4, 7, 7) and d["marks"].sum(axis=(1, 2)).min() >= 1
        assert str(d["data_version"]) == "v7"
    shipped = models_dir()
    out = tmp_path / "models"
    weights = Path(__file__).resolve().parents[1] / "models" / "cell_classifier.pt"
    assert train_marks.main(["--init", str(weights),
                             "--meta", str(shipped / "cell_classifier.json"), "--data", str(part),
                             "--out", str(out), "--epochs", "1", "--batch", "32",
                             "--val-fraction", "0.25"]) == 0
    meta = ModelMeta.load(out / "cell_classifier.json")
    assert meta.mark_head["output"] == "marks" and 0.0 < meta.mark_head["threshold"] < 1.0
    assert meta.classes == ModelMeta.load(shipped / "cell_classifier.json").classes
    with np.load(part) as d:
        crops = np.stack([d["boards"][0, 12:84, 12:84], d["blue"][0, 12:84, 12:84]])[None]
    x = ((crops.astype(np.float32) / 255.0 - meta.mean) / meta.std).repeat(3, axis=0)
    before = ort.InferenceSession(str(shipped / "cell_classifier.onnx")).run(None, {"crops": x})
    after = ort.InferenceSession(str(out / "cell_classifier.onnx")).run(None, {"crops": x})
    assert after[3].shape == (3,)
    for old, new in zip(before[:3], after[:3], strict=True):
        np.testing.assert_allclose(new, old, atol=1e-5)
    probs, marks = CellClassifier.load(out).first_reading(np.repeat(crops, 3, axis=0))
    np.testing.assert_allclose(probs, softmax(before[0] / meta.temperature), atol=1e-5)
    assert marks.shape == (3,) and ((marks >= 0) & (marks <= 1)).all()


def test_a_shipped_network_is_tuned_on_from_its_onnx_file(tmp_path):
    """--init with a shipped .onnx file (whose .pt was never kept) starts from exactly the
    network the reader runs: its batch norms folded into the convolutions, kept frozen."""
    import onnxruntime as ort
    import torch

    train = load_script("train_classifier")
    from vision.model_files import models_dir

    shipped = models_dir()
    rng = np.random.default_rng(5)
    for name, make, channels in (
            ("faint_base_classifier", train.BaseGameNet, 1),
            ("faint_cell_classifier", lambda width, late_width: train.CellNet(
                width=width, channels=2, late_width=late_width), 2)):
        path = shipped / f"{name}.onnx"
        width, late = train.onnx_widths(path)
        model = make(width=width, late_width=late)
        assert train.load_onnx_weights(model, path) == 27
        model.eval()
        x = rng.normal(0, 1, (6, channels, 72, 72)).astype(np.float32)
        with torch.no_grad():
            ours = model(torch.from_numpy(x))[0].numpy()
        theirs = ort.InferenceSession(str(path)).run(["logits"], {"crops": x})[0]
        np.testing.assert_allclose(ours, theirs, atol=1e-4)
        # the batch norms keep the folded statistics when training resumes with them frozen
        model.train()
        train.freeze_norms(model)
        with torch.no_grad():
            again = model(torch.from_numpy(x))[0]
        assert not any(m.training for m in model.modules()
                       if isinstance(m, torch.nn.BatchNorm2d))
        assert again.shape == ours.shape
    with pytest.raises(SystemExit, match="not the same network"):
        train.load_onnx_weights(train.CellNet(width=16, channels=2),  # it is 24 wide
                                shipped / "faint_cell_classifier.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_text("not a network")
    for path in (broken, tmp_path / "missing.onnx"):
        with pytest.raises(SystemExit, match=f"{path.name}: not a readable ONNX file"):
            train.load_onnx_weights(train.BaseGameNet(width=16), path)


def test_a_narrow_network_widened_reads_as_before(tmp_path):
    """--init with a narrower network's .onnx file widens it (Net2WiderNet): the wide network
    starts out computing what the narrow one did, for both readers; a run from it trains and
    exports a wider reader."""
    import torch

    train = load_script("train_classifier")
    rng = np.random.default_rng(8)
    for make, channels in ((train.BaseGameNet, 1),
                           (lambda width: train.CellNet(width=width, channels=2), 2)):
        narrow, wide, noisy = make(width=8), make(width=13), make(width=13)
        with torch.no_grad():  # batch norms with statistics of their own, as a trained net's
            for module in narrow.modules():
                if isinstance(module, torch.nn.BatchNorm2d):
                    module.running_mean.uniform_(-0.5, 0.5)
                    module.running_var.uniform_(0.5, 2.0)
                    module.weight.uniform_(0.5, 1.5)
                    module.bias.uniform_(-0.2, 0.2)
        train.widen(narrow, wide, seed=3, noise=0.0)
        narrow.eval()
        wide.eval()
        x = torch.from_numpy(rng.normal(0, 1, (5, channels, 72, 72)).astype(np.float32))
        with torch.no_grad():
            for ours, theirs in zip(wide(x), narrow(x)):
                np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-4)
        # with the symmetry-breaking noise it reads almost, not exactly, the same
        train.widen(narrow, noisy, seed=3)
        noisy.eval()
        with torch.no_grad():
            moved = (noisy(x)[0] - narrow(x)[0]).abs().max().item()
        assert 0 < moved < 0.05 * narrow(x)[0].abs().max().item()

    # widened after the 18 x 18 map alone (--late-width): the same function, and the early
    # stages (where the mark head branches off) the very same weights
    narrow = train.CellNet(width=8, channels=2)
    late = train.CellNet(width=8, channels=2, late_width=13)
    train.widen(narrow, late, seed=3, noise=0.0)
    narrow.eval()
    late.eval()
    x = torch.from_numpy(rng.normal(0, 1, (5, 2, 72, 72)).astype(np.float32))
    with torch.no_grad():
        np.testing.assert_allclose(late(x)[0].numpy(), narrow(x)[0].numpy(), atol=1e-4)
    for a, b in zip(narrow.features[:train.LATE].state_dict().values(),
                    late.features[:train.LATE].state_dict().values()):
        assert torch.equal(a, b)
    assert late.features[train.LAST_CONV].out_channels == 4 * 13

    generate = load_script("generate_dataset")
    data = tmp_path / "data"
    assert generate.main(["--n", "2", "--seed", "4700", "--out", str(data), "--workers", "1",
                          "--part-size", "2", "--mp-min", "1", "--mp-max", "1.2"]) == 0
    common = ["--data", str(data / "part000.npz"), "--epochs", "1", "--batch", "32",
              "--val-fraction", "0.5", "--orienter-epochs", "0", "--base-game"]
    assert train.main([*common, "--out", str(tmp_path / "narrow"), "--width", "8"]) == 0
    narrow_file = tmp_path / "narrow" / "base_classifier.onnx"
    assert train.onnx_widths(narrow_file)[0] == 8
    assert train.main([*common, "--out", str(tmp_path / "wide"), "--width", "12",
                       "--init", str(narrow_file), "--freeze-norms"]) == 0
    assert train.onnx_widths(tmp_path / "wide" / "base_classifier.onnx")[0] == 12
    meta = ModelMeta.load(tmp_path / "wide" / "base_classifier.json")
    assert meta.notes == "BaseGameNet width 12"
    reader = BaseGameClassifier.load(tmp_path / "wide")
    assert reader.read(np.zeros((49, 72, 72), np.uint8)).shape == (49, 83)


def test_weights_stored_as_float16_read_as_the_network_does(tmp_path):
    """--half-weights stores the exported weights as float16 (store_half): the file is about
    half as large, onnxruntime reads it as the trained float32 network within float16's
    rounding, and a run started from it (onnx_widths, load_onnx_weights) gets those weights."""
    import onnxruntime as ort
    import torch

    train = load_script("train_classifier")
    data = _small_boards(tmp_path / "data", 2, 4800)
    out = tmp_path / "half"
    assert train.main(["--data", str(data / "part000.npz"), "--epochs", "1", "--batch", "32",
                       "--val-fraction", "0.5", "--orienter-epochs", "0", "--base-game",
                       "--width", "10", "--out", str(out), "--half-weights"]) == 0
    trained = train.BaseGameNet(width=10)
    trained.load_state_dict(torch.load(out / "base_classifier.pt"))
    full = tmp_path / "full.onnx"
    train.export_onnx(trained, 72, full, ("logits",))
    half = out / "base_classifier.onnx"
    assert 0.45 < half.stat().st_size / full.stat().st_size < 0.6
    x = np.random.default_rng(9).normal(0, 1, (6, 1, 72, 72)).astype(np.float32)
    with torch.no_grad():
        ours = trained(torch.from_numpy(x))[0].numpy()
    theirs = ort.InferenceSession(str(half)).run(["logits"], {"crops": x})[0]
    assert not np.array_equal(theirs, ours)  # rounded, ...
    np.testing.assert_allclose(theirs, ours, atol=2e-3 * np.abs(ours).max())  # ... slightly
    assert train.onnx_widths(half)[0] == 10
    model = train.BaseGameNet(width=10)
    assert train.load_onnx_weights(model, half) == 27
    model.eval()
    with torch.no_grad():
        np.testing.assert_allclose(model(torch.from_numpy(x))[0].numpy(), theirs, atol=1e-4)
    assert ModelMeta.load(out / "base_classifier.json").notes.endswith(
        "weights stored as float16 (store_half)")
    reader = BaseGameClassifier.load(out)
    assert reader.read(np.zeros((49, 72, 72), np.uint8)).shape == (49, 83)
    # a weight float16 cannot hold ends the run in one line naming the file and the weight
    with torch.no_grad():
        trained.head[2].weight[0, 0] = 1e6
    train.export_onnx(trained, 72, full, ("logits",))
    with pytest.raises(SystemExit, match=re.escape("full.onnx: weight head.2.weight is too large")):
        train.store_half(full)


def test_bad_data_and_weights_paths_end_in_one_line_naming_them(tmp_path, capsys):
    train = load_script("train_classifier")
    not_npz = tmp_path / "notes.npz"
    not_npz.write_text("not a dataset")
    other = tmp_path / "other.npz"
    np.savez(other, boards=np.zeros((1, 4, 4), np.uint8))
    cases = [(tmp_path, "a folder, not a dataset file"),
             (tmp_path / "missing.npz", "no such dataset file"),
             (not_npz, "not a dataset file (.npz)"),
             (other, "not a dataset of scripts/generate_dataset.py (no labels, wide")]
    for path, message in cases:
        with pytest.raises(SystemExit) as exc:
            train.main(["--data", str(path), "--out", str(tmp_path / "models")])
        assert str(exc.value).startswith(f"{path}: {message}")
    broken = tmp_path / "broken.pt"
    broken.write_text("not weights")
    for path, message in ((broken, "not a PyTorch weights file (.pt)"),
                          (tmp_path / "missing.pt", "no such weights file")):
        with pytest.raises(SystemExit, match=rf"^{path}: {re.escape(message)}"):
            train.load_weights(path)
    from vision.model_files import models_dir
    orienter = models_dir() / "board_orienter.onnx"  # an ONNX file, not a space reader
    with pytest.raises(SystemExit, match=rf"^{re.escape(str(orienter))}: not one of rink's "
                                         r"space readers \(no convolution named features\.14"):
        train.onnx_widths(orienter)


def test_freeze_early_keeps_the_blocks_the_mark_head_branches_off(tmp_path):
    """--freeze-early 7: tuning leaves the first two convolution blocks (weights and batch-norm
    statistics) exactly as they start, while the rest learns; a mark head put on the tuned
    network therefore gives the very logits it gave on the network it was trained on."""
    import torch

    train = load_script("train_classifier")
    marks = load_script("train_mark_head")
    data = _small_boards(tmp_path / "data", 3, 4700, "--expansion", "mix")
    common = ["--data", str(data / "part000.npz"), "--epochs", "1", "--batch", "32",
              "--val-fraction", "0.34", "--orienter-epochs", "0", "--width", "8", "--blue"]
    assert train.main([*common, "--out", str(tmp_path / "a")]) == 0
    start = tmp_path / "a" / "cell_classifier.pt"
    assert train.main([*common, "--out", str(tmp_path / "b"), "--init", str(start),
                       "--freeze-early", str(marks.BRANCH), "--lr", "1e-2"]) == 0
    before = torch.load(start, weights_only=True)
    after = torch.load(tmp_path / "b" / "cell_classifier.pt", weights_only=True)
    early = [name for name in before
             if name.startswith("features.") and int(name.split(".")[1]) < marks.BRANCH]
    assert any(name.endswith("running_mean") for name in early)
    for name in early:
        assert torch.equal(before[name], after[name]), name
    assert not torch.equal(before["features.7.weight"], after["features.7.weight"])
    assert not torch.equal(before["head.2.weight"], after["head.2.weight"])

    head = marks.MarkHead(16)
    crops = torch.rand(5, 2, 72, 72)
    logits = []
    for state in (before, after):
        net = train.CellNet(width=8, channels=2)
        net.load_state_dict(state)
        model = marks.MarkedCellNet(net, head).eval()
        with torch.no_grad():
            logits.append(model(crops))
    assert torch.equal(logits[0][3], logits[1][3])  # the marks output
    assert not torch.equal(logits[0][1], logits[1][1])  # the side kinds
    with pytest.raises(SystemExit):  # argparse's one line, not a traceback
        train.main([*common, "--out", str(tmp_path / "c"), "--freeze-early", "-1"])


def test_the_shipped_mark_head_goes_back_on_a_network_tuned_with_its_blocks_kept(tmp_path):
    """train_mark_head.py --head-from: the shipped faint-ink reader's mark head, threshold and
    figures go onto a network tuned from its ONNX file with --freeze-early 7 (no marked data
    needed: the head's logits are the same, checked); on a network tuned without it the put
    back is refused in one line."""
    import onnxruntime as ort

    from vision.model_files import models_dir

    train = load_script("train_classifier")
    marks = load_script("train_mark_head")
    shipped = models_dir() / "faint_cell_classifier.onnx"
    data = _small_boards(tmp_path / "data", 2, 4710, "--expansion", "mix")
    common = ["--data", str(data / "part000.npz"), "--epochs", "1", "--batch", "8",
              "--val-fraction", "0.5", "--orienter-epochs", "0", "--width", "24", "--blue",
              "--freeze-norms", "--init", str(shipped), "--lr", "1e-2"]
    assert train.main([*common, "--out", str(tmp_path / "kept"),  # widened late, too
                       "--freeze-early", str(marks.BRANCH), "--late-width", "40"]) == 0
    assert train.onnx_widths(tmp_path / "kept" / "cell_classifier.onnx") == (24, 40)
    assert ModelMeta.load(tmp_path / "kept" / "cell_classifier.json").notes == (
        "CellNet width 24, late width 40")
    assert train.main([*common, "--out", str(tmp_path / "moved")]) == 0

    put_back = ["--meta", str(shipped.with_suffix(".json")), "--head-from", str(shipped),
                "--name", "faint_cell_classifier", "--threads", "1"]
    assert marks.main(["--init", str(tmp_path / "kept" / "cell_classifier.pt"),
                       "--out", str(tmp_path / "out"), *put_back]) == 0
    ours = tmp_path / "out" / "faint_cell_classifier.onnx"
    crops = np.random.default_rng(3).random((8, 2, 72, 72), np.float32)
    runs = [ort.InferenceSession(str(path)).run(["sides", "marks"], {"crops": crops})
            for path in (shipped, ours)]
    np.testing.assert_allclose(runs[0][1], runs[1][1], atol=1e-4)  # the same marks
    assert np.abs(runs[0][0] - runs[1][0]).max() > 1e-3  # but a tuned reading
    assert train.onnx_widths(ours) == (24, 40)
    # --half-weights: the same head on float16 weights (store_half), in about half the file
    assert marks.main(["--init", str(tmp_path / "kept" / "cell_classifier.pt"),
                       "--out", str(tmp_path / "half"), "--half-weights", *put_back]) == 0
    half = tmp_path / "half" / "faint_cell_classifier.onnx"
    assert half.stat().st_size < 0.6 * ours.stat().st_size
    halved = ort.InferenceSession(str(half)).run(["sides", "marks"], {"crops": crops})
    np.testing.assert_allclose(halved[1], runs[1][1], atol=0.05)
    np.testing.assert_allclose(halved[0], runs[1][0], atol=0.05)
    before = ModelMeta.load(shipped.with_suffix(".json")).mark_head
    after = ModelMeta.load(ours.with_suffix(".json")).mark_head
    assert after["threshold"] == before["threshold"] and after["figures"] == before["figures"]
    assert after["put_back"]["from"] == shipped.name and "--head-from" in after["recipe"]

    with pytest.raises(SystemExit, match="first 7 modules changed"):
        marks.main(["--init", str(tmp_path / "moved" / "cell_classifier.pt"),
                    "--out", str(tmp_path / "refused"), *put_back])
    assert not list((tmp_path / "refused").glob("*.onnx"))
    with pytest.raises(SystemExit, match="--data: marked boards are needed"):
        marks.main(["--init", str(tmp_path / "kept" / "cell_classifier.pt"),
                    "--meta", str(shipped.with_suffix(".json")), "--out", str(tmp_path / "x")])


def test_grain_falls_on_its_share_of_the_training_photos():
    """--grain: a photo drawn to have none is the photo made without --grain; one drawn to
    have it carries noise within GRAIN_SIGMA, the same for the same seed."""
    generate = load_script("generate_dataset")
    photo = np.full((300, 300, 3), 128, np.uint8)
    assert generate.grained(photo, 5, 0.0) is photo
    chosen = [seed for seed in range(40) if generate.grained(photo, seed, 0.5) is not photo]
    assert 8 <= len(chosen) <= 32  # about half of them
    noisy = generate.grained(photo, chosen[0], 0.5)
    low, high = generate.GRAIN_SIGMA
    assert low - 0.5 < (noisy.astype(float) - 128).std() < high + 0.5
    assert np.array_equal(noisy, generate.grained(photo, chosen[0], 0.5))
