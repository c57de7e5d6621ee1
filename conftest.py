"""Collection settings for the whole repository (tests/ and the doctests of crapette/)."""

import importlib.util

# The doctests of a module that needs an optional extra run only where the extra is installed.
_NEEDS = {
    "crapette/observation.py": "numpy",
    "crapette/pettingzoo.py": "pettingzoo",
    "crapette/gymnasium.py": "gymnasium",
    "crapette/openspiel.py": "pyspiel",
    "crapette/training.py": "numpy",
}
collect_ignore = [path for path, module in _NEEDS.items() if importlib.util.find_spec(module) is None]


def pytest_report_header() -> list[str]:
    """Say which crapette the tests import, and which engine runs: the compiled kernel or pure Python (crapette.kernel)."""
    import os

    import crapette.kernel

    why = f" ({crapette.kernel.REASON})" if crapette.kernel.REASON else ""
    return [f"crapette: {os.path.dirname(crapette.__file__)}", f"crapette engine: {crapette.kernel.engine()}{why}"]
