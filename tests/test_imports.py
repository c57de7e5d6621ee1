"""The package's imports: every module imports alone, the runtime imports form no cycle, and follow the layers.

The graph is read from the source with :mod:`ast`: the imports a module runs
when it is imported (module level, including inside ``try`` and plain ``if``
blocks), but not those under ``if TYPE_CHECKING:`` nor those inside functions
and classes, which run later, if ever.

:data:`LAYERS` places every module of the package in a layer of
docs/architecture.rst: a module imports at run time only from its own layer
and the layers before it, and a new module fails the test until it is placed
here and on the architecture page.
"""

from __future__ import annotations

import ast
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import crapette

PACKAGE = Path(crapette.__file__).parent
#: The compiled modules (built from csrc/ where a compiler is at hand): their imports are in C,
#: and their typed stub (a .pyi) stands for them on the architecture page.
COMPILED = {"crapette._ckernel"}
MODULES = sorted(
    ["crapette"]
    + [info.name for info in pkgutil.walk_packages([str(PACKAGE)], prefix="crapette.") if info.name not in COMPILED]
)
#: Modules that need an optional dependency (they say so when it is missing).
OPTIONAL = {
    "crapette.gymnasium": "gymnasium",
    "crapette.pettingzoo": "pettingzoo",
    "crapette.openspiel": "pyspiel",
    "crapette.observation": "numpy",
    "crapette.training": "numpy",
    "crapette.strategies": "hypothesis",
    "crapette._hypothesis_hook": "hypothesis",
}


#: The repository (the tests may import an installed crapette, whose folder is elsewhere).
ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.rst"

#: The layers of docs/architecture.rst, from the bottom up.
LAYER_NAMES = (
    "cards", "parts", "moves", "state", "engine", "turns", "kernel", "view",
    "formats", "evaluation", "protocol", "play", "frontends", "adapters", "cli", "testing",
)  # fmt: skip
_L = {name: number for number, name in enumerate(LAYER_NAMES)}
#: The packages of the package, each with the layers its modules belong to: the layers as folders.
#: A private package (``_core``, ...) holds implementation; the public modules of a layer stay at
#: their documented paths (``crapette.svg``, ``crapette.gymnasium``, ...) beside them.
PACKAGES = {
    "_core": {_L[name] for name in ("cards", "parts", "moves", "state", "engine", "turns")},
    "_views": {_L["view"]},
    "_formats": {_L["formats"]},
    "_play": {_L["evaluation"], _L["play"]},
    "bots": {_L["play"]},
    "_frontends": {_L["frontends"]},
    "cli": {_L["cli"]},
}
#: Each module's layer (names without the ``crapette.`` prefix; "crapette" is the package's __init__).
LAYERS = {
    "errors": _L["cards"], "_core.messages": _L["cards"], "_core.checks": _L["cards"], "_core.cards": _L["cards"],
    "_core.outcome": _L["parts"], "_core.hooks": _L["parts"], "_core.parts": _L["parts"], "_core.part_text": _L["parts"],
    "_core.options": _L["parts"],
    "_core.rules": _L["parts"],
    "_core.piles": _L["moves"], "_core.moves": _L["moves"],
    "_core.state": _L["state"], "_core.match": _L["state"],
    "_core.shapes": _L["engine"], "_core.compiled": _L["engine"], "_core.engine": _L["engine"], "_core.explain": _L["engine"], "variants": _L["engine"],
    "_core.turns": _L["turns"], "_core.greedy_table": _L["turns"],
    "_ckernel": _L["kernel"], "kernel": _L["kernel"],
    "_views.view": _L["view"],
    "_formats.position": _L["formats"], "_formats.atomic": _L["formats"], "_formats.record_format": _L["formats"], "_formats.record_json": _L["formats"],
    "_formats.record_text": _L["formats"], "_formats.record": _L["formats"], "_formats.actions": _L["formats"], "_formats.game": _L["formats"],
    "crapette": _L["formats"],
    "protocol": _L["protocol"], "gamekit": _L["protocol"],
    "_play.greedy": _L["evaluation"], "evaluation": _L["evaluation"], "value": _L["evaluation"],
    "bots._base": _L["play"], "bots.simple": _L["play"], "bots.montecarlo": _L["play"], "bots.planner": _L["play"],
    "bots.treesearch": _L["play"], "bots": _L["play"], "_play.progress": _L["play"], "_play.report": _L["play"], "simulation": _L["play"], "sprt": _L["play"],
    "gamecheck": _L["play"], "analysis": _L["play"], "selfplay": _L["play"], "training": _L["play"],
    "_frontends.seen": _L["frontends"], "wording": _L["frontends"], "text": _L["frontends"], "_frontends.svg_draw": _L["frontends"], "_frontends.replay_page": _L["frontends"], "svg": _L["frontends"],
    "episode": _L["adapters"], "observation": _L["adapters"], "gymnasium": _L["adapters"], "pettingzoo": _L["adapters"],
    "openspiel": _L["adapters"],
    "cli._common": _L["cli"], "cli._files": _L["cli"], "cli._args": _L["cli"], "cli._play": _L["cli"],
    "cli._commands": _L["cli"], "cli": _L["cli"], "__main__": _L["cli"], "frontend": _L["cli"],
    "testing": _L["testing"], "strategies": _L["testing"], "_hypothesis_hook": _L["testing"],
    "_core": _L["cards"], "_views": _L["view"], "_formats": _L["formats"], "_play": _L["evaluation"],
    "_frontends": _L["frontends"],
}  # fmt: skip


def _short(module: str) -> str:
    return "crapette" if module == "crapette" else module.split(".", 1)[1]


def _is_package(module: str) -> bool:
    return module == "crapette" or (PACKAGE / module.split(".", 1)[1].replace(".", "/") / "__init__.py").exists()


def _path(module: str) -> Path:
    if module == "crapette":
        return PACKAGE / "__init__.py"
    inside = PACKAGE / module.split(".", 1)[1].replace(".", "/")
    return inside / "__init__.py" if _is_package(module) else inside.with_suffix(".py")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(module: str) -> set[str]:
    """The package modules that ``module`` imports when it is imported."""
    tree = ast.parse(_path(module).read_text(encoding="utf-8"))
    package = module if _is_package(module) else module.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name.startswith("crapette."))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                if base in MODULES and _is_package(base):
                    # ``from . import x`` imports the module x if there is one, else a name of the package.
                    for alias in node.names:
                        sub = f"{base}.{alias.name}"
                        found.add(sub if sub in MODULES else base)
                elif base.startswith("crapette."):
                    found.add(base)
            elif isinstance(node, ast.If):
                if not _is_type_checking(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.With):
                visit(node.body)

    visit(tree.body)
    found.discard(module)
    return found & set(MODULES)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a path that comes back to its start, or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def walk(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph[node]):
            if nxt in on_path:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in done:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            found = walk(start)
            if found:
                return found
    return None


def _graph() -> dict[str, set[str]]:
    # A module that imports names from the package itself (``from crapette import x``)
    # has an edge to "crapette", whose edges are the package's own imports: a module
    # that the package imports and that imports the package back closes a cycle.
    return {module: _runtime_imports(module) for module in MODULES}


def test_the_runtime_imports_of_the_package_form_no_cycle() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "runtime import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_the_imports_that_run_and_not_the_others() -> None:
    graph = _graph()
    assert "crapette.bots.planner" in graph["crapette.bots"]
    assert "crapette._play.greedy" in graph["crapette.evaluation"]
    assert "crapette._formats.record_json" in graph["crapette._formats.record"]
    # _record_json names GameRecord only for the type checker.
    assert "crapette._formats.record" not in graph["crapette._formats.record_json"]


def _walk_running(node: ast.AST) -> list[ast.AST]:
    """Every node under ``node`` that may run, at import or later: all but ``if TYPE_CHECKING:`` bodies."""
    nodes: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        nodes.append(child)
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                nodes.append(other)
                nodes.extend(_walk_running(other))
            continue
        nodes.extend(_walk_running(child))
    return nodes


def _any_imports(module: str) -> set[str]:
    """The package modules ``module`` imports at run time, at module level or inside functions."""
    package = module if _is_package(module) else module.rsplit(".", 1)[0]
    found = set()
    for node in _walk_running(ast.parse(_path(module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{anchor}.{node.module}" if node.module else anchor
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crapette"):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & set(MODULES)


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("crapette._play.greedy", "crapette.evaluation"),
        ("crapette.evaluation", "crapette.bots.planner"),
        ("crapette.value", "crapette.training"),
        ("crapette.bots.treesearch", "crapette.bots"),
        ("crapette.protocol", "crapette.bots._base"),
        ("crapette._views.view", "crapette.bots._base"),
        ("crapette._formats.record_json", "crapette._formats.record"),
        ("crapette._formats.record_text", "crapette._formats.record"),
        ("crapette._formats.record_format", "crapette._formats.record"),
    ],
)
def test_a_module_never_imports_back_from_the_module_built_on_it(low: str, high: str) -> None:
    assert high not in _any_imports(low) - {low}, f"{low} imports {high}, which imports it"
    assert low in _any_imports(high)


def test_no_module_silences_an_import_out_of_place() -> None:
    offenders = [module for module in MODULES if "noqa: E402" in _path(module).read_text(encoding="utf-8")]
    assert offenders == []


#: Run in a fresh interpreter: import what the package needs from outside it, then import each
#: module of the package in a child process forked from that state, where no module of the package
#: has been imported yet. One interpreter start for all the modules instead of one each (a system
#: without fork starts an interpreter per module).
_IMPORT_EACH_ALONE = """
import importlib, importlib.util, os, sys, traceback
for name in ("attrs", "typing_extensions"):
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)
assert not [m for m in sys.modules if m == "crapette" or m.startswith("crapette.")]
modules, sys.argv = sys.argv[1:], sys.argv[:1]  # as `python -c "import module"` would see them
for module in modules:
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(module)
        except SystemExit as exit:  # crapette.__main__ runs the command, which may exit
            if exit.code not in (0, None):
                sys.stdout.write(module + " FAILED SystemExit(" + repr(exit.code) + ")\\n")
                sys.stdout.flush()
            os._exit(0 if exit.code in (0, None) else 1)
        except BaseException:
            sys.stdout.write(module + " FAILED " + traceback.format_exc()[-2000:].replace("\\n", "\\t") + "\\n")
            sys.stdout.flush()
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status == 0:
        sys.stdout.write(module + " OK\\n")
    elif not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 1:
        sys.stdout.write(module + " FAILED the import ended its process: status " + str(status) + "\\n")
"""


def _import_alone(module: str) -> tuple[bool, str]:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120, cwd=PACKAGE.parent
    )
    return done.returncode == 0, done.stderr[-2000:]


@pytest.fixture(scope="module")
def imported_alone() -> dict[str, tuple[bool, str]]:
    """For each module of the package: whether it imports alone, and what went wrong if not."""
    if not hasattr(os, "fork"):
        return {module: _import_alone(module) for module in MODULES}
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH_ALONE, *MODULES],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=PACKAGE.parent,
    )
    results: dict[str, tuple[bool, str]] = {}
    for line in done.stdout.splitlines():
        module, _, rest = line.partition(" ")
        results[module] = (rest == "OK", rest.replace("\t", "\n"))
    return results


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_alone_in_a_fresh_interpreter(
    module: str, imported_alone: dict[str, tuple[bool, str]]
) -> None:
    needs = OPTIONAL.get(module)
    if needs is not None:
        pytest.importorskip(needs)
    ok, why = imported_alone.get(module, (False, "the import did not report (the child process died)"))
    assert ok, why


def test_the_import_check_sees_a_module_that_fails_to_import(tmp_path: Path) -> None:
    (tmp_path / "broken_for_the_check.py").write_text("import crapette\nraise ZeroDivisionError\n")
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH_ALONE, "broken_for_the_check", "crapette._core.cards"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=PACKAGE.parent,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("broken_for_the_check FAILED") and "ZeroDivisionError" in lines[0]
    assert lines[1] == "crapette._core.cards OK"  # the failed import left nothing behind for the next


# The layers ---------------------------------------------------------------------------------


def test_every_module_of_the_package_has_a_layer() -> None:
    unplaced = sorted(_short(module) for module in MODULES if _short(module) not in LAYERS)
    assert unplaced == [], f"place these modules in LAYERS and on docs/architecture.rst's layer table: {unplaced}"
    gone = sorted(set(LAYERS) - {_short(module) for module in set(MODULES) | COMPILED})
    assert gone == [], f"LAYERS names modules the package no longer has: {gone}"


def _upward(graph: dict[str, set[str]], layers: dict[str, int]) -> list[str]:
    """Every runtime import of ``graph`` from a later layer than the importer's, as readable lines."""
    return [
        f"{_short(module)} ({LAYER_NAMES[layers[_short(module)]]}) imports {_short(other)}"
        f" ({LAYER_NAMES[layers[_short(other)]]})"
        for module in sorted(graph)
        for other in sorted(graph[module])
        if layers[_short(other)] > layers[_short(module)]
    ]


def test_no_module_imports_at_run_time_from_a_later_layer() -> None:
    assert _upward(_graph(), LAYERS) == []


def test_the_layer_check_finds_an_import_from_a_later_layer() -> None:
    graph = {"crapette._core.engine": {"crapette._core.state", "crapette.bots"}, "crapette._core.state": set(), "crapette.bots": set()}
    assert _upward(graph, LAYERS) == ["_core.engine (engine) imports bots (play)"]


def _architecture_table() -> dict[str, int]:
    """The layer table of docs/architecture.rst: each module named in it, and its layer's number."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text.split("Layers\n------", 1)[1].split(".. code-block:: text", 1)[1]
    rows = block.split("\n\n", 2)[1]  # the block's lines, up to its first blank line
    table: dict[str, int] = {}
    layer = -1
    for line in rows.splitlines():
        head, module = line[3:17].strip(), line[17:43].strip()
        starts = re.match(r"(\d+) ", head)
        if starts:
            layer = int(starts.group(1))
        if module and layer >= 0 and re.fullmatch(r"[\w.]+", module):
            table[module] = layer
    return table


def test_the_architecture_page_names_every_module_in_its_layer() -> None:
    table = _architecture_table()
    assert len(table) > 40  # the parse found the table
    missing = sorted(_short(m) for m in MODULES if _short(m) not in table and not (_short(m) in PACKAGES and _short(m).startswith("_")))
    assert missing == [], f"docs/architecture.rst's layer table leaves out {missing}"
    misplaced = sorted(
        f"{name}: {LAYER_NAMES[table[name]]} on the page, {LAYER_NAMES[LAYERS[name]]} here"
        for name in table
        if name in LAYERS and table[name] != LAYERS[name]
    )
    assert misplaced == []
    assert set(table) <= set(LAYERS) - {p for p in PACKAGES if p.startswith("_")}, f"the page names modules the package does not have: {set(table) - set(LAYERS)}"


def test_the_architecture_page_names_each_layer_as_the_test_does() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for number, name in enumerate(LAYER_NAMES):
        assert re.search(rf"^   {number} +{re.escape(name)} ", text, flags=re.MULTILINE), f"layer {number} {name}"


def test_no_module_of_the_package_is_over_900_lines() -> None:
    # One module, one job: a module that grows past this does several and should be split.
    long = {
        str(path.relative_to(PACKAGE)): count
        for path in PACKAGE.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > 900
    }
    assert not long, f"modules over 900 lines: {long}"


def _imported_names(module: str) -> list[tuple[str, str, bool]]:
    """Every name ``module`` imports from the package, anywhere in it: (from module, name, inside a function)."""
    package = module if _is_package(module) else module.rsplit(".", 1)[0]
    tree = ast.parse(_path(module).read_text(encoding="utf-8"))
    found: list[tuple[str, str, bool]] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, True)
                continue
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.rsplit(".", child.level - 1)[0] if child.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                if base == "crapette" or base.startswith("crapette."):
                    found.extend((base, alias.name, inside) for alias in child.names)
            elif isinstance(child, ast.Import):
                found.extend(("", alias.name, inside) for alias in child.names if alias.name.startswith("crapette"))
            visit(child, inside)

    visit(tree, False)
    return found


def _private_names(modules: list[str]) -> list[str]:
    """The names a module imports from another module of the package that begin with one underscore."""
    return sorted(
        f"{_short(module)} imports {name} from {_short(source)}"
        for module in modules
        for source, name, _ in _imported_names(module)
        if source and name.startswith("_") and not name.startswith("__") and f"{source}.{name}" not in {*MODULES, *COMPILED}
    )


def test_no_module_imports_another_modules_underscore_name() -> None:
    # A name shared between modules is public (no leading underscore), even in a private module:
    # the underscore means "this module only".
    assert _private_names(MODULES) == []


def test_the_underscore_check_finds_an_underscore_name(tmp_path: Path) -> None:
    assert not [row for row in _private_names(["crapette.bots"]) if "_base" in row]  # a private module may be imported
    assert _private_names(["crapette._core.engine"]) == []


#: The imports of the package made inside a function, each with why: the one place the layers are
#: reached from below, or a module that is slow or optional to import. Any other is at module level.
FUNCTION_IMPORTS = {
    ("_core.state", "crapette._formats.position"): "str(state) is the position string, written by the formats layer",
    ("_core.state", "crapette.svg"): "a state's picture in Jupyter (_repr_svg_)",
    ("_core.engine", "crapette._core.explain"): "why a move is illegal, in words: apply_move's slow path, paid only by an illegal move",
    ("_core.engine", "crapette._views.view"): "legal_moves and apply_move given a PublicView: its moves, the view stepped",
    ("_hypothesis_hook", "crapette.strategies"): "Hypothesis' entry point loads the strategies when Hypothesis starts",
    ("cli._args", "crapette"): "the version, read when the parser is made",
    ("kernel", "crapette"): "the compiled kernel, loaded unless CRAPETTE_PURE says not to",
}


def test_imports_inside_functions_are_the_few_allowed() -> None:
    found = {
        (_short(module), source or name)
        for module in MODULES
        for source, name, inside in _imported_names(module)
        if inside
    }
    assert found <= set(FUNCTION_IMPORTS), f"imports inside functions: {sorted(found - set(FUNCTION_IMPORTS))}"


def test_each_package_holds_the_modules_of_its_layers() -> None:
    """The layers as folders: a module inside a package belongs to one of the package's layers."""
    strays = sorted(
        f"{_short(module)} ({LAYER_NAMES[LAYERS[_short(module)]]}) in {package}/"
        for module in MODULES
        if "." in _short(module)
        and (package := _short(module).split(".", 1)[0]) in PACKAGES
        and LAYERS[_short(module)] not in PACKAGES[package]
    )
    assert strays == []
    assert {_short(m).split(".", 1)[0] for m in MODULES if "." in _short(m)} <= set(PACKAGES)
    # Every private module lives in a package: no module of the package's top level begins with an underscore
    # but the compiled kernel and Hypothesis' entry point (named in pyproject.toml).
    flat = sorted(_short(m) for m in MODULES if _short(m).startswith("_") and "." not in _short(m) and _short(m) not in PACKAGES)
    assert flat == ["__main__", "_hypothesis_hook"]


def test_the_architecture_page_lists_each_package_with_its_layers() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for package, layers in PACKAGES.items():
        names = ", ".join(LAYER_NAMES[n] for n in sorted(layers))
        assert re.search(rf"^   {re.escape(package)}/ +{re.escape(names)}\b", text, flags=re.MULTILINE), (package, names)
