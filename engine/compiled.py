"""Which engine runs: the pure-Python one (the default) or its hot modules compiled with mypyc.

The engine is plain Python, and that is the reference: `./scripts/run` and `./scripts/test` need
nothing else. `scripts/build-engine` (opt-in: needs mypy and a C compiler) compiles the modules
named in MODULES with mypyc, in place: `engine/<module>.cpython-*.so` beside each source (Python
imports an extension module before the source of the same name) and their shared library
`engine/native__mypyc.cpython-*.so`. The games are the same, choice for choice (the golden games
say so: tests/test_engine_compiled.py); only faster. `scripts/build-engine --clean` removes them.

A build is a copy of the sources it was made from, so it records their digest (STAMP). When the
engine's sources differ from it (an edit, a checkout, a pull), `choose` makes Python import the
sources instead of the build, with a warning: an old build never answers for newer rules.
engine/__init__.py calls it before any other engine module is imported.

A build also records the SHA-256 of each of its extension files (``libraries`` in the stamp),
checked before any of them is imported: a truncated or overwritten file would otherwise crash
the interpreter (SIGBUS) at import with no message. A damaged build is refused the same way,
with a warning, and the sources run.

``fingerprint()`` names the engine a process runs (the build's digest, or the sources' digest
when it runs pure Python): the bot's AI worker processes compare theirs with the bot's, so
that no AI thinks with other rules than the moves are applied with.

Importing this module alone does nothing else (scripts/build_engine.py reads MODULES from it).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ENGINE_DIR = Path(__file__).resolve().parent

# The modules compiled: the decision loop and every step of the rules (the modules of the areas
# of the game), with the state they read. (engine.choices builds its parsers at import with exec,
# the edition is read once and the step registry is built once, at import: they stay Python, as
# does everything else.)
MODULES = (
    "rules",
    "turn",
    "workshop",
    "study",
    "travel",
    "meetings",
    "institutions",
    "discs",
    "publish",
    "effects",
    "common",
    "objectives",
    "state",
    "rng",
    "versions",
    "sentences",
)
LIBRARY = "engine.native"  # the mypyc group: its shared library is engine/native__mypyc.*.so
STAMP = ENGINE_DIR / "compiled.json"  # written by scripts/build-engine; not in git


def sources_digest(engine_dir: Path = ENGINE_DIR) -> str:
    """SHA-256 of every engine source: a build type-checks them all together, so a change to
    any of them (a type a compiled module relies on) may need a new build."""
    digest = hashlib.sha256()
    for path in sorted(engine_dir.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def library_files(engine_dir: Path = ENGINE_DIR) -> list[Path]:
    """The build's extension files here (each module's and the shared library), by name."""
    names = {*MODULES, LIBRARY.rpartition(".")[2] + "__mypyc"}
    return sorted(
        p
        for p in engine_dir.iterdir()
        if p.name.endswith(_EXTENSION_SUFFIXES) and p.name.split(".")[0] in names
    )


def libraries_digests(engine_dir: Path = ENGINE_DIR) -> dict[str, str]:
    """SHA-256 of each extension file of the build (what scripts/build-engine records)."""
    out: dict[str, str] = {}
    for path in library_files(engine_dir):
        with path.open("rb") as f:
            out[path.name] = hashlib.file_digest(f, "sha256").hexdigest()
    return out


def built_modules(engine_dir: Path = ENGINE_DIR) -> list[str]:
    """The MODULES that have an extension module this Python would import."""
    return [
        name
        for name in MODULES
        if any((engine_dir / f"{name}{suffix}").exists() for suffix in _EXTENSION_SUFFIXES)
    ]


def loaded() -> bool:
    """Whether the compiled modules are the ones running (all of them)."""
    modules = [sys.modules.get(f"engine.{name}") for name in MODULES]
    return all(m is not None and not _is_source(m) for m in modules)


def describe() -> str:
    """Which engine runs, in a few words, for logs and benchmarks."""
    if loaded():
        return f"compiled with mypyc ({len(MODULES)} modules, scripts/build-engine)"
    if skipped:
        return f"pure Python ({skipped})"
    return "pure Python"


def _is_source(module: ModuleType) -> bool:
    return str(getattr(module, "__file__", "")).endswith(".py")


_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


class _Sources(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their sources (the build is out of date)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, module = fullname.partition(".")
        if package == "engine" and module in MODULES:
            return importlib.util.spec_from_file_location(fullname, ENGINE_DIR / f"{module}.py")
        return None


def _out_of_date() -> str:
    """Why the build here may not be used ("" when it may, or when there is none)."""
    if not built_modules():
        return ""
    try:
        stamp = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return "compiled modules without a build stamp: rebuild with scripts/build-engine"
    global _build
    if built_modules() != list(MODULES):
        return "an incomplete build: rebuild with scripts/build-engine"
    recorded = stamp.get("libraries")
    if not isinstance(recorded, dict):
        return "a build from before its files were recorded: rebuild with scripts/build-engine"
    if recorded != libraries_digests():
        return (
            "the compiled modules are damaged (their files differ from what scripts/build-engine "
            "wrote): rebuild, or remove them with scripts/build-engine --clean"
        )
    if stamp.get("sources") != _sources_at_start():
        return (
            "the compiled modules are out of date: the engine's sources changed since "
            "scripts/build-engine; rebuild, or remove them with scripts/build-engine --clean"
        )
    _build = hashlib.sha256(json.dumps(recorded, sort_keys=True).encode()).hexdigest()
    return ""


skipped = ""
"""Why the compiled modules here are not used ("": they are, or there are none)."""

_sources: str | None = None
_build: str = ""


def _sources_at_start() -> str:
    """The sources' digest when this process chose its engine (computed once)."""
    global _sources
    if _sources is None:
        _sources = sources_digest()
    return _sources


def fingerprint() -> str:
    """The engine this process runs: "compiled:<the build's digest>" or
    "python:<the sources' digest when the engine was chosen>"."""
    if loaded():
        return f"compiled:{_build}"
    return f"python:{_sources_at_start()}"


def choose() -> None:
    """Before the engine's modules are imported: if a build is here but not of these sources,
    import the sources instead (and warn)."""
    global skipped
    _sources_at_start()
    skipped = _out_of_date()
    if skipped and not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
        warnings.warn(f"engine: running pure Python: {skipped}", RuntimeWarning, stacklevel=3)
