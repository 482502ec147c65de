"""bench/bench_decisions.py sorts decisions into pointless, yes/no and real: its figures rest on
that sorting, so it is checked here on hand-made positions (the bench itself is not a test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine import GameState
from engine.edition import FIRST_EDITION, edition
from engine.rules import run
from tests.engine_helpers import choose, fresh, kind
from tests.test_engine_rules import give_card, put_in_store

ED = edition(FIRST_EDITION)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "bench_decisions", ROOT / "bench/bench_decisions.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def forced_research(version: int) -> GameState:
    st = fresh(rules_version=version)
    st.players[0].research.update({"P": ED.research_track["top"], "B": 1, "Y": 0, "G": 0})
    st.stack.append({"op": "research", "track": "any", "n": 2, "different": True})
    st.stack[-1]["picked"] = ["B"]
    run(st)
    return st


def test_picks_that_end_the_same_are_equivalent(bench) -> None:
    st = forced_research(1)  # version 1 still asks: Meetings then Institutions, or the reverse
    assert kind(st) == "research"
    assert bench.classify(st) == "equivalent"


def test_play_a_partner_or_not_is_a_yes_no(bench) -> None:
    st = fresh()
    p = st.players[0]
    give_card(st, 0, "william_sturgeon")  # needs a 3 or 4
    p.discard = [c for c in p.hand if c != "william_sturgeon"]
    p.hand = ["william_sturgeon"]  # the only card in hand
    st.bag.extend(d[0] for d in st.workshop[5] + st.workshop[0])
    st.workshop[5] = ["G5"]
    st.workshop[0] = ["B3", "Y6", "P6"]
    p.coal = 0
    for choice in ("ws:5:G5:1", "rs:P"):
        choose(st, choice)
    assert kind(st) == "partner_play" and len(st.decision.choices) == 2
    assert bench.classify(st) == "yes/no"


def test_where_to_place_a_die_is_real(bench) -> None:
    st = fresh()
    put_in_store(st, "Y3")
    st.players[0].money = 5
    choose(st, "act:0")
    assert kind(st) == "mill_place"
    assert bench.classify(st) == "real"
