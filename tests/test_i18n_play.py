"""Whole games played through simcord in Spanish and in Japanese: nothing the bot says, labels or
draws is left in English (apart from names and numbers), the fonts have every character drawn,
the translated text fits its boxes; and a mixed table, where the public text follows the game's
language and each player's private answers their own.

How "no English" is checked: every text the players can see is collected (message contents,
embeds, buttons, menus and their options, private answers, DMs), and so is every text the
renderer draws (a hook on ``Canvas.png`` reads the canvas's record of its texts). A word of at
least three letters that the English catalog uses and the language's own translations never do
is English left behind, unless it is a name (players, Partners, cities, Universities) or inside
`code` (a slash command as typed).
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from functools import cache
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po

import i18n
from i18n import DOMAIN, LOCALE_DIR
from i18n.extract import TEMPLATE
from offline.driver import flat_components, texts
from render import _draw
from render._draw import Canvas
from tests.test_render import assert_text_ok
from tests.test_render_focus import assert_legible

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
LATIN = "A-Za-z\u00c0-\u024f"  # a word of Latin letters, accents too ("canceló" is no "cancel")
WORD = re.compile(rf"[{LATIN}][{LATIN}']+[{LATIN}]")
IGNORED = re.compile(r"\{[^{}]*\}|`[^`]*`|<[@#:/][^>]*>|https?://\S+|\[[^\]]*\]\([^)]*\)")


# -- what the bot's locales are -----------------------------------------------------------------


@pytest.fixture
def locales(monkeypatch: Any) -> dict[int, str]:
    """The Discord client language of each member (user id -> locale; en-US by default), and the
    guild's preferred locale as interactions report it (simcord always says en-US)."""
    import simcord.interactions as si

    chosen: dict[int, str] = {}
    real = si.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = real(backend, **kwargs)
        payload["locale"] = chosen.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(si, "base_payload", base_payload)
    return chosen


# -- what the players see ---------------------------------------------------------------------


def shown_texts(message: Any) -> Iterator[str]:
    """Every text of a message a player reads: content, embeds, and the components' labels,
    placeholders and menu options."""
    yield texts(message)
    for e in getattr(message, "embeds", []) or []:
        for f in e.fields:
            yield f.name or ""
            yield f.value or ""
        if e.footer and e.footer.text:
            yield e.footer.text
        if e.author and e.author.name:
            yield e.author.name
    for c in flat_components(message):
        for key in ("label", "placeholder"):
            if c.get(key):
                yield c[key]
        for o in c.get("options") or []:
            yield o.get("label") or ""
            yield o.get("description") or ""


class Seen:
    """What was shown, in which language it should be: [(lang, where, text)]."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str, str]] = []
        self.drawn: list[tuple[str, str, str]] = []  # (lang, image size, text)
        self.problems: list[str] = []
        self.lock = threading.Lock()

    def message(self, lang: str, where: str, message: Any) -> None:
        for t in shown_texts(message):
            if t:
                self.texts.append((lang, where, t))


@pytest.fixture
def seen(monkeypatch: Any) -> Seen:
    """Records the text of every image drawn (and checks it fits) while the test runs."""
    record = Seen()
    real_png = Canvas.png

    def png(self: Canvas, *args: Any, **kwargs: Any) -> bytes:
        lang = i18n.current().code
        size = f"{self.width}x{self.height}"
        with record.lock:
            for t in self.texts:
                record.drawn.append((lang, size, t.shown or t.text))
        try:
            assert_text_ok(self)
            if self.width == 720:  # images read inline: focus, scorepad, compact Mill
                assert_legible(self, size)
        except AssertionError as e:
            with record.lock:
                record.problems.append(f"{lang} {size}: {e}")
        # what is checked here is the canvas's record of its texts, not the pixels: the bot
        # sends a small real picture instead (encoding each whole game's pictures cost a
        # quarter of these tests' time; the encoder is tested in test_render_png.py)
        return placeholder

    placeholder = real_png(Canvas(8, 8))
    monkeypatch.setattr(Canvas, "png", png)
    return record


# -- the words of each language ---------------------------------------------------------------


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(IGNORED.sub(" ", text))}


@cache
def english_words() -> frozenset[str]:
    with TEMPLATE.open("rb") as f:
        pot = read_po(f)
    out: set[str] = set()
    for m in pot:
        for text in m.id if isinstance(m.id, tuple) else (m.id,):
            out |= _words(text)
    return frozenset(out)


@cache
def own_words(code: str) -> frozenset[str]:
    """Words the language's translations use themselves (Spanish shares "final", "total"...)."""
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    out: set[str] = set()
    for m in catalog:
        if not m.id:
            continue  # the header
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            out |= _words(text or "")
    return frozenset(out)


def names(state: Any) -> set[str]:
    """Names stay as they are: players, Partners, cities and Universities, and the game's own
    name (the threads are "Ada's Dream #7")."""
    ed = state.edition
    out = {p.name for p in state.players} | {"Ada's Dream"}
    out |= {info["name"] for info in ed.partner.values()}
    out |= {info["name"] for info in ed.city.values()}
    return {w for n in out for w in _words(n)}


def english_left(code: str, text: str, allowed: set[str]) -> set[str]:
    return (_words(text) & english_words()) - own_words(code) - allowed


def assert_in_language(seen: Seen, state: Any) -> None:
    allowed = names(state)
    found: dict[str, list[str]] = {}
    for code, where, text in [*seen.texts, *seen.drawn]:
        if code == "en":
            continue
        left = english_left(code, text, allowed)
        if left:
            found.setdefault(f"{code} {where}", []).append(f"{sorted(left)} in {text[:90]!r}")
        if code == "ja" and WORD.search(IGNORED.sub(" ", text)) and not JAPANESE.search(text):
            # a text with words but no Japanese at all: English (or a name alone)
            if _words(text) - allowed:
                found.setdefault(f"ja {where}", []).append(f"not Japanese: {text[:90]!r}")
    report = [f"{k}: {len(v)} texts, e.g. {v[:4]}" for k, v in found.items()]
    assert not found, "English left:\n" + "\n".join(report)


def assert_fonts_cover(seen: Seen) -> None:
    """Every character drawn in Japanese is in Noto Sans JP (both weights) or DejaVu: no boxes."""
    ja = _draw.cmap("NotoSansJP-Regular.ttf") & _draw.cmap("NotoSansJP-Bold.ttf")
    latin = _draw.cmap("DejaVuSans.ttf") & _draw.cmap("DejaVuSans-Bold.ttf")
    missing = {
        ch
        for code, _, text in seen.drawn
        for ch in text
        if not ch.isspace() and ord(ch) not in ja and ord(ch) not in latin
    }
    assert not missing, f"characters without a glyph: {sorted(missing)}"


# -- playing --------------------------------------------------------------------------------


def private_text(res: Any) -> str:
    """The text of a command's private answer (its response, or its follow-up after a defer)."""
    return "\n".join(texts(m) for m in [res.response, *res.followups] if m is not None)


def watch_clicks(table: Any, seen: Seen, lang_of_user: dict[int, str], game_lang: str) -> None:
    """Record the answers to every click: private ones in the clicker's language, public ones in
    the game's."""
    clicker = table.clicker
    real_act = clicker.act

    async def act(actor: Any, verb: str, target: Any, *args: Any, **kwargs: Any) -> Any:
        res = await real_act(actor, verb, target, *args, **kwargs)
        mine = lang_of_user.get(actor.id, "en")
        for m in [res.response, *res.followups]:
            if m is not None:
                private = getattr(m, "ephemeral", False) or bool(
                    getattr(m, "flags", None) and m.flags.ephemeral
                )
                seen.message(mine if private else game_lang, f"{verb} answer", m)
        return res

    clicker.act = act


def sweep(table: Any, seen: Seen, game: int, game_lang: str, lang_of_user: dict[int, str]) -> None:
    """Everything left in the channel, the game's thread (each member's view, with their private
    messages) and the members' DMs."""
    for m in table.channel.history():
        seen.message(game_lang, "channel", m)
    thread = table.thread(game)
    public = {m.id for m in thread.history()}
    for m in thread.history():
        seen.message(game_lang, "thread", m)
    for member in table.members.values():
        for m in thread.history(viewer=member):
            if m.id not in public:
                seen.message(lang_of_user.get(member.id, "en"), "private", m)


async def play(table: Any, game: int, seed: int, limit: int = 2000) -> int:
    rng = random.Random(seed)
    moves = 0
    while (await table.store.get_game(game)).status == "active" and moves < limit:
        moves += 1
        res = await table.move(game, lambda d: rng.randrange(len(d.choices)), slash=moves % 23 == 0)
        assert res.acknowledged
    return moves


def assert_records_whole(table: Any, game: int, code: str) -> None:
    """Every old turn's record in the thread says its whole turn (issue 28): not cut, no
    phrase left out."""
    tr = i18n.get(code)
    more = re.escape(tr.n_("and {n} more event", "and {n} more events", 7)).replace("7", r"\d+")
    records = [texts(m) for m in table.thread(game).history() if texts(m).startswith("-# ")]
    assert len(records) > 10
    for record in records:
        assert not record.endswith("…") and not re.search(more, record), record


LANG_CASES = [
    # (game language, how it is chosen, the members' Discord locale)
    pytest.param("ja", "server", "ja", id="ja"),
    pytest.param("es", "option", "es-ES", id="es"),
]


@pytest.mark.parametrize("bot_options", [{"images": True}])
@pytest.mark.parametrize("code,chosen_by,locale", LANG_CASES)
async def test_a_whole_game_in_the_language(
    simcord_env: Any,
    table: Any,
    locales: dict[int, str],
    seen: Seen,
    bot_options: dict[str, Any],
    code: str,
    chosen_by: str,
    locale: str,
) -> None:
    simcord_env.backend.get_guild(table.guild.id).preferred_locale = (
        locale if chosen_by == "server" else "en-US"
    )
    for member in table.members.values():
        locales[member.id] = locale
    users = {m.id: code for m in table.members.values()}
    watch_clicks(table, seen, users, code)
    options = {"language": code} if chosen_by == "option" else {}
    game = await table.new_game("alice", ("bob",), **options)
    rec = await table.store.get_game(game)
    assert rec.options["language"] == code
    moves = await play(table, game, seed=4)
    assert (await table.store.get_game(game)).status == "finished", moves
    # a few commands besides the turns
    thread = table.thread(game)
    for command, kwargs in [
        ("ada board", {}),
        ("ada mill", {}),
        ("ada score", {}),
        ("ada log", {}),
        ("ada rules", {}),
        ("ada final", {}),
        ("ada help", {}),
        ("ada games", {}),
    ]:
        res = await table.alice.slash(thread, command, **kwargs)
        assert res.acknowledged, command
        for m in [res.response, *res.followups]:
            if m is not None:
                seen.message(code, command, m)
    sweep(table, seen, game, code, users)
    state, _ = await table.store.load_state(game)
    assert_records_whole(table, game, code)
    assert seen.drawn and any(lang == code for lang, _, _ in seen.drawn)
    assert_in_language(seen, state)
    if code == "ja":
        assert_fonts_cover(seen)
        assert any(JAPANESE.search(t) for _, _, t in seen.drawn)
    assert not seen.problems, "\n".join(seen.problems[:10])


@pytest.mark.parametrize("bot_options", [{"images": True}])
async def test_mixed_table_spanish_game_one_japanese_player(
    simcord_env: Any, table: Any, locales: dict[int, str], seen: Seen, bot_options: dict[str, Any]
) -> None:
    """A game in Spanish where bob's Discord is Japanese: the thread speaks Spanish, bob's
    private answers Japanese, alice's Spanish."""
    locales[table.alice.id] = "es-ES"
    locales[table.bob.id] = "ja"
    users = {table.alice.id: "es", table.bob.id: "ja"}
    watch_clicks(table, seen, users, "es")
    game = await table.new_game("alice", ("bob",), language="es")
    await play(table, game, seed=9, limit=60)
    thread = table.thread(game)
    # bob's own pictures (Board, My Mill) are drawn in Japanese, the thread's in Spanish
    from cogs import ui

    drawn_before = len(seen.drawn)
    turn = await table.turn_message(game)
    for cid in (ui.cid_board(game), ui.cid_mill(game)):
        res = await table.bob.click(turn, custom_id=cid)
        assert res.acknowledged
        for m in [res.response, *res.followups]:
            if m is not None:
                assert m.attachments, cid
                seen.message("ja", f"bob {cid}", m)
    mine = {lang for lang, _, _ in seen.drawn[drawn_before:]}
    assert mine == {"ja"}, mine
    assert {lang for lang, _, _ in seen.drawn[:drawn_before]} == {"es"}
    for member, lang in ((table.bob, "ja"), (table.alice, "es")):
        res = await member.slash(thread, "ada rules")
        for m in [res.response, *res.followups]:
            if m is not None:
                seen.message(lang, f"{member.name} /ada rules", m)
    sweep(table, seen, game, "es", users)
    state, _ = await table.store.load_state(game)
    bob_private = [t for lang, where, t in seen.texts if lang == "ja"]
    assert bob_private and all(JAPANESE.search(t) for t in bob_private if _words(t) - names(state))
    public = [t for lang, where, t in seen.texts if lang == "es"]
    assert public and not any(JAPANESE.search(t) for t in public)
    assert_in_language(seen, state)


async def test_the_game_language_defaults_to_the_server_setting_then_its_locale(
    simcord_env: Any, table: Any, locales: dict[int, str]
) -> None:
    guild = simcord_env.backend.get_guild(table.guild.id)
    guild.preferred_locale = "ja"
    game = await table.new_game("alice", ("bob",), start=False)
    assert (await table.store.get_game(game)).options["language"] == "ja"
    # an admin sets Spanish for the server's new games: it wins over the Discord locale
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(table.env.create_user("admin"), roles=[admins])
    res = await admin.slash(table.channel, "ada-admin settings", language="es")
    assert res.acknowledged
    game = await table.new_game("bob", ("alice",), start=False)
    assert (await table.store.get_game(game)).options["language"] == "es"
    # and the game's own option wins over both
    game = await table.new_game("carol", ("dave",), start=False, language="en")
    assert (await table.store.get_game(game)).options["language"] == "en"


async def test_private_answers_follow_the_members_own_setting(
    simcord_env: Any, table: Any, locales: dict[int, str]
) -> None:
    locales[table.alice.id] = "es-ES"
    game = await table.new_game("alice", ("bob",))
    thread = table.thread(game)
    before = private_text(await table.alice.slash(thread, "ada rules"))
    res = await table.alice.slash(thread, "ada language", language="ja")
    assert JAPANESE.search(private_text(res))
    after = private_text(await table.alice.slash(thread, "ada rules"))
    assert JAPANESE.search(after) and not JAPANESE.search(before)
    # back to the Discord client's language
    await table.alice.slash(thread, "ada language", language="discord")
    again = private_text(await table.alice.slash(thread, "ada rules"))
    assert again == before


async def test_slash_commands_are_localised(simcord_env: Any, table: Any) -> None:
    """The synced commands carry Spanish and Japanese names and descriptions (English default)."""
    ada = simcord_env.backend.find_command("ada", None)
    for locale in ("es-ES", "es-419", "ja"):
        assert ada["description_localizations"][locale]
        sub = {o["name"]: o for o in ada["options"]}
        new = sub["new"]
        assert new.get("name_localizations", {}).get(locale)
        assert new["description_localizations"][locale] != new["description"]
    assert "en-US" not in ada.get("description_localizations", {})


async def test_reminders_by_dm_speak_the_games_language_or_the_members_own(
    simcord_env: Any, table: Any, locales: dict[int, str]
) -> None:
    """A DM has no Discord client language to follow: the member's own setting, else the game's."""
    from tests.test_bot_reminders import HOUR, dms, to_move, wait

    game = await table.new_game("alice", ("bob",), language="ja")
    mover, _other = await to_move(table, game)
    await wait(simcord_env, 12.25 * HOUR)
    sent = dms(mover)
    assert len(sent) == 1 and JAPANESE.search(sent[0])
    state, _ = await table.store.load_state(game)
    assert not english_left("ja", sent[0], names(state))
    # the mover chooses Spanish for themselves: the next reminder is in Spanish
    await mover.slash(table.thread(game), "ada language", language="es")
    await wait(simcord_env, 25 * HOUR)
    sent = dms(mover)
    assert len(sent) == 2 and not JAPANESE.search(sent[1])
    assert not english_left("es", sent[1], names(state))
