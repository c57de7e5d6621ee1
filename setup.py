"""Build the optional compiled kernel, crapette._ckernel (csrc/); the package works without it.

Everything else about the package is in pyproject.toml. Where the kernel
cannot be built (no C compiler, no Python headers), the install goes on with
the pure-Python engine: the wheel is then a pure one (``py3-none-any``), and
it carries a note of why (``crapette/_ckernel_not_built.txt``), which
``crapette.kernel.REASON`` reports and which a warning repeats when crapette
is imported. Every build compiles the kernel afresh: a kernel left in build/
by an earlier build is never installed.
"""

import os
import sys

from setuptools import Distribution, Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext

SOURCES = ["csrc/bridge.c", "csrc/engine.c", "csrc/module.c", "csrc/play.c", "csrc/selfplay.c", "csrc/turns.c", "csrc/value.c"]
#: The note the build leaves beside the kernel's place when it could not build it (read by crapette/kernel.py).
NOT_BUILT = "_ckernel_not_built.txt"


class KernelDistribution(Distribution):
    """A distribution that has an extension module only while the kernel builds (or has not been tried)."""

    kernel_error = ""

    def has_ext_modules(self) -> bool:
        return super().has_ext_modules() and not self.kernel_error


class OptionalBuildExt(build_ext):
    """build_ext that always compiles afresh and turns a failure to build the kernel into a note."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.force = True   # never an old kernel: build/ may hold one from other sources

    def run(self) -> None:
        for ext in self.extensions:
            self._remove(self._built(ext))
            self._remove(self._note(self._built(ext)))
        try:
            super().run()
        except Exception as exc:  # no compiler at all, or a platform setuptools cannot build on
            self._skip(exc)
        for ext in self.extensions:
            self._place_note(ext, self._built(ext))
            if self.inplace:
                self._place_note(ext)

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type != "msvc":
            # The same doubles as Python's: no products contracted into fused multiply-adds (MSVC does not by default).
            ext.extra_compile_args = [*ext.extra_compile_args, "-ffp-contract=off"]
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    def _built(self, ext: Extension) -> str:
        return os.path.join(self.build_lib, self.get_ext_filename(self.get_ext_fullname(ext.name)))

    def _place_note(self, ext: Extension, where: str | None = None) -> None:
        """Write the note beside the kernel's place if it was not built, else remove an old one."""
        if where is None:   # in place: the package's folder in the source tree
            build_py = self.get_finalized_command("build_py")
            where = self._get_inplace_equivalent(build_py, ext)[0]
        note = self._note(where)
        if self.distribution.kernel_error:
            self._remove(where)
            os.makedirs(os.path.dirname(note) or ".", exist_ok=True)
            with open(note, "w", encoding="utf-8") as file:
                file.write(self.distribution.kernel_error + "\n")
        else:
            self._remove(note)

    @staticmethod
    def _note(built: str) -> str:
        return os.path.join(os.path.dirname(built), NOT_BUILT)

    @staticmethod
    def _remove(path: str) -> None:
        if os.path.exists(path):
            os.remove(path)

    def _skip(self, exc: BaseException) -> None:
        print(
            f"crapette: the compiled kernel could not be built ({type(exc).__name__}: {exc}); "
            "the pure-Python engine will run (the same results, only slower)",
            file=sys.stderr,
        )
        self.distribution.kernel_error = _why(exc)


def _why(exc: BaseException) -> str:
    """``exc`` in one short line: a command that failed is named by its program and status, not its arguments."""
    seen: BaseException | None = exc
    while seen is not None:
        command, status = getattr(seen, "cmd", None), getattr(seen, "returncode", None)
        if isinstance(command, (list, tuple)) and command and status is not None:
            return f"{type(exc).__name__}: {os.path.basename(str(command[0]))} exited with status {status}"
        seen = seen.__cause__ or seen.__context__
    why = " ".join(f"{type(exc).__name__}: {exc}".split())
    return why if len(why) <= 200 else why[:199] + "…"


class KernelWheel(bdist_wheel):
    """bdist_wheel whose tag follows the build: a platform wheel with the kernel, ``py3-none-any`` without."""

    @property
    def root_is_pure(self) -> bool:
        return not self.distribution.has_ext_modules()

    @root_is_pure.setter
    def root_is_pure(self, value: object) -> None:
        pass   # decided by the build, after it has run (see the getter)


setup(
    ext_modules=[
        Extension(
            "crapette._ckernel",
            sources=SOURCES,
            depends=["csrc/kernel.h", "csrc/bridge.h"],
            optional=True,
        )
    ],
    distclass=KernelDistribution,
    cmdclass={"build_ext": OptionalBuildExt, "bdist_wheel": KernelWheel},
)
