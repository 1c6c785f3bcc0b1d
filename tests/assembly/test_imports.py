"""Arrows run one way: each rule is checked over every module's imports (the AST, so an import
inside a function counts too)."""
from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "vision", "calibration", "firmware")
ABOVE_THE_ENGINE = ("companion.web", "companion.tableside", "companion.inputs", "companion.cue", "companion.night",
                    "companion.night_at_the_table", "companion.store", "vision", "calibration")
# Command entry points that keep their public names (``python -m companion.tableside bench``) and
# only hand over to the assembly above them.
ENTRY_POINTS = {"companion.tableside.__main__"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            found[name] = path
    return found


def imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports, relative imports resolved."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}".rstrip(".")
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def breaks(source: tuple[str, ...], forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    """"module imports target" for every import from a module under ``source`` of one under ``forbidden``."""
    found = []
    for name, path in sorted(modules().items()):
        if not any(within(name, s) for s in source) or name in ENTRY_POINTS:
            continue
        for target in sorted(imports(name, path)):
            if any(within(target, f) for f in forbidden) and not any(within(target, a) for a in allowed):
                found.append(f"{name} imports {target}")
    return found


def test_the_display_never_imports_the_table_side() -> None:
    assert breaks(("companion.web",), ("companion.tableside",)) == []


def test_the_table_side_never_imports_the_display() -> None:
    assert breaks(("companion.tableside",), ("companion.web",)) == []


def test_the_display_never_imports_calibration() -> None:
    # The display drives the calibration desk through its own protocol; the composition root hands it in.
    assert breaks(("companion.web",), ("calibration",)) == []


def test_vision_never_imports_calibration() -> None:
    assert breaks(("vision",), ("calibration",)) == []


def test_the_engine_and_the_games_know_nothing_above_them() -> None:
    assert breaks(("companion.engine", "companion.games"), ABOVE_THE_ENGINE) == []


def test_nothing_below_the_assembly_imports_it() -> None:
    below = ("companion.web", "companion.tableside", "companion.inputs", "companion.cue", "companion.engine",
             "companion.games", "vision", "calibration")
    assert breaks(below, ("companion.night_at_the_table",)) == []


def test_the_check_sees_imports_where_they_are(tmp_path: Path) -> None:
    """The checker itself: a known import, a relative one and one inside a function are all found."""
    module = tmp_path / "reading.py"
    module.write_text("from ..web import app\nfrom . import camera\ndef f():\n    import vision.pipeline\n")
    assert {"companion.web.app", "companion.tableside.camera", "vision.pipeline"} <= \
        imports("companion.tableside.reading", module)
    found = modules()
    assert "companion.tableside.reading" in found and "firmware" in found
    assert "vision.pipeline.read_casting" in imports("companion.tableside.reading", found["companion.tableside.reading"])
    assert "companion.web.routers.game" in imports("companion.web.routers.cue", found["companion.web.routers.cue"])
    assert "companion.night_at_the_table.bench" in imports("companion.tableside.__main__",
                                                           found["companion.tableside.__main__"])
