"""The balance report (bench/balance_report.py): its content experiments undo themselves, and a
small run writes the Markdown report and its chart."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import GameSetup, facts, new_game
from engine.edition import FIRST_EDITION, edition, fingerprint_of

ROOT = Path(__file__).resolve().parents[1]


# Session-scoped, not module-scoped: the costliest of these tests run first (tests/conftest.py:
# COSTLY), away from the others, and a module fixture would be made again each time.
@pytest.fixture(scope="session")
def report():
    spec = importlib.util.spec_from_file_location(
        "balance_report", ROOT / "bench/balance_report.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["balance_report"] = module
    spec.loader.exec_module(module)
    return module


# The run the tests below share (once per session, whichever xdist worker asks first): two greedy
# two-player games (seeds 1 and 2) played, the report written and the games kept in a --cache
# file, which each test copies (a greedy game costs seconds).
SMALL_RUN = ["--games", "2", "--players", "2", "--search-games", "0", "--jobs", "1"]


@pytest.fixture(scope="session")
def first_run(report, tmp_path_factory) -> Path:
    """The directory of the shared run: games.jsonl (its cache) and out/ (its report)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        where = tmp_path_factory.mktemp("first_run")
        play_first_run(report, where)
        return where
    # the workers' base directories share a parent that is this session's own
    shared = tmp_path_factory.getbasetemp().parent
    where = shared / "balance_first_run"
    with open(shared / "balance_first_run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be playing it: wait, then reuse
        if not (where / "done").exists():
            shutil.rmtree(where, ignore_errors=True)
            play_first_run(report, where)
            (where / "done").touch()
    return where


def play_first_run(report, where: Path) -> None:
    argv = [*SMALL_RUN, "--cache", str(where / "games.jsonl"), "--out", str(where / "out")]
    assert report.main(argv) == 0


def cache_of(first_run: Path, tmp_path: Path) -> Path:
    """A copy of the shared run's games, for a test to use and change."""
    return Path(shutil.copy(first_run / "games.jsonl", tmp_path / "games.jsonl"))


class TestContentVariants:
    """Variants are editions derived from the default one: nothing is patched in place."""

    def test_every_variant_is_an_edition_and_the_base_is_unchanged(self, report):
        base = report.BASE
        before = base.fingerprint
        for variant in [*report.SEAT_STUDY, "proposed"]:
            ed = report.variant_edition(variant)
            assert (ed is base) == (not report.variant_edits(variant)), variant
            assert edition(ed.name) is ed  # known by name in this process, as games need
        assert base.fingerprint == fingerprint_of(base.data) == before
        assert new_game(GameSetup(players=4, seed=3)).edition is edition(FIRST_EDITION)

    def test_two_editions_play_side_by_side(self, report):
        ed = report.variant_edition("Innovation starts at 1 (before)")
        variant = new_game(GameSetup(players=4, seed=3, edition=ed.name))
        plain = new_game(GameSetup(players=4, seed=3))
        assert [p.innovation for p in variant.players] == [1, 1, 1, 1]
        assert [p.innovation for p in plain.players] == [2, 2, 2, 2]

    def test_no_seat_bonuses_clears_the_rulebook_bonuses(self, report):
        # rulebook setup: "Give the second player an additional £1, ... the fourth player an
        # additional £1 and an additional Coal" - the experiment removes exactly these
        assert report.BASE.seat_bonus[3] == {"money": 1, "coal": 1}
        assert report.variant_edition("no seat bonuses").seat_bonus == [{}, {}, {}, {}]

    def test_a_variant_may_contradict_a_rule_on_purpose(self, report):
        # the seat bonuses are a rules fact: the experiment knowingly drops them, and the
        # rules' check (which variants skip) says so
        ed = report.variant_edition("no seat bonuses")
        problems = [str(p) for p in facts.check(ed)]
        assert problems and all("rulebook, Setup" in p for p in problems)
        assert "setup.seat_bonus" in problems[0]
        assert facts.check(report.BASE) == []

    def test_the_before_variant_keeps_the_isobel_tiles(self, report):
        # Isobel's scoring example: 2 discs on Bristol and 1 on Manchester score 6 Prestige, so
        # the standard setup's two tiles never changed and the "before" variant leaves them alone
        base = report.BASE
        isobel = {base.standard_setup["universities"][city] for city in ("bristol", "manchester")}
        ed = report.variant_edition("Universities 1 Prestige more (before)")
        for tile in ed.university_tiles:
            raised = 0 if tile["id"] in isobel else 1
            assert tile["prestige"] == base.university_tile[tile["id"]]["prestige"] + raised

    def test_the_coal_candidate_changes_one_starting_card_per_deck(self, report):
        # component list: 7 starting cards per player in 4 starting decks; the candidate changes
        # the same slot of each deck, so every seat gains the same
        ed = report.variant_edition("candidate: starting Brass card also gives 1 Coal")
        changed = [
            card
            for card in ed.partners
            if card["effect"] == [{"op": "gain", "brass": 1, "coal": 1}]
        ]
        assert sorted(card["deck"] for card in changed) == sorted(ed.player_colours)
        assert all(card["tier"] == "S" for card in changed)

    def test_the_proposed_table_shows_the_value_now(self, report):
        path, value, _ = report.PROPOSED_EDITS[0]
        now = report.BASE.value_at(path)
        assert now == {"kind": "sponsors_in_supply", "n": 5} != value


class TestRulebookExample:
    def test_the_example_column_is_isobels_scorepad(self, report):
        # rulebook, Example Scoring: Isobel's categories add up to her TOTAL SCORE: 107
        example = report.EXAMPLE_SCORE
        assert list(example) == [*report.CATEGORIES, "Total"]
        assert sum(example[c] for c in report.CATEGORIES) == example["Total"] == 107
        assert (example["Programs"], example["Lines"], example["Gears"]) == (30, 44, -8)


class TestSmallRun:
    def test_writes_the_report_and_the_chart(self, report, first_run, tmp_path):
        # the game comes from the shared run's cache: a reused game writes the report a played
        # one does (TestGameCache: the same lines but the count of games played)
        argv = ["--games", "1", "--players", "2", "--search-games", "0", "--jobs", "1"]
        argv += ["--cache", str(cache_of(first_run, tmp_path))]
        assert report.main([*argv, "--out", str(tmp_path)]) == 0
        md = (tmp_path / "balance.md").read_text()
        assert "(0 played in this run, 1 reused from --cache)" in md
        assert md.startswith("# Ada's Dream balance report")
        assert "Generated by `python bench/balance_report.py --games 1" in md
        for heading in (
            "### greedy 2p",
            "| Seat (turn order) | win rate | mean score | final lead over the others",
            "## Changes made to the designed content",
            "## What is taken (greedy self-play, all player counts)",
            "### Objectives",
            "### Programs",
            "### Partners (tier 1 and 2)",
            "### Multipliers",
        ):
            assert heading in md, heading
        assert "search self-play" not in md  # no search games were asked for
        # the table of category means by seat adds up to the seats' mean scores
        section = md[md.index("### greedy 2p") :]
        seat_rows = section[section.index("| Seat (turn order)") :].splitlines()[2:4]
        means = [row.split("|")[3].strip() for row in seat_rows]
        by_seat = section[section.index("| Mean by seat | seat 1 | seat 2 |") :]
        total_row = next(r for r in by_seat.splitlines() if r.startswith("| Total |"))
        assert total_row.split("|")[2:4] == [f" {m} " for m in means]
        # one game: the winners' mean is the winner's score, beside the rulebook's 107
        category_total = next(r for r in section.splitlines() if r.startswith("| Total |"))
        winner = md.split("winners' mean ")[1].split(" ")[0]
        assert category_total.split("|")[7:9] == [f" {winner} ", " 107 "]
        with Image.open(tmp_path / "balance.png") as chart:
            assert chart.width > 400 and chart.height > 200


class TestGameCache:
    def test_a_second_run_reuses_the_games_and_writes_the_same_report(
        self, report, first_run, tmp_path
    ):
        cache = cache_of(first_run, tmp_path)  # the first run played both games and kept them
        assert len(cache.read_text().splitlines()) == 2
        cache.write_text(cache.read_text() + '{"key": "cut off mid-wri')  # a killed run's last line
        kept = cache.read_text()
        assert report.main([*SMALL_RUN, "--cache", str(cache), "--out", str(tmp_path / "b")]) == 0
        assert cache.read_text() == kept  # nothing played again
        first = (first_run / "out" / "balance.md").read_text().splitlines()
        second = (tmp_path / "b" / "balance.md").read_text().splitlines()
        assert "(2 played in this run, 0 reused from --cache)" in first[2]
        assert "(0 played in this run, 2 reused from --cache)" in second[2]
        assert str(cache) not in second[2]  # the recorded command leaves out where games are kept
        # decisions/s come from the cached games' own timings, so every other line is the same
        assert first[3:] == second[3:]

    def test_a_game_after_a_cut_off_line_starts_a_new_line(self, report, tmp_path):
        cache = tmp_path / "games.jsonl"
        game = report.play((2, 1, "random", {}, ""))  # a whole game's record, in milliseconds
        cache.write_text('{"key": "cut off')
        report.append_to_cache(cache, "k", game)
        assert list(report.load_cache(cache)) == ["k"]
        assert report.load_cache(cache)["k"] == game  # sets and counts come back as they were

    def test_a_changed_variant_is_not_reused(self, report):
        job = (4, 1, "greedy", {}, "no seat bonuses")
        key = report.cache_key(job, "engine")
        assert key == report.cache_key(job, "engine")
        assert key != report.cache_key(job, "another engine")
        assert key != report.cache_key((4, 1, "greedy", {}, ""), "engine")
        assert key != report.cache_key((4, 2, "greedy", {}, "no seat bonuses"), "engine")

    def test_games_of_a_variant_count_for_content_that_adopts_its_edits(self, report):
        tried = report.cache_key((4, 1, "greedy", {}, "no seat bonuses"), "engine")
        # an edition that adopted the variant's edits plays the same content
        adopted = report.variant_edition("no seat bonuses")
        content = report.content_fingerprint("", adopted)
        assert report.cache_key((4, 1, "greedy", {}, ""), "engine", content) == tried
        assert report.cache_key((4, 1, "greedy", {}, ""), "engine") != tried

    def test_a_game_two_samples_share_is_played_once(self, report, tmp_path, monkeypatch):
        # the seat study's "bonuses as printed" plays the same content as the main 4-player sample
        # (the study's other variants play games of their own: a changed variant is not reused,
        # test_a_changed_variant_is_not_reused; leaving them out spares a 4-player game here)
        monkeypatch.setattr(report, "SEAT_STUDY", {"bonuses as printed": []})
        cache = tmp_path / "games.jsonl"
        argv = ["--games", "1", "--players", "4", "--seat-study", "1", "--search-games", "0"]
        argv += ["--jobs", "1", "--cache", str(cache), "--out", str(tmp_path)]
        assert report.main(argv) == 0
        assert len(cache.read_text().splitlines()) == 1
        md = (tmp_path / "balance.md").read_text()
        assert "(1 played in this run, 0 reused from --cache, 1 the same game as another" in md
        main_table = (
            md[md.index("### greedy 4p") :].split("| Seat (turn order)")[1].split("\n\n")[0]
        )
        study_row = md[md.index("| bonuses as printed | 1 |") :].splitlines()[0]
        winner = next(s for s in range(4) if f"| {s + 1} | 100% |" in main_table)
        assert study_row.split("|")[3].split(" / ")[winner].strip() == "100%"

    def test_a_reused_game_is_named_as_the_run_asks(self, report, first_run, tmp_path):
        cache = cache_of(first_run, tmp_path)
        argv = ["--games", "1", "--players", "2", "--search-games", "0", "--jobs", "1"]
        argv += ["--cache", str(cache)]
        # the same game, recorded when it was played as a (content-equal) experiment
        cache.write_text(cache.read_text().replace('"variant": ""', '"variant": "an experiment"'))
        assert report.main([*argv, "--out", str(tmp_path / "b")]) == 0
        second = (tmp_path / "b" / "balance.md").read_text()
        assert "(0 played in this run, 1 reused from --cache)" in second
        assert "### greedy 2p" in second and "an experiment" not in second


class TestLeadByRound:
    def test_columns_are_the_rounds_the_round_before_the_last_and_the_final_scores(self, report):
        def game(round_totals, trigger, mill_dice):
            return report.GameStats(
                players=2, seed=1, policy="greedy", variant="", scores=[], winner=0,
                turns=[], rounds=len(round_totals), decisions=0, seconds=0.0, objectives=[],
                objective_claims={}, round_totals=round_totals, trigger_seat=trigger,
                mill_dice=mill_dice,
            )  # fmt: skip

        # a 4-round game: totals at the end of rounds 1, 2 and 3, then the final scores
        a = game([[-20, -24], [-10, -14], [0, 2], [30, 20]], trigger=1, mill_dice=[8, 9])
        b = game([[-24, -20], [-12, -12], [4, 0], [40, 40]], trigger=1, mill_dice=[9, 9])
        lines = report.lead_by_round([a, b])
        assert lines[1] == "| Lead by seat | round 1 | before the last round | final |"
        # seat 1: round 1 (+4 -4)/2 = 0; round 3 (-2 +4)/2 = +1; final (+10 +0)/2 = +5
        assert lines[3] == "| seat 1 | +0.0 | +1.0 | +5.0 |"
        assert lines[4] == "| seat 2 | +0.0 | -1.0 | -5.0 |"
        assert lines[6] == (
            "End triggered (9th Mill die) by: seat 1 0%, seat 2 100%. "
            "Mill left unfinished (fewer than 9 dice) at the end: seat 1 50%, seat 2 0%."
        )


REPORT_SEARCH = {"iterations": 1, "candidates": 4}


class TestPlannedGames:
    def test_search_games_can_be_played_under_a_seat_study_variant(self, report):
        args = report.parse_args(
            ["--games", "2", "--players", "3,4", "--search-games", "3", "--search-players", "4"]
            + ["--seed", "19", "--search-variant", "no seat bonuses"]
        )
        jobs = report.planned_games(args)
        assert [j for j in jobs if j[2] == "greedy"] == [
            (n, seed, "greedy", {}, "") for n in (3, 4) for seed in (19, 20)
        ]
        search = [j for j in jobs if j[2] == "search"]
        assert search == [
            (4, seed, "search", REPORT_SEARCH, "no seat bonuses") for seed in (19, 20, 21)
        ]

    def test_the_search_compares_four_candidates_unless_told(self, report):
        # the committed report's search games were played comparing the greedy's best 4
        base = ["--games", "0", "--search-games", "1"]
        assert report.planned_games(report.parse_args(base))[0][3] == REPORT_SEARCH
        args = report.parse_args([*base, "--search-candidates", "6", "--search-iterations", "2"])
        assert report.planned_games(args)[0][3] == {"iterations": 2, "candidates": 6}

    def test_the_search_compares_at_least_one_candidate(self, report, capsys):
        with pytest.raises(SystemExit):
            report.parse_args(["--search-candidates", "0"])
        assert "--search-candidates must be at least 1" in capsys.readouterr().err

    def test_the_search_seat_study_plays_the_same_seeds_per_variant(self, report):
        args = report.parse_args(
            ["--games", "0", "--search-games", "2", "--search-players", "4"]
            + ["--search-seat-study", "no seat bonuses"]
        )
        assert report.planned_games(args) == [
            (4, seed, "search", REPORT_SEARCH, variant)
            for variant in ("", "no seat bonuses")
            for seed in (1, 2)
        ]
        # a study on the later seeds only: seeds 3-4 of the 4 search games
        args = report.parse_args(
            ["--games", "0", "--search-games", "4", "--search-players", "4"]
            + ["--search-seat-study", "no seat bonuses", "--search-seat-study-seed", "3"]
        )
        study = [j[1] for j in report.planned_games(args) if j[4] == "no seat bonuses"]
        assert study == [3, 4]
        # the search sample grows to 6 games while the study keeps its seeds 3-4
        args = report.parse_args(
            ["--games", "0", "--search-games", "6", "--search-players", "4"]
            + ["--search-seat-study", "no seat bonuses", "--search-seat-study-seed", "3"]
            + ["--search-seat-study-games", "2"]
        )
        jobs = report.planned_games(args)
        assert [j[1] for j in jobs if j[4] == ""] == [1, 2, 3, 4, 5, 6]
        assert [j[1] for j in jobs if j[4] == "no seat bonuses"] == [3, 4]

    def test_the_study_seed_must_be_a_search_seed(self, report, capsys):
        with pytest.raises(SystemExit):
            report.parse_args(["--search-games", "4", "--search-seat-study-seed", "9"])
        assert "must be one of the search games' seeds" in capsys.readouterr().err
        with pytest.raises(SystemExit):
            report.parse_args(
                ["--search-games", "4", "--search-seat-study-seed", "3"]
                + ["--search-seat-study-games", "3"]
            )
        assert "end by the last search seed" in capsys.readouterr().err

    def test_the_search_seat_study_needs_four_seats(self, report, capsys):
        with pytest.raises(SystemExit):
            report.parse_args(["--search-players", "3", "--search-seat-study", "no seat bonuses"])
        assert "--search-players 4" in capsys.readouterr().err

    def test_an_unknown_variant_is_refused(self, report, capsys):
        with pytest.raises(SystemExit):
            report.parse_args(["--search-variant", "no such variant"])
        assert "invalid choice" in capsys.readouterr().err


class TestSeatStudySection:
    def test_the_median_lead_is_not_moved_by_one_runaway_game(self, report):
        # the last seat trails by 10 in two games and wins one by 90 (leads: -10, -10, +90)
        totals = [[80, 80, 80, 70], [70, 90, 80, 70], [80, 80, 80, 170]]
        games = [_game_with_totals(report, t) for t in totals]
        lines = report.seat_study_section({"bonuses as printed": games}, "search")
        assert lines[0] == "## Seat-order study (search, 4 players, same seeds per variant)"
        assert lines[-2] == (
            "| bonuses as printed | 3 | 33% / 33% / 0% / 33% | 0.80 | 76.7 / 83.3 / 80.0 / 103.3 "
            "| +23.3 ± 65.3 | -10.0 |"
        )


def _game_with_totals(report, totals):
    scores = [{"Total": t} for t in totals]
    winner = max(range(len(totals)), key=lambda s: totals[s])
    return report.GameStats(
        players=len(totals), seed=1, policy="search", variant="", scores=scores, winner=winner,
        turns=[], rounds=18, decisions=0, seconds=0.0, objectives=[], objective_claims={},
    )  # fmt: skip


class TestSeatStatistics:
    @pytest.mark.parametrize(
        ("x", "df", "p"),
        # critical values from any chi-square table
        [(3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (11.345, 3, 0.01), (0.0, 3, 1.0)],
    )
    def test_chi_square_tail_matches_the_tables(self, report, x, df, p):
        assert report.chi_square_sf(x, df) == pytest.approx(p, abs=5e-4)

    def test_an_even_share_of_wins_is_no_evidence_of_a_seat_edge(self, report):
        assert report.chi_square_p([25, 25, 25, 25]) == 1.0
        # 40 of 100 wins for one seat: x = (15^2 + 3 * 5^2) / 25 = 12, p about 0.007
        assert report.chi_square_p([20, 20, 20, 40]) == pytest.approx(0.0074, abs=2e-4)

    def test_the_lead_interval_is_1_96_standard_errors(self, report):
        mean, half = report.interval95([-10.0, -10.0, 90.0])
        # sd of (-10, -10, 90) is 57.74; over sqrt(3) games: 33.33; times 1.96
        assert (round(mean, 2), round(half, 2)) == (23.33, 65.33)

    def test_the_verdict_names_a_seat_that_leads_every_game(self, report):
        games = [_game_with_totals(report, [70 + i, 72 - i, 71, 90 + i % 3]) for i in range(8)]
        verdict = report.seat_verdict(*report.seat_figures(games))
        assert verdict.startswith("Seat order: win counts 0/0/0/8 against an even share:")
        assert "(below 0.05: more than chance)" in verdict
        # the trailing seats' leads are outside their intervals too, on the other side
        assert "final lead outside its 95% interval around 0: seat 1 (-3.3 ± 2.3)," in verdict
        assert verdict.endswith("seat 4 (+19.9 ± 0.6).")

    def test_the_verdict_finds_nothing_when_the_seats_take_turns(self, report):
        rotations = [[90, 70, 70, 70], [70, 90, 70, 70], [70, 70, 90, 70], [70, 70, 70, 90]]
        games = [_game_with_totals(report, t) for t in rotations * 2]
        verdict = report.seat_verdict(*report.seat_figures(games))
        assert verdict == (
            "Seat order: win counts 2/2/2/2 against an even share: chi-square p = 1.00 "
            "(consistent with chance); no seat's final lead is outside its 95% interval around 0."
        )
