#!/usr/bin/env bash
# The kernel's tests on a copy of the compiled kernel built with AddressSanitizer and
# UndefinedBehaviorSanitizer, recovery off: the first memory error or undefined behaviour
# (a signed overflow, a shift of a negative number, ...) stops the run with its report.
#
#   csrc/sanitize.sh                   # tests/test_kernel.py and tests/test_value.py
#   csrc/sanitize.sh tests/x/test_y.py   # other tests (any pytest arguments)
#
# The copy is built in a temporary folder, with the package and the tests beside it, so the
# kernel built in place (crapette/_ckernel*.so) is neither used nor touched. Needs gcc or
# clang with the sanitizers' run-time libraries, Python's headers, and pytest and hypothesis
# in the Python that runs it (``python``, or $PYTHON). CI runs it (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}
CC=${CC:-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "sanitize.sh: no C compiler ($CC): cannot build the sanitizer copy" >&2
    exit 2
fi
ASAN=$("$CC" -print-file-name=libasan.so)
if [ ! -e "$ASAN" ]; then
    echo "sanitize.sh: $CC has no AddressSanitizer run-time (libasan.so)" >&2
    exit 2
fi
if [ "$#" -eq 0 ]; then
    set -- tests/kernel/test_kernel.py tests/play/test_value.py -x -q
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/repo"
tar --exclude='__pycache__' --exclude='*.so' -cf - crapette tests conftest.py pyproject.toml \
    | tar -xf - -C "$work/repo"

# Compiled straight with the compiler (no setuptools needed), as setup.py builds the kernel.
include=$("$PYTHON" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$PYTHON" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
if ! "$CC" -shared -fPIC -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1 -ffp-contract=off \
        -I"$include" -Icsrc csrc/*.c -o "$work/repo/crapette/_ckernel$suffix" 2>"$work/build.log"; then
    cat "$work/build.log" >&2
    echo "sanitize.sh: the sanitizer copy of the kernel did not build" >&2
    exit 2
fi

# Python itself is not instrumented: AddressSanitizer's run-time must be loaded first, and
# Python's leaks at exit are not the kernel's. pytest captures nothing (-s): a sanitizer's
# report goes to the terminal before the process stops. CRAPETTE_REQUIRE_KERNEL=1: a copy
# that does not load fails the run instead of leaving the tests to the pure-Python engine.
cd "$work/repo"
env LD_PRELOAD="$ASAN" \
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    CRAPETTE_REQUIRE_KERNEL=1 PYTHONPATH="$work/repo" \
    "$PYTHON" -m pytest -p no:cacheprovider -s "$@"
