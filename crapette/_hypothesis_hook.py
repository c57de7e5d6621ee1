"""Hypothesis' entry point for crapette (``[project.entry-points.hypothesis]``).

Hypothesis calls the hook when it is imported, so ``st.from_type(GameState)``
works wherever crapette is installed. The import is inside the hook: this
module must not import Hypothesis itself, or importing crapette.strategies
first would be circular.
"""


def _hypothesis_setup_hook() -> None:
    """Register crapette's strategies with Hypothesis (importing the module does it)."""
    import crapette.strategies  # noqa: F401
