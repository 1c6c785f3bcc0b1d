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
    assert "vision.moment.read_casting_at" in imports("companion.tableside.reading", found["companion.tableside.reading"])
    assert "companion.web.routers.game" in imports("companion.web.routers.cue", found["companion.web.routers.cue"])
    assert "companion.night_at_the_table.bench" in imports("companion.tableside.__main__",
                                                           found["companion.tableside.__main__"])


# -- the casting as a type: vision returns readings, the table side makes the game's cast ----------

GAMES = ROOT / "companion" / "games"


def action_types() -> set[str]:
    """Every action type a game declares (``type: Literal["cast"]`` in its ``actions`` module)."""
    found: set[str] = set()
    for path in GAMES.glob("*/actions.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "type":
                found.update(c.value for c in ast.walk(node.annotation)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return found


def named_actions(path: Path, types: set[str]) -> list[str]:
    """"line N: {"type": "cast"}" for every dict in ``path`` that spells an action of ``types``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant) \
                        and value.value in types:
                    found.append(f"line {node.lineno}: {{'type': {value.value!r}}}")
    return found


def test_vision_names_no_engine_action() -> None:
    """Vision returns its readings; the game's cast is made on the table side (``companion.question``)."""
    types = action_types()
    assert "cast" in types
    spelled = [f"{name} {hit}" for name, path in sorted(modules().items()) if within(name, "vision")
               for hit in named_actions(path, types)]
    assert spelled == []
    assert breaks(("vision",), ("companion",)) == []


def test_the_display_imports_no_games_actions() -> None:
    games_actions = tuple(f"companion.games.{p.parent.name}.actions" for p in GAMES.glob("*/actions.py"))
    assert games_actions and breaks(("companion.web",), games_actions) == []


def test_the_action_check_sees_an_action_spelled_out(tmp_path: Path) -> None:
    module = tmp_path / "proposal.py"
    module.write_text('def cast_proposal(r):\n    return {"type": "cast", "targets": r}\n\nx = {"type": "band"}\n')
    assert named_actions(module, action_types()) == ["line 2: {'type': 'cast'}"]
