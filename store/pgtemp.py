"""A throwaway PostgreSQL server for tests and benchmarks (``initdb`` + ``pg_ctl``).

    server = TempPostgres.start()          # or None: TempPostgres.available() says why not
    url = server.create_database("t1")     # postgresql://postgres@127.0.0.1:PORT/t1
    ...
    server.stop()                          # stops the server and deletes its directory

It listens on 127.0.0.1 only, on a free port, with its files in a temporary directory. As root
(``initdb`` refuses root) it runs as the ``postgres`` user. ``durable=False`` (tests) turns off
fsync: fast, and nothing there needs to survive a power cut.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    def __init__(self, bin_dir: Path, root: Path, port: int) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.port = port
        self.url = f"postgresql://postgres@127.0.0.1:{port}"
        self._stopped = False

    @staticmethod
    def available() -> str | None:
        """None if a server can be started here, else why not."""
        if _bin_dir() is None:
            return "PostgreSQL's server programs (initdb, pg_ctl) are not installed"
        if os.geteuid() == 0 and shutil.which("runuser") is None:
            return "running as root without runuser to start PostgreSQL as another user"
        if os.geteuid() == 0:
            import pwd

            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no 'postgres' user to run PostgreSQL"
        return None

    @classmethod
    def start(cls, *, durable: bool = False, max_connections: int = 200) -> TempPostgres:
        why = cls.available()
        if why:
            raise RuntimeError(why)
        bin_dir = _bin_dir()
        assert bin_dir is not None
        root = Path(tempfile.mkdtemp(prefix="ada_pg_"))
        os.chmod(root, 0o755)
        if os.geteuid() == 0:
            shutil.chown(root, "postgres")
        port = _free_port()
        server = cls(bin_dir, root, port)
        atexit.register(server.stop)
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections={max_connections}"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try:
            server._run(
                "initdb", "-D", str(root / "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8"
            )
            server._run(
                "pg_ctl",
                "-D",
                str(root / "data"),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "start",
            )
        except BaseException:
            server.stop()
            raise
        return server

    def _run(self, program: str, *args: str) -> None:
        cmd = [str(self.bin_dir / program), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed: {done.stderr.strip()}\n{tail}")

    def database_url(self, name: str) -> str:
        return f"{self.url}/{name}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """Create an empty database (or a copy of ``template``) and return its URL."""
        sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
        self.psql(sql)
        return self.database_url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        psql = shutil.which("psql") or str(self.bin_dir / "psql")
        done = subprocess.run(
            [psql, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.port), "-U", "postgres", "-d", database, "-c", sql],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if (self.root / "data" / "postmaster.pid").exists():
            with contextlib.suppress(Exception):
                self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        for _ in range(50):
            try:
                shutil.rmtree(self.root)
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.1)
