"""The layout's promises, checked by reading the source (docs/architecture.md):

* imports point one way: a game's rules import only the shared rules (`app.common`) and
  themselves; the rooms never import the web edge; nothing below the edge imports it;
* no import circles between modules of `app/`;
* no folder of `app/` or `static/` holds more than 15 modules;
* no class of `app/` is longer than 300 lines.

Why a test: these were promises in a document once, and they drifted. Imports
inside functions count too (a lazy import is still an arrow).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"

# For each package: the packages of app/ it may import (besides itself and the standard
# library and third-party packages).
ALLOWED = {
    "app.common": set(),
    "app.demon.rules": {"app.common"},
    "app.grip.rules": {"app.common"},
    "app.nerts.rules": {"app.common"},
    "app.records": {"app.common", "app.demon.rules", "app.grip.rules", "app.nerts.rules", "app.racing"},
    "app.protocol": {"app.common", "app.demon.rules", "app.nerts.rules"},
    # The racing layouts a table deals, each game's rules behind one interface.
    "app.racing": {"app.common", "app.demon.rules", "app.nerts.rules", "app.protocol"},
    "app.support": set(),
    "app.daily": {"app.common"},  # the daily race's deal and rules of entry
    # Operations (metrics, backups, JSON logs): its instruments are fed by the hub and the
    # Devil's Grip service, so it must not import them back; the backup reads the schema.
    "app.ops": {"app.support", "app.config", "app.storage"},
    # The stores are adapters: they know the objects they save (a room, a Devil's Grip
    # session), whose modules declare what they need of a store as Protocols; only the
    # web edge (app/server) wires a store in.
    "app.storage": {
        "app.common",
        "app.demon.rules",
        "app.grip.rules",
        "app.support",
        "app.protocol",
        "app.demon.room",
        "app.grip.service",
    },
    "app.demon.room": {"app.common", "app.demon.rules", "app.protocol", "app.support", "app.config", "app.racing"},
    "app.demon.hub": {
        "app.common",
        "app.demon.rules",
        "app.racing",
        "app.demon.room",
        "app.protocol",
        "app.support",
        "app.config",
        "app.ops",
    },
    "app.grip.service": {"app.common", "app.grip.rules", "app.support", "app.config", "app.protocol", "app.ops"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in APP.rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The modules of app/ that `path` imports (a `from pkg import name` counts as
    pkg.name when that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("app"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app") and not node.level:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if candidate in known else node.module)
    return found & known


def package_of(name: str) -> str:
    for package in sorted(ALLOWED, key=len, reverse=True):
        if name == package or name.startswith(package + "."):
            return package
    return name


def test_imports_point_one_way():
    known = set(modules())
    wrong = []
    for name, path in modules().items():
        package = package_of(name)
        if package not in ALLOWED:
            continue
        for target in imports_of(path, known):
            target_package = package_of(target)
            if target_package != package and target_package not in ALLOWED[package] and target != "app":
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_import_circles():
    known = set(modules())
    graph = {name: imports_of(path, known) - {name} for name, path in modules().items()}
    # A package's __init__ importing its own submodules (a facade) is not a circle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not (t.startswith(name + "."))}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_no_folder_holds_more_than_15_modules():
    crowded = []
    for top, pattern in ((APP, "*.py"), (ROOT / "static", "*.js")):
        for folder in [top, *[d for d in top.rglob("*") if d.is_dir()]]:
            count = len([p for p in folder.glob(pattern) if p.name != "__init__.py"])
            if count > 15:
                crowded.append(f"{folder.relative_to(ROOT)}: {count}")
    assert not crowded, crowded


def test_no_class_is_longer_than_300_lines():
    long = []
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 300:
                    long.append(f"{path.relative_to(ROOT)}:{node.name} {length} lines")
    assert not long, long


def test_the_rules_read_no_clock_and_do_no_io():
    """The rules of both games are pure: a hint or a replay is the same on any machine at
    any load (no clock), and nothing in them waits on a file, socket or task."""
    # (datetime is allowed: the daily deal turns a date it is given into a number.)
    forbidden = {"time", "asyncio", "os", "sqlite3", "socket", "threading", "subprocess"}
    found = []
    for package in ("common", "demon/rules", "grip/rules", "nerts/rules"):
        for path in (APP / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name.split(".")[0] for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module.split(".")[0]]
                found += [f"{path.relative_to(ROOT)} imports {n}" for n in names if n in forbidden]
    assert not found, found
