"""Compile the engine's hot modules with mypyc (opt-in: the pure-Python engine is the default).

    scripts/build-engine              compile in place: engine/*.so beside the sources
    scripts/build-engine --clean      remove them: back to pure Python
    scripts/build-engine --out DIR    compile a copy of the engine in DIR/engine (the tests do)

Which modules, and when a build is not used (sources changed since): engine/compiled.py. Needs
mypy (in the dev extra, which ./scripts/test installs) and a C compiler with the Python headers.
A build takes about a minute on one core. A process already running keeps the build it loaded:
new files replace old ones by renaming, never by writing into them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def engine_compiled(engine_dir: Path) -> ModuleType:
    """engine/compiled.py loaded alone: importing the engine package would load the very build
    this script replaces."""
    spec = importlib.util.spec_from_file_location("_engine_compiled", engine_dir / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def missing_tools() -> str:
    """Why this machine cannot compile the engine ("" if it can)."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy, in the dev extra)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} is not on the PATH)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h; on Debian: apt install python3-dev)"
    return ""


def built_files(engine_dir: Path) -> list[Path]:
    """The build's files in engine_dir: each module's extension, the shared library, the stamp."""
    info = engine_compiled(engine_dir)
    names = {*info.MODULES, info.LIBRARY.rpartition(".")[2] + "__mypyc"}
    found = [p for p in engine_dir.iterdir() if p.suffix in (".so", ".pyd")]
    stamp = engine_dir / info.STAMP.name
    return [p for p in found if p.name.split(".")[0] in names] + ([stamp] if stamp.exists() else [])


def clean(engine_dir: Path) -> list[Path]:
    removed = built_files(engine_dir)
    for path in removed:
        path.unlink()  # a running process keeps the file it mapped
    return removed


def build(engine_dir: Path) -> float:
    """Compile engine_dir's MODULES with mypyc and put the build beside the sources; returns
    the seconds it took."""
    info = engine_compiled(engine_dir)
    root = engine_dir.parent
    sources = info.sources_digest(engine_dir)  # before compiling: an edit meanwhile is stale
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="build-engine-") as tmp:
        work = Path(tmp)
        _compile(root, [f"engine/{name}.py" for name in info.MODULES], info.LIBRARY, work)
        clean(engine_dir)
        for built in sorted((work / "lib" / "engine").iterdir()):
            # under another name, then renamed: no import meets a half-written file, and a
            # process running the old build keeps it (clean unlinked it, never overwrote it)
            partial = engine_dir / f".{built.name}.partial"
            shutil.copyfile(built, partial)
            os.replace(partial, engine_dir / built.name)
    seconds = time.perf_counter() - start
    stamp = {
        "sources": sources,
        "modules": list(info.MODULES),
        "libraries": info.libraries_digests(engine_dir),  # checked before import: a damaged
        # file would crash the interpreter
        "python": sys.version.split()[0],
        "mypy": _mypy_version(),
        "seconds": round(seconds, 1),
        "built": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    (engine_dir / info.STAMP.name).write_text(json.dumps(stamp, indent=1) + "\n")
    return seconds


def _compile(root: Path, paths: list[str], library: str, work: Path) -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    here = os.getcwd()
    os.chdir(root)  # mypyc names the modules after their paths from here ("engine/rules.py")
    try:
        extensions = mypycify(
            ["--cache-dir", str(work / "mypy_cache"), *paths],
            group_name=library,
            target_dir=str(work / "c"),
        )
        dist = Distribution({"name": "engine-compiled", "ext_modules": extensions})
        dist.verbose = False
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "obj")
        dist.run_command("build_ext")
    finally:
        os.chdir(here)


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


def copy_engine(dest: Path) -> Path:
    """A copy of the engine's sources and data in dest/engine, without any build."""
    target = dest / "engine"
    if target.exists():
        shutil.rmtree(target)
    ignored = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled.json", ".*")
    shutil.copytree(ROOT / "engine", target, ignore=ignored)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the build: pure Python")
    parser.add_argument("--out", type=Path, help="build a copy of the engine in OUT/engine")
    args = parser.parse_args(argv)
    engine_dir = ROOT / "engine"
    if args.clean:
        removed = clean(engine_dir)
        print(f"removed {len(removed)} file(s): the engine runs pure Python")
        return 0
    problem = missing_tools()
    if problem:
        print(f"cannot compile the engine: {problem}", file=sys.stderr)
        return 1
    if args.out is not None:
        engine_dir = copy_engine(args.out.resolve())
    seconds = build(engine_dir)
    print(f"compiled the engine in {seconds:.0f} s: {engine_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
