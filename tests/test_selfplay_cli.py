"""`python -m engine selfplay`: reproducible output, JSON, the scorepad's category names."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import TIMING_PREFIX, _make, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = [
    "Objectives",
    "Travel",
    "Lectures",
    "Meetings",
    "Partners",
    "Programs",
    "Lines",
    "Gears",
    "Innovation",
    "Assignment tokens",
    "Leftovers",
]


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(["selfplay", *argv], out=out) == 0
    return out.getvalue()


def without_timing(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(TIMING_PREFIX)]


class TestReproducible:
    def test_same_arguments_same_output_but_the_timing_line(self):
        args = ("--players", "3", "--seed", "5", "--games", "3")
        first, second = run(*args), run(*args)
        assert without_timing(first) == without_timing(second)
        timing = [line for line in first.splitlines() if line.startswith(TIMING_PREFIX)]
        assert len(timing) == 1 and "games/s" in timing[0]
        assert first.splitlines()[-1] == timing[0]

    def test_policies_per_seat_are_reproducible_too(self):
        args = ("--players", "2", "--seed", "9", "--games", "2", "--seat-policies", "greedy,random")
        assert without_timing(run(*args)) == without_timing(run(*args))

    def test_game_i_uses_seed_s_plus_i(self):
        three = json.loads(run("--players", "2", "--seed", "10", "--games", "3", "--json"))
        one = json.loads(run("--players", "2", "--seed", "12", "--games", "1", "--json"))
        assert [g["seed"] for g in three["games"]] == [10, 11, 12]
        assert three["games"][2]["digest"] == one["games"][0]["digest"]

    def test_different_seeds_differ(self):
        a = json.loads(run("--players", "2", "--seed", "1", "--games", "1", "--json"))
        b = json.loads(run("--players", "2", "--seed", "2", "--games", "1", "--json"))
        assert a["games"][0]["digest"] != b["games"][0]["digest"]


class TestJson:
    def test_parses_with_scores_winner_decisions_digest(self):
        doc = json.loads(run("--players", "4", "--seed", "1", "--games", "2", "--json"))
        assert doc["players"] == 4 and len(doc["games"]) == 2
        for game in doc["games"]:
            assert len(game["scores"]) == 4
            for row in game["scores"]:
                assert list(row) == [*CATEGORIES, "Total"]
                assert row["Total"] == sum(row[c] for c in CATEGORIES)
            totals = [row["Total"] for row in game["scores"]]
            assert totals[game["winner"]] == max(totals)
            assert game["decisions"] > 50
            assert len(game["digest"]) == 64
            assert game["policies"] == ["random"] * 4
        assert set(doc["timing"]) == {"seconds", "games_per_second", "decisions_per_second"}
        assert doc["summary"]["games"] == 2

    def test_same_json_but_the_timing(self):
        args = ("--players", "2", "--seed", "3", "--games", "2", "--json")
        a, b = json.loads(run(*args)), json.loads(run(*args))
        a.pop("timing")
        b.pop("timing")
        assert a == b

    def test_rotate_moves_the_policies_around_the_table(self):
        doc = json.loads(
            run(
                "--players", "2", "--seed", "0", "--games", "2", "--json",
                "--seat-policies", "greedy,random", "--rotate",
            )
        )  # fmt: skip
        assert [g["policies"] for g in doc["games"]] == [["greedy", "random"], ["random", "greedy"]]
        summary = doc["summary"]["policies"]
        assert summary["greedy"]["seats"] == 2 and summary["random"]["seats"] == 2


class TestText:
    def test_categories_carry_the_scorepad_names(self):
        text = run("--players", "2", "--seed", "4", "--games", "1")
        header = next(line for line in text.splitlines() if "Objectives" in line)
        positions = [header.index(c) for c in CATEGORIES]
        assert positions == sorted(positions)
        assert "winner seat" in text and "digest " in text and "decisions" in text

    def test_bad_arguments_are_refused(self):
        with pytest.raises(SystemExit):
            run("--players", "3", "--seat-policies", "greedy,random")
        with pytest.raises(SystemExit):
            run("--players", "2", "--policy", "oracle")
        with pytest.raises(SystemExit):
            run("--players", "5")
        for bad in ("0", "-3", "six"):
            with pytest.raises(SystemExit):
                run("--policy", "search", "--candidates", bad)


class TestSearchOptions:
    @staticmethod
    def search(*argv: str):
        return _make("search", build_parser().parse_args(["selfplay", *argv]))

    def test_candidates_reach_the_search_policy(self):
        assert self.search("--candidates", "4", "--iterations", "2").candidates == 4
        policy = self.search("--budget", "0.5")
        assert policy.candidates == 6 and policy.budget_seconds == 0.5
        assert policy.iterations is None


class TestModule:
    def test_python_dash_m_engine(self):
        cmd = [sys.executable, "-m", "engine", "selfplay", "--players", "2", "--seed", "7"]
        cmd += ["--games", "1"]
        a = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
        b = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
        assert without_timing(a) == without_timing(b)
        assert a.splitlines()[-1].startswith(TIMING_PREFIX)
