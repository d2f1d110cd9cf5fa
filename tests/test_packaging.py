"""The wheel ships every package of the source tree (pyproject lists them by hand)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_package_and_maps_the_models():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("scoring", "vision", "rink")
        for init in (ROOT / top).rglob("__init__.py")
    }
    listed = set(config["packages"])
    assert listed - {"rink.models"} == found
    assert config["package-dir"] == {"rink.models": "models"}
    assert (ROOT / "models" / "__init__.py").exists()
    assert set(config["package-data"]["rink.models"]) == {"*.onnx", "*.json"}
