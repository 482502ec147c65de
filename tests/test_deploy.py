"""The systemd unit in deploy/ is one systemd accepts (``systemd-analyze verify``), with the
paths of this checkout put in place of /opt/adas-dream, as an operator would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "adas-dream.service"


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing on CI, where the unit must be verified")
        pytest.skip("systemd-analyze is not installed here (Debian: apt-get install systemd)")
    text = UNIT.read_text()
    text = text.replace("/opt/adas-dream/.venv/bin/python", sys.executable)
    text = text.replace("/opt/adas-dream", str(ROOT))
    unit = tmp_path / UNIT.name
    unit.write_text(text)
    done = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    said = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, said
    assert "Unknown" not in said and "ignoring" not in said, said


def test_the_unit_stops_the_bot_cleanly_and_restarts_it_on_failure() -> None:
    """What the README promises: SIGTERM (the bot's clean stop), more time to stop than the
    bot's own grace, a restart after a crash only."""
    settings = dict(
        line.split("=", 1)
        for line in UNIT.read_text().splitlines()
        if "=" in line and line[0] != "#"
    )
    assert settings["KillSignal"] == "SIGTERM"
    assert int(settings["TimeoutStopSec"]) > 20  # STOP_GRACE_SECONDS' default
    assert settings["Restart"] == "on-failure"
    assert settings["ExecStart"].endswith("bot.py")
