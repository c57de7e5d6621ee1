"""Sphinx configuration for the crapette documentation.

Build and test it with::

    sphinx-build -n -W -b html docs docs/_build/html
    sphinx-build -n -W -b doctest docs docs/_build/doctest

Both must pass without a warning: ``-n`` reports every reference that does not
resolve, and ``-W`` turns warnings into errors. The build needs no network.
"""

from __future__ import annotations

import doctest
import importlib
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import crapette  # noqa: E402

import crapette.errors  # noqa: E402


def _read_attributes_at_home(app: Any) -> None:
    """Let autodoc read the comments that document attributes where they are written.

    The public names say they live in ``crapette`` (or their public module);
    the comments that document their attributes are in the module that defines
    them (``__source_module__``). The doctest builder keeps the public homes,
    which is what a traceback in an example shows.
    """
    if app.builder.name == "doctest":
        return
    for obj in [getattr(crapette, name) for name in crapette.__all__] + [
        getattr(crapette.errors, name) for name in crapette.errors.__all__
    ]:
        if hasattr(obj, "__source_module__"):
            obj.__module__ = obj.__source_module__


project = "crapette"
author = "The crapette developers"
copyright = "the crapette developers"
release = crapette.__version__
version = ".".join(release.split(".")[:2])

def _missing(*names: str) -> list[str]:
    """The modules among ``names`` that cannot be imported here."""
    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


# The adapters' frameworks are optional: a build with only the docs extra
# (pip install -e ".[docs]") documents the adapters from mocks of them.
autodoc_mock_imports = _missing("gymnasium", "pettingzoo", "pyspiel")

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

# No intersphinx: the build runs offline. References to the standard library
# and to other projects are therefore plain text; see nitpick_ignore_regex.
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_static_path = ["_static"]
html_theme = "furo"
html_title = f"crapette {release}"
pygments_style = "sphinx"
pygments_dark_style = "monokai"

nitpicky = True
default_role = "py:obj"

# External names that cannot resolve without intersphinx. Names of crapette
# itself are never ignored: a broken reference to them fails the build.
_EXTERNAL = (
    r"(builtins\.)?(int|float|str|bytes|bool|object|type|tuple|list|dict|set|frozenset|None|"
    r"NoneType|Ellipsis|slice|range|complex|bytearray|memoryview|callable|iter|next|len|hash|"
    r"repr|print|open|Exception|BaseException|ValueError|TypeError|KeyError|IndexError|"
    r"AssertionError|ImportError|RuntimeError|NotImplementedError|StopIteration|"
    r"DeprecationWarning|FutureWarning|UserWarning|Warning|OSError|EOFError|KeyboardInterrupt)",
    r"(typing|typing_extensions|collections|collections\.abc|abc|enum|random|concurrent|"
    r"concurrent\.futures|multiprocessing|os|io|json|pathlib|datetime|argparse|re|"
    r"functools|itertools|operator|dataclasses|numbers|types|warnings|xml|time)(\..*)?",
    r"(attrs?|hypothesis|dask|distributed|ray|tqdm|rich|IPython|numpy|np|pytest)(\..*)?",
    r"(gymnasium|pettingzoo|pyspiel|open_spiel)(\..*)?",
    # Type variables and the option kinds, which are internal.
    r"crapette\._(parts|options)\.(_P|P|E|T|Kind)",
    r"crapette\.(gamekit|bots|bots\._base|protocol)\.(StateT|MoveT|_StateIn|_MoveOut)",
    # Bare names that annotations leave unqualified.
    r"(Any|Callable|Iterable|Iterator|Sequence|Mapping|MutableMapping|Generator|Optional|"
    r"Union|Literal|Protocol|TypeVar|Self|ClassVar|Final|Executor|Future|Random|Path|"
    r"SearchStrategy|DrawFn|DataObject|Enum|IntEnum|StrEnum|TextIO|IO|ModuleType|T|_E|_P|P|E|"
    r"Attribute|Counter|Awaitable|Coroutine|AbstractSet|Hashable|Sized|Container|Collection|"
    r"Reversible|SupportsIndex|Pattern|Match|NDArray)",
)
nitpick_ignore_regex = [
    (r"py:(class|obj|exc|data|func|meth|attr|mod)", pattern) for pattern in _EXTERNAL
]

autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_class_signature = "mixed"
autodoc_inherit_docstrings = False
add_module_names = False
python_use_unqualified_type_names = True
toc_object_entries_show_parents = "hide"

# Doctests: the examples of these pages are ``.. doctest::`` and
# ``.. testcode::`` blocks, each importing what it uses, as a reader copying
# them would. The examples in the docstrings that autodoc pulls in are run by
# pytest (``--doctest-modules``) with their module's names; here they would
# all share one namespace, so plain ``>>>`` blocks are not run a second time.
doctest_test_doctest_blocks = ""
# Examples that need an optional dependency are skipped when it is missing.
doctest_global_setup = f"""
import sys
sys.path.insert(0, {str(ROOT / "examples")!r})
import importlib.util
simulation_missing = importlib.util.find_spec("crapette.simulation") is None
dask_missing = importlib.util.find_spec("distributed") is None
numpy_missing = importlib.util.find_spec("numpy") is None
"""
doctest_default_flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.DONT_ACCEPT_TRUE_FOR_1


# Autodoc documents the public names under ``crapette`` although they live in
# private modules (``crapette._core.rules.RuleSet``), and signatures refer to them
# by their private path. Point those references at the public name.
_PRIVATE = re.compile(r"^crapette\._[a-z_]+\.(.+)$")


def _resolve_private(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    match = _PRIVATE.match(target)
    if match is None:
        return None
    public = "crapette." + match.group(1)
    domain = env.get_domain("py")
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], public, node, contnode
    )


def _check_every_public_name_documented(app: Any, env: Any) -> None:
    """Warn (an error under -W) about any name of ``crapette.__all__`` the API page misses."""
    from sphinx.util import logging

    objects = env.get_domain("py").objects
    missing = [name for name in crapette.__all__ if f"crapette.{name}" not in objects]
    for module in (
        "bots", "bots.simple", "bots.montecarlo", "bots.planner", "bots.treesearch", "evaluation", "value",
        "selfplay", "training",
        "analysis", "simulation", "svg", "strategies", "testing", "variants",
        "episode", "observation", "pettingzoo", "gymnasium", "openspiel", "protocol",
    ):
        try:
            mod = importlib.import_module(f"crapette.{module}")
        except ImportError:
            continue
        missing += [
            f"{module}.{name}"
            for name in getattr(mod, "__all__", ())
            if f"crapette.{module}.{name}" not in objects
        ]
    if missing:
        logging.getLogger(__name__).warning(
            "public names missing from the API reference: %s", ", ".join(missing)
        )


def _options_table() -> str:
    """The table of every RuleSet option, made from the options' declarations (RuleSet.options())."""
    from crapette import RuleSet

    casual, classic = RuleSet.casual(), RuleSet.classic()
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 22 20 16 16 40",
        "",
        "   * - option",
        "     - type",
        "     - casual",
        "     - classic",
        "     - what it sets",
    ]
    for opt in RuleSet.options():
        lines += [
            f"   * - :attr:`~crapette.RuleSet.{opt.name}`",
            f"     - {opt.type_text}",
            f"     - ``{opt.to_text(getattr(casual, opt.name))}``",
            f"     - ``{opt.to_text(getattr(classic, opt.name))}``",
            f"     - {opt.doc}",
        ]
    return "\n".join(lines)


def _options_directive() -> Any:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class OptionsTable(SphinxDirective):
        """``.. crapette-options::`` -- the table of RuleSet's options, from their declarations."""

        def run(self) -> list[Any]:
            container = nodes.container()
            self.state.nested_parse(StringList(_options_table().splitlines(), "RuleSet.options()"), 0, container)
            return list(container.children)

    return OptionsTable


def setup(app: Any) -> None:
    app.connect("builder-inited", _read_attributes_at_home)
    app.connect("missing-reference", _resolve_private)
    app.connect("env-check-consistency", _check_every_public_name_documented)
    app.add_directive("crapette-options", _options_directive())
