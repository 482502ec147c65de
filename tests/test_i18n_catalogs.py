"""The message catalogs (i18n/locale): the template is current, every message has a Spanish and
a Japanese translation with the same fields as the English, the translations use the game's
terms of each language's glossary (i18n/glossary), and the slash commands' translated names are
names Discord accepts. A missing or broken translation fails here."""

from __future__ import annotations

import re
import string
import tomllib
from collections import defaultdict
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from i18n import DOMAIN, LOCALE_DIR, extract
from i18n.extract import GLOSSARY_DIR

LANGS = ("es", "ja")


@cache
def catalog(code: str) -> Catalog:
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)


def messages(code: str) -> list[Message]:
    return [m for m in catalog(code) if m.id]


def forms(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if isinstance(value, tuple):
        return value
    return (value or "",)


def fields(text: str) -> set[str]:
    """The str.format fields of a text ({name}, {n}...)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def where(m: Message) -> str:
    return f"[{m.context}] {m.id!r}" if m.context else repr(m.id)


class TestTemplate:
    def test_the_template_is_up_to_date(self) -> None:
        """A string added to the code (or the content) is in messages.pot."""
        assert extract.main(["--check"]) == 0, "run: python -m i18n.extract"

    @pytest.mark.parametrize("code", LANGS)
    def test_the_catalog_has_every_message_of_the_template(self, code: str) -> None:
        with extract.TEMPLATE.open("rb") as f:
            pot = read_po(f)
        ids = {(m.id, m.context) for m in pot if m.id}
        mine = {(m.id, m.context) for m in messages(code)}
        assert ids - mine == set(), "run: python -m i18n.extract"

    def test_no_message_is_glued_from_pieces(self) -> None:
        """The extractor joins every literal of a marked call: `Oops("a" if x else "b")` or a
        message built from parts gives a message no one can translate ("...started.active
        This game...", "the permissions , .")."""
        with extract.TEMPLATE.open("rb") as f:
            pot = read_po(f)
        glued = re.compile(r"[.!?][a-z_]*[A-Z][a-z]| [,.;:](\s|$)")
        bad = [m.id for m in pot if m.id and any(glued.search(t) for t in forms(m.id))]
        assert not bad, bad

    def test_every_english_message_is_a_valid_format(self) -> None:
        with extract.TEMPLATE.open("rb") as f:
            pot = read_po(f)
        for m in pot:
            for text in forms(m.id):
                fields(text)  # raises on a stray brace


class TestTranslations:
    @pytest.mark.parametrize("code", LANGS)
    def test_every_message_is_translated(self, code: str) -> None:
        missing = [
            where(m)
            for m in messages(code)
            if m.fuzzy or not all(s.strip() for s in forms(m.string))
        ]
        total = len(messages(code))
        assert not missing, (
            f"{len(missing)} of {total} messages untranslated in {code}, e.g. {missing[:8]}"
        )

    @pytest.mark.parametrize("code", LANGS)
    def test_translations_keep_the_english_fields(self, code: str) -> None:
        broken = []
        for m in messages(code):
            english = [fields(t) for t in forms(m.id)]
            allowed = set().union(*english)
            needed = english[-1] - {"n"}  # a singular form may say "one" instead of {n}
            for text in forms(m.string):
                if not text:
                    continue
                try:
                    got = fields(text)
                except ValueError as e:
                    broken.append(f"{where(m)}: {e}")
                    continue
                if not needed <= got <= allowed | {"n"}:
                    broken.append(f"{where(m)}: {sorted(got)} instead of {sorted(allowed)}")
        assert not broken, "\n".join(broken[:20])

    @pytest.mark.parametrize("code", LANGS)
    def test_plural_forms_are_complete(self, code: str) -> None:
        n = catalog(code).num_plurals
        wrong = [where(m) for m in messages(code) if m.pluralizable and len(forms(m.string)) != n]
        assert not wrong, wrong[:10]

    @pytest.mark.parametrize("code", LANGS)
    def test_markdown_and_mentions_survive(self, code: str) -> None:
        """Discord markup in a message (`code`, **bold**, <#channel> links) is kept."""
        wrong = []
        for m in messages(code):
            for en, text in zip(forms(m.id), forms(m.string), strict=False):
                if not text:
                    continue
                for mark in ("`", "**"):
                    if en.count(mark) and text.count(mark) != en.count(mark):
                        wrong.append(f"{where(m)}: {mark}")
        assert not wrong, wrong[:20]

    @pytest.mark.parametrize("code", LANGS)
    def test_bold_closes_where_markdown_sees_it_close(self, code: str) -> None:
        """A closing ** right after punctuation and right before a letter ("**ここまで：**黄")
        does not close in CommonMark (what simcord's preview follows), so the asterisks show:
        the punctuation goes outside the bold ("**ここまで**：黄")."""
        wrong = []
        for m in messages(code):
            for text in forms(m.string):
                for bold in re.finditer(r"\*\*(.+?)\*\*", text or ""):
                    after = text[bold.end() : bold.end() + 1]
                    inner = bold.group(1)
                    if after and (after.isalnum() or after == "{") and not inner[-1].isalnum():
                        if inner[-1] not in "}`>)":
                            wrong.append(f"{where(m)}: {bold.group(0)}{after}")
        assert not wrong, wrong[:20]


# -- the glossaries ---------------------------------------------------------------------------------

# Messages where a glossary term is not the game's term (the English word in another sense).
NOT_THE_TERM: set[tuple[str, str]] = {
    ("Mill", "Tour the Northern Mills"),  # textile mills (fábricas), not the player's Mill
}


@cache
def glossary(code: str) -> dict[str, dict[str, object]]:
    path = GLOSSARY_DIR / f"{code}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


FIELD = re.compile(r"\{[^{}]*\}")


def term_pattern(term: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<![\w-]){words}(?:s|es)?(?![\w-])", re.IGNORECASE)


class TestGlossary:
    @pytest.mark.parametrize("code", LANGS)
    def test_every_entry_is_complete(self, code: str) -> None:
        entries = glossary(code)
        assert len(entries) >= 20
        for english, entry in entries.items():
            assert entry.get("term") and entry.get("source"), english
            assert entry["term"] in entry["forms"], english  # type: ignore[operator]

    @pytest.mark.parametrize("code", LANGS)
    def test_the_catalog_uses_the_glossary_terms(self, code: str) -> None:
        entries = glossary(code)
        wrong: dict[str, list[str]] = defaultdict(list)
        for english, entry in entries.items():
            pattern = term_pattern(english)
            wanted = [str(f).lower() for f in entry["forms"]]  # type: ignore[attr-defined]
            for m in messages(code):
                if (english, m.id if isinstance(m.id, str) else m.id[0]) in NOT_THE_TERM:
                    continue
                for en, text in zip(forms(m.id), forms(m.string), strict=False):
                    said = FIELD.sub(" ", en)  # {level} is a field, not the word
                    if text and pattern.search(said) and not any(f in text.lower() for f in wanted):
                        wrong[english].append(f"{en!r} -> {text!r}")
        report = [f"{k} ({glossary(code)[k]['term']}): {v[:3]}" for k, v in wrong.items()]
        assert not wrong, f"{sum(map(len, wrong.values()))} messages:\n" + "\n".join(report)

    @pytest.mark.parametrize("code", LANGS)
    def test_the_catalog_avoids_the_words_the_glossary_rules_out(self, code: str) -> None:
        """An entry's `avoid`: a word for the same thing that the rules texts do not use (issue
        28: Programs are "cartas", not "losetas"; the deck is デッキ, not 山札; the bag バッグ,
        not 袋). No translation of a message using the term says it."""
        wrong = []
        for english, entry in glossary(code).items():
            pattern = term_pattern(english)
            for m in messages(code):
                for en, text in zip(forms(m.id), forms(m.string), strict=False):
                    said = FIELD.sub(" ", en)
                    avoided = [w for w in entry.get("avoid", ()) if w in (text or "")]  # type: ignore[attr-defined]
                    if pattern.search(said) and avoided:
                        wrong.append(f"{english}: {en!r} -> {text!r}")
        assert not wrong, "\n".join(wrong[:20])

    def test_issue_28_terms(self) -> None:
        """The terms issue 28 names: textile mills are fábricas; the Japanese deck and bag are
        the guide's デッキ and バッグ (teach-guide.ja.txt: 'デッキからパートナーカードを2枚引く',
        'ダイスバッグ'); Spanish Programs are cartas (summary-faq.es.txt: 'las cartas de
        Programa')."""
        es = catalog("es")
        assert "fábricas textiles" in es.get("Tour the Northern Mills", "assignment").string
        assert "máquina" not in es.get("Tour the Northern Mills", "assignment").string
        assert glossary("es")["Program"]["avoid"] == ["loseta"]
        assert glossary("ja")["Deck"]["term"] == "デッキ"
        assert glossary("ja")["Bag"]["term"] == "バッグ"

    def test_the_issue_terms_are_in_the_glossaries(self) -> None:
        """The terms issue 23 names, as the Spanish and Japanese rules texts write them."""
        es = {e["term"] for e in glossary("es").values()}
        for term in ("taller", "almacén", "engranaje", "socio", "programa", "tarea"):
            assert any(term in str(t).lower() for t in es), term
        ja = {e["term"] for e in glossary("ja").values()}
        for term in ("ワークショップ", "パートナー", "研究", "会合", "講義", "旅行"):
            assert any(term in str(t) for t in ja), term


# -- the slash commands -----------------------------------------------------------------------


class TestCommands:
    @pytest.mark.parametrize("code", LANGS)
    def test_translated_names_are_valid_and_distinct(self, code: str) -> None:
        """Discord refuses a sync with a bad or repeated localised name."""
        from discord.app_commands import TranslationContextLocation as Where

        from cogs.translator import localise

        seen: dict[tuple[str, str], set[str]] = defaultdict(set)
        bad = []
        for place, context, text in extract.commands():
            if context not in ("command", "option"):
                continue
            where_ = Where.command_name if context == "command" else Where.parameter_name
            translated = catalog(code).get(text, context)
            if translated is None or not translated.string or translated.string == text:
                continue  # untranslated (the test above fails) or kept in English
            name = localise(code, where_, text)
            if name is None:
                bad.append(f"{place}: {translated.string!r}")
                continue
            parent = place.rsplit(" ", 1)[0] if context == "option" else "/"
            assert name not in seen[(context, parent)], f"{place}: {name} twice"
            seen[(context, parent)].add(name)
        assert not bad, f"names Discord would refuse: {bad}"

    @pytest.mark.parametrize("code", LANGS)
    def test_messages_name_the_commands_as_discord_shows_them(self, code: str) -> None:
        """A message saying "use `/ada refresh`" uses the command's name in that language (the
        name a member of that language sees in Discord's command list)."""
        from discord.app_commands import TranslationContextLocation as Where

        from cogs.translator import localise

        groups, subs = set(), set()
        for place, context, text in extract.commands():
            if context == "command":
                name = localise(code, Where.command_name, text) or text
                (groups if place.count(" ") == 0 and text.startswith("ada") else subs).add(name)
        wrong = []
        for m in messages(code):
            for text in forms(m.string):
                for group, sub in re.findall(r"`/([^` ]+) ?([^` ]*)", text or ""):
                    if group not in groups or (sub and sub not in subs):
                        wrong.append(f"{where(m)}: /{group} {sub}")
        assert not wrong, wrong[:10]
