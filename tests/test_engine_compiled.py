"""The compiled engine (scripts/build-engine, engine/compiled.py) plays the very games of the
pure-Python one, and a build that is not of the current sources is never used.

The engine is compiled with mypyc into a cached directory, not in place: the other tests run the
engine of the source tree (pure Python unless someone built it there). The cache is keyed by the
digest of the engine's sources, the build script, Python's version and mypy's: the first run
compiles (about 30-40 s on one core), later runs reuse the build. A subprocess imports the
compiled engine from there and runs the golden-game tests, whose files were all recorded with
the pure-Python engine: every decision of 18 of test_engine_digests's 45 random games (below:
COMPILED_DIGEST_SEEDS), the recorded playthroughs and choice-tree counts (test_engine_replay),
and the AI's fast copy of a state (test_ai), all in one subprocess (one each started pytest and
the project three times).

Without mypyc, a C compiler or the Python headers these tests are skipped, saying why; under CI
(CI=true) they fail instead: CI must test both paths.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import test_engine_digests as digests

ROOT = Path(__file__).resolve().parent.parent
BUILD_SCRIPT = ROOT / "scripts" / "build_engine.py"

# the tests run again on the compiled engine: of the random games of test_engine_digests (which
# check all of them on the pure-Python engine), those of two seeds of the five, still every
# player count under every rules version (18 of 45 games, the other 27 cost 8 CPU-seconds here)
COMPILED_DIGEST_SEEDS = (1000, 1001)
GOLDEN_TESTS = [
    *(
        f"tests/test_engine_digests.py::test_random_game_is_identical_at_every_decision"
        f"[{players}-{seed}-{version}]"
        for players, seed in digests.GAMES
        for version in digests.VERSIONS
        if seed in COMPILED_DIGEST_SEEDS
    ),
    "tests/test_engine_replay.py",
    "tests/test_ai.py::TestFastCopy",
]


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_engine = _load("_build_engine", BUILD_SCRIPT)
compiled_info = build_engine.engine_compiled(ROOT / "engine")  # engine/compiled.py, alone


def _cannot(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must test the compiled engine, but {reason}")
    pytest.skip(f"the compiled engine is not tested here: {reason}")


def _key() -> str:
    parts = [
        compiled_info.sources_digest(ROOT / "engine"),
        hashlib.sha256(BUILD_SCRIPT.read_bytes()).hexdigest(),
        sys.version,
        importlib.metadata.version("mypy"),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _cache_dir(config: Any) -> Path:
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("compiled-engine"))
    return Path(tempfile.gettempdir()) / "adas-dream-compiled-engine"


@pytest.fixture(scope="session")
def compiled_engine(request: pytest.FixtureRequest) -> Path:
    """A directory holding a compiled copy of the engine (DIR/engine), built once per source."""
    missing = build_engine.missing_tools()
    if missing:
        _cannot(missing)
    cache = _cache_dir(request.config)
    cache.mkdir(parents=True, exist_ok=True)
    built = cache / _key()
    with open(cache / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another xdist worker may be building the same
        if not (built / "engine" / compiled_info.STAMP.name).exists():
            for old in cache.iterdir():  # keep only the build of the current sources
                if old.is_dir():
                    shutil.rmtree(old)
            partial = cache / f"{built.name}.partial"
            done = subprocess.run(
                [sys.executable, str(BUILD_SCRIPT), "--out", str(partial)],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, f"the build failed:\n{done.stdout}\n{done.stderr}"
            partial.rename(built)
    return built


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True
    )


# Imports the engine of BUILD (argv[1]) before anything else can import the source tree's; the
# tests then import it from sys.modules, whatever pytest adds to sys.path.
RUN_TESTS_ON = """
import sys
build = sys.argv[1]
sys.path[:0] = [build, sys.argv[2]]
import engine
from engine import rules
assert engine.COMPILED, engine.compiled.describe()
assert rules.__file__.startswith(build) and not rules.__file__.endswith(".py"), rules.__file__
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist", *sys.argv[3:]]))
"""


def test_the_compiled_engine_passes_the_golden_tests(compiled_engine: Path) -> None:
    done = run_python(RUN_TESTS_ON, str(compiled_engine), str(ROOT), *GOLDEN_TESTS)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout[-2000:]


# Which path a copy of the engine (argv[1]) runs, and a few moves of a game on it.
WHICH_PATH = """
import sys, warnings
sys.path.insert(0, sys.argv[1])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import engine
from engine import GameSetup, new_game, rules
st = new_game(GameSetup(players=3, seed=5))
for _ in range(40):
    st.apply(st.decision.choices[-1].id)
print(engine.COMPILED, rules.__file__.endswith(".py"), st.digest()[:16])
print(engine.compiled.describe())
print("|".join(str(w.message) for w in caught))
"""


def which_path(copy: Path) -> tuple[bool, bool, str, str, str]:
    done = run_python(WHICH_PATH, str(copy))
    assert done.returncode == 0, done.stderr
    first, describe, warned = (done.stdout.splitlines() + ["", ""])[:3]
    compiled, source, digest = first.split()
    return compiled == "True", source == "True", digest, describe, warned


@pytest.fixture
def build_copy(compiled_engine: Path, tmp_path: Path) -> Path:
    """A copy of the cached build that a test may change."""
    shutil.copytree(compiled_engine / "engine", tmp_path / "engine")
    return tmp_path


class TestWhichPath:
    def test_a_current_build_runs_compiled(self, build_copy: Path) -> None:
        compiled, source, _, describe, warned = which_path(build_copy)
        assert compiled and not source and describe.startswith("compiled with mypyc")
        assert warned == ""

    def test_a_build_of_other_sources_is_not_used(self, build_copy: Path) -> None:
        compiled_digest = which_path(build_copy)[2]
        rules = build_copy / "engine" / "rules.py"
        rules.write_text(rules.read_text() + "\n# an edit after the build\n")
        compiled, source, digest, describe, warned = which_path(build_copy)
        assert not compiled and source, "the sources run, not the old build"
        assert digest == compiled_digest, "the same game either way"
        assert "out of date" in describe and "scripts/build-engine" in describe
        assert "running pure Python" in warned

    def test_a_build_without_its_stamp_is_not_used(self, build_copy: Path) -> None:
        (build_copy / "engine" / compiled_info.STAMP.name).unlink()
        compiled, source, _, describe, warned = which_path(build_copy)
        assert not compiled and source and "stamp" in describe and warned

    def test_a_damaged_build_is_refused_with_a_message(self, build_copy: Path) -> None:
        """Issue 33: a truncated extension killed the interpreter (SIGBUS) at import."""
        (library,) = (build_copy / "engine").glob("native__mypyc.*")
        library.write_bytes(library.read_bytes()[: library.stat().st_size // 2])
        compiled, source, _, describe, warned = which_path(build_copy)
        assert not compiled and source and "damaged" in describe
        assert "running pure Python" in warned

    def test_the_fingerprint_names_the_build(self, build_copy: Path) -> None:
        code = "import sys; sys.path.insert(0, sys.argv[1]); import engine; print(engine.compiled.fingerprint())"
        first = run_python(code, str(build_copy)).stdout.strip()
        rules = build_copy / "engine" / "rules.py"
        rules.write_text(rules.read_text() + "\n# an edit after the build\n")
        second = run_python(code, str(build_copy)).stdout.strip()
        assert first.startswith("compiled:") and second.startswith("python:")

    def test_clean_removes_the_build_and_only_it(self, build_copy: Path) -> None:
        engine_dir = build_copy / "engine"

        def files() -> set[Path]:
            return {
                p for p in engine_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            }

        before = files()
        removed = build_engine.clean(engine_dir)
        assert {p.name.split(".")[0] for p in removed} == {
            *compiled_info.MODULES,
            "native__mypyc",
            "compiled",  # the stamp
        }
        assert files() == before - set(removed)
        assert {p.suffix for p in files()} >= {".py", ".toml"}
        compiled, source, _, describe, warned = which_path(build_copy)
        assert not compiled and source and describe == "pure Python" and warned == ""
