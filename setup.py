"""Build the optional compiled kernel, crapette._ckernel (csrc/); the package works without it.

Everything else about the package is in pyproject.toml. Where the kernel
cannot be built (no C compiler, no Python headers), the install goes on and
says once that the pure-Python engine will run; ``crapette.kernel.REASON``
says the same at run time.
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = ["csrc/bridge.c", "csrc/engine.c", "csrc/module.c", "csrc/play.c", "csrc/selfplay.c", "csrc/turns.c", "csrc/value.c"]


class OptionalBuildExt(build_ext):
    """build_ext that turns a failure to build the kernel into one message."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all, or a platform setuptools cannot build on
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    def _skip(self, exc: BaseException) -> None:
        print(
            f"crapette: the compiled kernel could not be built ({type(exc).__name__}: {exc}); "
            "the pure-Python engine will run (the same results, only slower)",
            file=sys.stderr,
        )


setup(
    ext_modules=[
        Extension(
            "crapette._ckernel",
            sources=SOURCES,
            depends=["csrc/kernel.h", "csrc/bridge.h"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
