"""The core: cards, rule parts and rules, piles and moves, the state, the engine and turns.

Pure and immutable, with no I/O and no optional dependency. Its modules, from
the bottom up (each imports only those before it, at run time): ``messages``,
``checks``, ``cards``; ``outcome``, ``hooks``, ``parts``, ``part_text``,
``options``, ``rules``; ``piles``, ``moves``; ``state``, ``match``; ``shapes``,
``compiled`` (the rules compiled for the engine and the kernel), ``engine``,
``explain``; ``turns``. Users import their public names from :mod:`crapette`.
"""
