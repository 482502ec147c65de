"""The engine's texts rebuilt in a language (i18n.game). A choice label is declared once
(engine/labels.py: a template and typed fields): the engine's English labels stay byte for byte
as they were, each template gets exactly its fields and is translated, and i18n's words for the
fields say in English what the engine says. Every log line of many random games is rebuilt
exactly in English, so the other languages, built the same way, say the same things."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

import i18n
from cogs import ui
from cogs.records import reliability_text
from cogs.service import OopsN
from engine import GameSetup, labels, new_game, sentences
from engine import choices as C
from engine.choices import DECISION_FORMS
from engine.rules import decision
from engine.state import GameState
from i18n import game as words
from store.records import Reliability
from tests.engine_helpers import random_game
from tests.test_choices import shown_decisions

_label = words._label
ROOT = Path(__file__).resolve().parent.parent

EN = i18n.ENGLISH
GAMES = [(2, 11), (3, 12), (4, 13), (2, 14), (3, 15), (4, 16)]


#: sha256 of every "kind, id, label" line of `shown_decisions` of these rules versions (every
#: kind of decision, every choice-id form but "pass"), as the engine wrote its labels
#: on main 706a250, before they were declared once (engine/labels.py): the engine's English
#: labels are stored words (logs, records) and must not change by a byte.
VERSIONS = (1, 2, 3)
LABELS_DIGEST = "2649389b59e93d2e4af44127e0f00290eb2630d93cc2a7bad51cd7088ab7e562"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class TestLabelsDeclaredOnce:
    def test_the_engines_labels_are_byte_for_byte_as_before(self) -> None:
        digest, kinds, forms, n = hashlib.sha256(), set(), set(), 0
        for _, dec in shown_decisions(VERSIONS):
            kinds.add(dec.kind)
            for choice in dec.choices:
                forms.add(type(dec.parse(choice.id)))
                digest.update(f"{dec.kind}\t{choice.id}\t{choice.label}\n".encode())
                n += 1
        assert kinds == set(DECISION_FORMS)  # the sample is wide enough to mean something
        all_forms = {cls for forms_of in DECISION_FORMS.values() for cls in forms_of}
        assert all_forms - forms == {C.Pass}
        assert n > 100_000
        assert digest.hexdigest() == LABELS_DIGEST

    def test_pass_has_its_label(self) -> None:
        st = new_game(GameSetup(players=2, seed=1))
        assert labels.english(st, "turn", C.Pass()) == "No turn possible: pass"

    def test_every_choice_id_form_has_a_label(self) -> None:
        all_forms = {cls for forms_of in DECISION_FORMS.values() for cls in forms_of}
        assert set(labels.LABELS) | {C.Skip} == all_forms

    def test_each_template_gets_exactly_its_fields(self) -> None:
        used = set()

        def check(template: labels.Template, fields: dict) -> None:
            texts = template if isinstance(template, labels.Plural) else (template,)
            for text in texts:
                assert set(_PLACEHOLDER.findall(text)) == set(fields), (text, fields)
            used.add(template)
            for field in fields.values():
                if isinstance(field, labels.Partner):  # a field said by a template of its own
                    check(*labels.partner_parts(st, field.card))

        for st, dec in shown_decisions(VERSIONS):
            for choice in dec.choices:
                check(*labels.parts(st, dec.kind, dec.parse(choice.id)))
        # every declared template is one a choice says (none left over from an old label)
        assert set(labels.TEMPLATES) - used <= {labels.PASS}

    def test_every_template_goes_to_the_translators(self) -> None:
        """i18n.extract puts each template in the catalogs' template (test_i18n_catalogs then
        holds every message translated, with its fields, in every language)."""
        from babel.messages.pofile import read_po

        with (ROOT / "i18n" / "locale" / "messages.pot").open("rb") as f:
            pot = read_po(f)
        for template in labels.TEMPLATES:
            message = pot.get(tuple(template) if isinstance(template, tuple) else template)
            assert message is not None, template
            assert message.pluralizable == isinstance(template, labels.Plural), template

    def test_a_plural_label_says_one_and_many(self) -> None:
        st = new_game(GameSetup(players=2, seed=1))
        st.stack.append({"op": "may_draw", "n": 1})
        assert labels.english(st, "may_draw", C.Draw()) == "Draw 1 card from your deck"
        st.stack[-1]["n"] = 2
        assert labels.english(st, "may_draw", C.Draw()) == "Draw 2 cards from your deck"
        es = i18n.get("es")
        assert _label(es, st, "may_draw", C.Draw()) != _label(EN, st, "may_draw", C.Draw())


class TestEnglishRebuild:
    @pytest.mark.parametrize("players,seed", GAMES)
    def test_labels_and_prompts_equal_the_engines(self, players: int, seed: int) -> None:
        """i18n says the engine's templates with its own words for each field: in English they
        are the engine's words (a die, an area, a place, resources...)."""
        checked = 0

        def each(st: GameState) -> None:
            nonlocal checked
            dec = decision(st)
            if dec is None:
                return
            # the engine's words, but for the prompts the bot says more plainly (issue 28)
            said = words.CLEARER_PROMPTS.get(dec.kind, dec.prompt)
            assert words.prompt(EN, dec) == said
            for choice in dec.choices:
                # _label, not label: label falls back to the engine's text on an error
                rebuilt = _label(EN, st, dec.kind, dec.parse(choice.id))
                assert rebuilt == choice.label, (dec.kind, choice.id)
                checked += 1

        random_game(players, seed, each)
        assert checked > 500

    @pytest.mark.parametrize("players,seed", GAMES)
    def test_log_lines_equal_the_engines(self, players: int, seed: int) -> None:
        st, _ = random_game(players, seed)
        assert len(st.log) > 100
        for line in st.log:
            spoken = words.speaker(line, st.seat_names)
            text = spoken[1] if spoken else line
            assert sentences.parse(text) is not None, f"no sentence says {text!r}"
            assert words.log_line(EN, st, line, rebuild=True) == real_plurals(line)


def real_plurals(line: str) -> str:
    """The engine's line with its "Book(s)" said as a player reads it (issue 28)."""
    line = re.sub(r"\b1 Book\(s\)", "1 Book", line)
    return re.sub(r"\b(\d+) Book\(s\)", r"\1 Books", line)


#: A plural said as "(s)", "(es)" or "(n)" ("1 Book(s)", "carta(s)"), in any language.
FAKE_PLURAL = re.compile(r"\w\((s|es|n)\)")


class TestRealPlurals:
    @pytest.mark.parametrize("players,seed", GAMES[:4])
    def test_no_log_line_a_player_reads_says_a_plural_with_s(self, players: int, seed: int) -> None:
        """`/ada log` (cogs.ui.recent_log) in each language says "1 Book", "2 Books": never
        "Book(s)", while the engine's stored log keeps its words (the golden digests)."""
        st, _ = random_game(players, seed)
        assert any("Book(s)" in line for line in st.log), "no line to check"  # the engine's
        for code in ("en", "es", "ja"):
            shown = ui.recent_log(st, i18n.get(code), len(st.log), 10**9).splitlines()
            assert len(shown) == len(st.log)
            fake = [line for line in shown if FAKE_PLURAL.search(line)]
            assert not fake, (code, fake[:3])
        english = ui.recent_log(st, EN, len(st.log), 10**9)
        assert re.search(r"\b1 Book\b", english) or re.search(r"\b[02-9] Books\b", english)


class TestOtherLanguages:
    def test_a_translated_label_never_falls_back_silently(self) -> None:
        """Every label and log line of a game can be said in es and ja without an error (the
        translations may still be missing; what is said is built from the values)."""
        for code in ("es", "ja"):
            tr = i18n.get(code)
            st, _ = random_game(3, 21, lambda s, tr=tr: _say_all(tr, s))
            for line in st.log:
                spoken = words.speaker(line, st.seat_names)
                text = spoken[1] if spoken else line
                said, fields = sentences.parse(text)  # type: ignore[misc]
                words.log_fields(tr, st, fields)


def _say_all(tr: i18n.Lang, st: GameState) -> None:
    dec = decision(st)
    if dec is None:
        return
    for choice in dec.choices:
        _label(tr, st, dec.kind, dec.parse(choice.id))


class TestEngineStaysEnglish:
    def test_the_engine_imports_no_translation_discord_sql_or_pillow(self) -> None:
        """The engine writes English and stores nothing translated: languages are the Discord
        layer's and the renderer's business (i18n.game rebuilds the engine's texts)."""
        import ast
        from pathlib import Path

        engine = Path(__file__).resolve().parent.parent / "engine"
        banned = {"i18n", "babel", "discord", "PIL", "sqlite3", "aiosqlite", "asyncpg"}
        found = []
        for path in engine.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                else:
                    continue
                found += [f"{path.name}: {n}" for n in names if n.split(".")[0] in banned]
        assert not found, found


class TestCountedWords:
    @pytest.mark.parametrize(
        "code,one,two",
        [
            ("en", ("1 turn by a stand-in", "1 game left"), ("2 turns by", "2 games left")),
            ("es", ("1 turno jugado", "1 partida abandonada"), ("2 turnos", "2 partidas")),
        ],
    )
    def test_a_members_reliability_says_one_and_many(
        self, code: str, one: tuple[str, str], two: tuple[str, str]
    ) -> None:
        """A profile's and a lobby's reliability line: "1 game left", never "1 games left"."""
        tr = i18n.get(code)
        said = reliability_text(
            tr, Reliability(turns=9, late_turns=0, standin_turns=1, games_left=1)
        )
        assert all(words in said for words in one), said
        said = reliability_text(
            tr, Reliability(turns=9, late_turns=0, standin_turns=2, games_left=2)
        )
        assert all(words in said for words in two), said

    def test_a_counted_refusal_says_one_and_many(self) -> None:
        """A refusal that counts (OopsN) takes the catalog's form for the number, in English
        (its str, for the logs, too) and in each language."""

        def refusal(n: int) -> OopsN:
            return OopsN(
                "This server allows an absence of at most {n} day.",
                "This server allows an absence of at most {n} days.",
                n,
            )

        assert str(refusal(1)).endswith("at most 1 day.")
        assert refusal(3).said(EN).endswith("at most 3 days.")
        assert "1 día como mucho" in refusal(1).said(i18n.get("es"))
        assert "3 días como mucho" in refusal(3).said(i18n.get("es"))
        assert "最長3日" in refusal(3).said(i18n.get("ja"))
