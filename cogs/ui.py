"""Message building for the game: custom ids, how a decision's choices are laid out, and the
messages themselves (Discord's Components V2 layouts, built from the state alone).

Every component's ``custom_id`` carries the game id (and, for a decision, its sequence number),
so a click on an old message is recognised from the id alone, and the handlers
(``cogs.components``: ``discord.ui.DynamicItem`` subclasses) keep working after a restart:

    ada:c:<game>:<seq>:<idx>      a choice button (idx = position in decision.choices)
    ada:s:<game>:<seq>:<offset>   a choice select; its values are choice indexes
    ada:g:<game>:<seq>:<group>    show one group of choices (area first, then target)
    ada:b:<game>:<seq>            back to all the groups
    ada:pg:<game>:<seq>:<page>    (messages from before groups existed) another page of choices
    ada:p:<game>:<seq>            "Show my choices": a decision about the hand, answered privately
    ada:u:<game>:<seq>            undo the last choice
    ada:h:<game>                  my hand (private)
    ada:m:<game>                  my Mill (private)
    ada:v:<game>                  the full board (private)
    ada:board:<game>              Open board: the board page inside Discord (the Activity)
    ada:l:<action>:<game>         lobby: join, leave, ai, start, cancel

A turn message reads top to bottom: whose turn it is and what they must decide, in one line;
what happened since that player's last turn, one line per turn; the picture of what the decision
is about; then the choices, and a row of Undo / My hand / My Mill / Board. When the turn passes,
the message shrinks to one line of what was played (``record_layout``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

import i18n
from cogs import digest
from cogs.text import escape, escape_names, one_line, pad, shorten
from engine import Decision, GameState, choices
from engine.state import Choice
from i18n import ENGLISH, N_, NP_, Lang
from i18n import game as words
from store import GameRecord, SeatRecord

BUTTON_MAX = 15  # three rows of five: more choices are grouped, or shown in menus
PER_SELECT = 25
PAGE_SIZE = 100  # (legacy page buttons)
TEXT_MAX = 3800  # Components V2: at most 4,000 characters of text in a message
DIGEST_MAX = 3000  # with the headline and "This turn so far" (500), within TEXT_MAX
TURN_LINE = 1500  # a turn's line says less (whole phrases) only when the digest would not fit
RECORD_MAX = 3000  # an old turn's record: a whole turn fits (the longest seen: ~500)

COLOURS = [0xC0392B, 0x27AE60, 0x2E86C1, 0x8E44AD]  # seat colours, as on the board images
QUIET = ("skip", "done", "pass")


# ------------------------------------------------------------------------------- custom ids


def cid_choice(game: int, seq: int, idx: int) -> str:
    return f"ada:c:{game}:{seq}:{idx}"


def cid_select(game: int, seq: int, offset: int) -> str:
    return f"ada:s:{game}:{seq}:{offset}"


def cid_group(game: int, seq: int, group: int) -> str:
    return f"ada:g:{game}:{seq}:{group}"


def cid_back(game: int, seq: int) -> str:
    return f"ada:b:{game}:{seq}"


def cid_page(game: int, seq: int, page: int) -> str:
    return f"ada:pg:{game}:{seq}:{page}"


def cid_private(game: int, seq: int) -> str:
    return f"ada:p:{game}:{seq}"


def cid_undo(game: int, seq: int) -> str:
    return f"ada:u:{game}:{seq}"


def cid_hand(game: int) -> str:
    return f"ada:h:{game}"


def cid_mill(game: int) -> str:
    return f"ada:m:{game}"


def cid_board(game: int) -> str:
    return f"ada:v:{game}"


def cid_open_board(game: int) -> str:
    return f"ada:board:{game}"


def cid_lobby(action: str, game: int) -> str:
    return f"ada:l:{action}:{game}"


# ------------------------------------------------------------------------------- names


def seat_name(seat: SeatRecord | None, tr: Lang | None = None, *, markdown: bool = True) -> str:
    """A seat's name as shown: AI seats marked once (older games stored "Name (AI)"). Escaped
    for a message (``escape``: a name is shown as typed, never as markdown) unless
    ``markdown`` is False (a button or menu label, which shows text as it is)."""
    if seat is None:
        return "?"
    name = seat.name.removesuffix(" (AI)") if seat.is_ai else seat.name
    if markdown:
        name = escape(name)
    if seat.is_ai:
        return tr._("{name} (AI)", name=name) if tr is not None else f"{name} (AI)"
    return name


def mention_of(seat: SeatRecord | None, tr: Lang | None = None) -> str:
    if seat is None:
        return "?"
    return seat_name(seat, tr) if seat.is_ai or seat.user_id is None else f"<@{seat.user_id}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def is_private(state: GameState) -> bool:
    """Would showing this decision's choices reveal the deciding player's hand?"""
    dec = state.decision
    return dec is not None and dec.private


def hand_text(state: GameState, seat: int, tr: Lang) -> str:
    p = state.players[seat]
    if not p.hand:
        return tr._("Your hand is empty.")
    lines = []
    for card in p.hand:
        info = state.edition.partner[card]
        text = words.content(tr, "effect", str(info.get("text", "")))
        lines.append(f"• **{info['name']}**: {one_line(text, 160)}")
    head = tr.n_("Your hand ({n} Partner card):", "Your hand ({n} Partner cards):", len(p.hand))
    return head + "\n" + "\n".join(lines)


# ------------------------------------------------------------------------------- choice layout


@dataclass(frozen=True, slots=True)
class Group:
    label: str
    indexes: tuple[int, ...]
    run: bool = False  # a plain run of choices (no area in common), shown as a menu


#: The Universities of a region (a city's "region" in the edition), as a group of choices.
REGION_TITLES = {
    "southern": N_("Southern Universities"),
    "central": N_("Central Universities"),
    "scottish": N_("Scottish Universities"),
}


def _place_group(state: GameState, place: str, tr: Lang) -> tuple[str, str]:
    """The group of a disc location (engine.state): a University by its region, the Meeting
    rooms, a Lecture space by its Institution, the Objectives."""
    kind, _, rest = place.partition(":")
    if kind == "uni":
        return _city_group(state, rest, tr)
    if kind == "room":
        return "rooms", tr._("Meeting rooms")
    if kind == "lec":
        i = int(rest.split(":")[0])
        return f"inst{i}", words.institution(tr, state, i)
    return "objectives", tr._("Objectives")


def _city_group(state: GameState, city: str, tr: Lang) -> tuple[str, str]:
    region = str(state.edition.city[city].get("region", ""))
    return f"region:{region}", tr._(REGION_TITLES.get(region, N_("Universities")))


def _own_die_group(place: str, tr: Lang) -> tuple[str, str]:
    """A die on the player board: the Store, or a row of the Mill."""
    if place[0] == "s":
        return "store", tr._("Your Store")
    row = int(place[1:]) // 3 + 1
    return f"mill{row}", tr._("Your Mill, row {row}", row=row)


def _group_key(  # noqa: C901
    state: GameState, kind: str, choice: Choice, label: str, tr: Lang
) -> tuple[str, str] | None:
    """The group a choice belongs to, for the decisions that can have many choices (read from
    the choice's value in the engine's choice format, never from the id's text): its key (the
    same in every language), and its title in the reader's language (``label``: the choice's
    label in that language). The game's own groupings: a Workshop space, a die, a row of the
    Mill, a region of Universities, a kind of place on the board, an Institution."""
    match choices.parse(kind, choice.id):
        case (
            choices.WorkshopMove(space=s)
            | choices.CoalAdjust(space=s)
            | choices.WorkshopDie(space=s)
            | choices.AdjustWorkshopDie(space=s)
        ):
            return f"ws{s}", tr._("Workshop space {n}", n=s + 1)
        case choices.StoreAction():
            return "store", tr._("A Store die for its Action")
        case choices.ChangePip(die=place) | choices.AdjustOwnDie(die=place):
            return _own_die_group(place, tr)
        case choices.GoTo(city=city) if kind == "travel_move":
            cost = state.edition.travel_cost[state.me.city][city]
            return f"cost{cost:02d}", tr._("Travel for £{cost}", cost=cost)
        case choices.LectureSpace(institution=i) | choices.LowerSpace(institution=i):
            return f"inst{i}", words.institution(tr, state, i)
        case (
            choices.MoveDiscTo(location=place)
            | choices.MoveDiscHere(location=place)
            | choices.MoveDiscFrom(location=place)
            | choices.StackDisc(location=place)
        ):
            return _place_group(state, place, tr)
        case (
            choices.University(city=city)
            | choices.RelocateFrom(city=city)
            | choices.RelocateTo(city=city)
        ):
            return _city_group(state, city, tr)
    head, found, _ = choice.label.partition(": ")
    if not found or len(head) > 40:
        return None
    for sep in (": ", "："):
        title, found, _ = label.partition(sep)
        if found:
            return head, title
    return head, label


def choice_layout(state: GameState, tr: Lang = ENGLISH) -> tuple[list[int], list[Group]]:
    """How the current decision's choices are offered: (indexes shown as buttons, groups).

    Up to ``BUTTON_MAX`` choices are buttons. More are grouped (area first, then target) when
    the decision's choices fall into 2 to ``BUTTON_MAX`` groups; "skip"-like choices stay
    buttons beside the groups, and every other choice is in its group, even a group of one (a
    choice is found where its kind of choice is). Otherwise there are no buttons and the groups
    are plain runs of 25 shown as menus.
    """
    dec = state.decision
    assert dec is not None
    n = len(dec.choices)
    if n <= BUTTON_MAX:
        return list(range(n)), []
    direct = [i for i, c in enumerate(dec.choices) if c.id in QUIET]
    labels = words.labels(tr, state, dec)
    keyed: dict[str, list[int]] = {}
    titles: dict[str, str] = {}
    for i, c in enumerate(dec.choices):
        if i in direct:
            continue
        found = _group_key(state, dec.kind, c, labels[i], tr)
        if found is None:
            keyed = {}
            break
        key, title = found
        keyed.setdefault(key, []).append(i)
        titles.setdefault(key, title)
    if 2 <= len(keyed) <= BUTTON_MAX - len(direct):
        order = sorted(keyed) if all(k.startswith("cost") for k in keyed) else list(keyed)
        return direct, [Group(titles[k], tuple(keyed[k])) for k in order]
    runs = [tuple(range(lo, min(n, lo + PER_SELECT))) for lo in range(0, n, PER_SELECT)]
    return [], [
        Group(tr._("Choices {a}–{b} of {n}", a=r[0] + 1, b=r[-1] + 1, n=n), r, run=True)
        for r in runs
    ]


def _choice_button(
    game: int, seq: int, dec: Decision, i: int, labels: list[str]
) -> discord.ui.Button[discord.ui.LayoutView]:
    c = dec.choices[i]
    quiet = c.id in QUIET
    return discord.ui.Button(
        label=one_line(f"{i + 1}. {labels[i]}", 80),
        style=discord.ButtonStyle.secondary if quiet else discord.ButtonStyle.primary,
        custom_id=cid_choice(game, seq, i),
    )


def _select(
    game: int, seq: int, labels: list[str], indexes: Sequence[int], placeholder: str
) -> discord.ui.Select[discord.ui.LayoutView]:
    options = []
    for i in indexes:
        label = f"{i + 1}. {' '.join(labels[i].split())}"
        rest = label[95:] if len(label) > 100 else ""
        options.append(
            discord.SelectOption(
                label=one_line(label, 100),
                value=str(i),
                description=one_line("…" + rest, 100) if rest else None,
            )
        )
    return discord.ui.Select(
        custom_id=cid_select(game, seq, indexes[0]),
        placeholder=one_line(placeholder, 150),
        options=options,
    )


def _rows(
    items: Sequence[discord.ui.Item[discord.ui.LayoutView]],
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """Buttons five to a row; a select alone in its row."""
    rows: list[discord.ui.ActionRow[discord.ui.LayoutView]] = []
    for item in items:
        if (
            isinstance(item, discord.ui.Select)
            or not rows
            or len(rows[-1].children) >= 5
            or isinstance(rows[-1].children[0], discord.ui.Select)
        ):
            rows.append(discord.ui.ActionRow())
        rows[-1].add_item(item)
    return rows


def choice_items(
    game: int, seq: int, state: GameState, tr: Lang, group: int | None = None
) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    """The components that offer the decision's choices (one group opened, or the overview)."""
    dec = state.decision
    assert dec is not None
    direct, groups = choice_layout(state, tr)
    labels = words.labels(tr, state, dec)
    items: list[discord.ui.Item[discord.ui.LayoutView]] = []
    if group is not None and 0 <= group < len(groups):
        g = groups[group]
        if len(g.indexes) <= BUTTON_MAX:
            items += [_choice_button(game, seq, dec, i, labels) for i in g.indexes]
        else:
            for lo in range(0, len(g.indexes), PER_SELECT):
                chunk = g.indexes[lo : lo + PER_SELECT]
                items.append(_select(game, seq, labels, chunk, g.label))
        items.append(
            discord.ui.Button(
                label=tr._("◀ All choices"),
                style=discord.ButtonStyle.secondary,
                custom_id=cid_back(game, seq),
            )
        )
        return items
    items += [_choice_button(game, seq, dec, i, labels) for i in direct]
    if groups and not direct and all(g.run for g in groups):
        items += [_select(game, seq, labels, g.indexes, g.label) for g in groups[:4]]
    else:
        items += [
            discord.ui.Button(
                label=one_line(f"{g.label} ({len(g.indexes)}) ▸", 80),
                style=discord.ButtonStyle.success,
                custom_id=cid_group(game, seq, k),
            )
            for k, g in enumerate(groups)
        ]
    return items


def control_items(
    game: int,
    seq: int,
    state: GameState,
    tr: Lang,
    *,
    private: bool = False,
    activity: bool = False,
) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    """Undo, My hand, My Mill, Board; and Open board (the Activity) when it is set up."""
    items: list[discord.ui.Item[discord.ui.LayoutView]] = []
    if state.can_undo():
        items.append(
            discord.ui.Button(
                label=tr._("Undo"), style=discord.ButtonStyle.danger, custom_id=cid_undo(game, seq)
            )
        )
    if not private:
        items.append(
            discord.ui.Button(
                label=tr._("My hand"), style=discord.ButtonStyle.secondary, custom_id=cid_hand(game)
            )
        )
        items.append(
            discord.ui.Button(
                label=tr._("My Mill"), style=discord.ButtonStyle.secondary, custom_id=cid_mill(game)
            )
        )
        items.append(
            discord.ui.Button(
                label=tr._("Board"), style=discord.ButtonStyle.secondary, custom_id=cid_board(game)
            )
        )
    if activity and not private:
        items.append(
            discord.ui.Button(
                label=tr._("Open board"),
                style=discord.ButtonStyle.primary,
                custom_id=cid_open_board(game),
            )
        )
    return items


# ------------------------------------------------------------------------------- texts


def digest_text(state: GameState, seat: int, tr: Lang) -> str:
    """What happened since ``seat``'s last turn, one line per turn (the whole interval)."""
    turns = digest.since_last_turn(state, seat)
    if not turns:
        return ""
    names = [escape(n) for n in state.seat_names]
    limit = TURN_LINE
    while True:
        lines = [
            tr._(
                "• **{name}** (round {round}): {summary}",
                name=names[t.seat],
                round=t.round,
                summary=digest.summary(t, limit, tr, state),
            )
            for t in turns
        ]
        text = tr._("**Since {name}'s last turn**", name=names[seat]) + "\n" + "\n".join(lines)
        if len(text) <= DIGEST_MAX or limit <= 80:
            return shorten(text, DIGEST_MAX)
        limit -= 40


def record_text(state: GameState, turn: digest.Turn, tr: Lang) -> str:
    """An old turn message's one or two lines: what that turn played."""
    return tr._(
        "-# Round {round} · **{name}**: {summary}",
        round=turn.round,
        name=escape(state.seat_names[turn.seat]),
        summary=digest.summary(turn, RECORD_MAX, tr, state),
    )


def finished_turn(state: GameState) -> digest.Turn | None:
    """The last turn that is over (the one a turn message that has just passed was about)."""
    turns = digest.turns(state)
    if (
        turns
        and not state.is_over
        and turns[-1].seat == state.current
        and digest.current_turn(state)
    ):
        turns = turns[:-1]
    return turns[-1] if turns else None


def final_round(state: GameState) -> bool:
    """Is this the game's final round? Once a player's 9th die is in their Mill, play goes on
    until everyone has had the same number of turns (rulebook, "End Game and Final Scoring");
    a game also ends after its last possible round (the engine's safeguard)."""
    return state.end_triggered or state.round >= state.setup.max_rounds


def headline(rec: GameRecord, state: GameState, tr: Lang) -> str:
    dec = state.decision
    assert dec is not None
    seat = rec.seat_at(dec.player)
    name = seat_name(seat, tr)
    who = mention_of(seat, tr)
    if final_round(state):
        title = tr._(
            "### Game #{id} · round {round}, the final round · {name}'s turn",
            id=rec.id,
            round=state.round,
            name=name,
        )
    else:
        title = tr._(
            "### Game #{id} · round {round} · {name}'s turn",
            id=rec.id,
            round=state.round,
            name=name,
        )
    if seat is not None and seat.is_ai:
        return title + "\n" + tr._("{name} is playing…", name=name)
    if dec.private:
        return (
            title
            + "\n"
            + tr._(
                "{who}: a decision about your hand, shown only to you: **Show my choices**.",
                who=who,
            )
        )
    return title + "\n" + tr._("{who}: **{prompt}**", who=who, prompt=words.prompt(tr, dec))


def seat_colour(seat: int) -> int:
    return COLOURS[seat % len(COLOURS)]


def turn_layout(
    rec: GameRecord,
    state: GameState,
    seq: int,
    *,
    image: str | None,
    tr: Lang,
    group: int | None = None,
    note: str | None = None,
    activity: bool = False,
) -> discord.ui.LayoutView:
    """The public turn message (in the game's language ``tr``): headline, digest, this turn so
    far, picture, choices, controls. ``note``: an English line, said in the language.
    ``activity``: the bot has the Activity set up (an **Open board** button)."""
    dec = state.decision
    assert dec is not None
    texts = [headline(rec, state, tr)]
    digest_part = digest_text(state, dec.player, tr)
    now = digest.current_turn(state)
    if digest_part:
        texts.append(digest_part)
    if now is not None:
        texts.append(
            tr._("**This turn so far:** {summary}", summary=digest.summary(now, 500, tr, state))
        )
    if note:
        texts.append(f"_{tr._(note)}_")
    container = discord.ui.Container(accent_colour=seat_colour(dec.player))
    budget = TEXT_MAX
    for text in texts:
        text = shorten(text, budget)
        budget -= len(text)
        container.add_item(discord.ui.TextDisplay(text))
    if image:
        container.add_item(
            discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}"))
        )
    container.add_item(discord.ui.Separator())
    seat = rec.seat_at(dec.player)
    if seat is not None and not seat.is_ai:
        if dec.private:
            mine: list[discord.ui.Item[discord.ui.LayoutView]] = [
                discord.ui.Button(
                    label=tr._("Show my choices (private)"),
                    style=discord.ButtonStyle.success,
                    custom_id=cid_private(rec.id, seq),
                )
            ]
        else:
            mine = choice_items(rec.id, seq, state, tr, group)
        for row in _rows(mine):
            container.add_item(row)
    for row in _rows(control_items(rec.id, seq, state, tr, activity=activity)):
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return _stopped(view)


def private_layout(
    rec: GameRecord,
    state: GameState,
    seq: int,
    seat: int,
    tr: Lang,
    *,
    done: str | None = None,
    group: int | None = None,
) -> discord.ui.LayoutView:
    """The deciding player's own (ephemeral) message for a decision about their hand, in their
    language ``tr`` (``done``: the label of the choice just made, in that language)."""
    dec = state.decision
    assert dec is not None
    head = tr._("✅ You chose: {choice}", choice=one_line(done, 300)) + "\n" if done else ""
    container = discord.ui.Container(accent_colour=seat_colour(seat))
    prompt = words.prompt(tr, dec)
    container.add_item(
        discord.ui.TextDisplay(f"{head}**{prompt}**\n\n{hand_text(state, seat, tr)}"[:TEXT_MAX])
    )
    for row in _rows(
        choice_items(rec.id, seq, state, tr, group)
        + control_items(rec.id, seq, state, tr, private=True)
    ):
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return _stopped(view)


def text_layout(text: str, *, colour: int | None = None) -> discord.ui.LayoutView:
    """A message of text only (an old turn's record, a note), with no controls."""
    view = discord.ui.LayoutView(timeout=None)
    if colour is None:
        view.add_item(discord.ui.TextDisplay(shorten(text, TEXT_MAX)))
    else:
        view.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(shorten(text, TEXT_MAX)), accent_colour=colour
            )
        )
    return _stopped(view)


def image_layout(text: str, image: str | None) -> discord.ui.LayoutView:
    """Private information: a line of text and a picture."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(shorten(text, TEXT_MAX)))
    if image:
        view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    return _stopped(view)


def _stopped(view: discord.ui.BaseView) -> discord.ui.BaseView:  # type: ignore[name-defined]
    """Our components are handled by dynamic items; a stopped view is never stored by discord.py."""
    view.stop()
    return view


def empty_view() -> discord.ui.View:
    return _stopped(discord.ui.View(timeout=None))  # type: ignore[return-value]


# ------------------------------------------------------------------------------- lobby and end


def lobby_full(rec: GameRecord) -> bool:
    """Has every seat of a game's lobby been taken?"""
    return len(rec.seats) >= rec.options.get("players", 4)


def lobby_view(rec: GameRecord, tr: Lang) -> discord.ui.View:
    """The lobby's buttons while it is open: no Join or Add AI once every seat is taken."""
    view = discord.ui.View(timeout=None)
    if rec.status == "lobby":
        open_seat = not lobby_full(rec)
        buttons = [
            (tr._("Join"), discord.ButtonStyle.success, "join", open_seat),
            (tr._("Leave"), discord.ButtonStyle.secondary, "leave", True),
            (tr._("Add AI"), discord.ButtonStyle.secondary, "ai", open_seat),
            (tr._("Start"), discord.ButtonStyle.primary, "start", True),
            (tr._("Cancel"), discord.ButtonStyle.danger, "cancel", True),
        ]
        for label, style, action, offered in buttons:
            if offered:
                view.add_item(
                    discord.ui.Button(label=label, style=style, custom_id=cid_lobby(action, rec.id))
                )
    return _stopped(view)  # type: ignore[return-value]


def seat_label(seat: SeatRecord, tr: Lang) -> str:
    if seat.is_ai:
        return seat_name(seat, tr) + (f" · {seat.ai_policy}" if seat.ai_policy else "")
    return f"{escape(seat.name)} (<@{seat.user_id}>)"


#: A game's status as /ada games and the game menus say it (context "status").
STATUS_WORDS = (
    NP_("status", "lobby"),
    NP_("status", "active"),
    NP_("status", "finished"),
    NP_("status", "cancelled"),
    NP_("status", "broken"),
)

LOBBY_STATUS = {
    "lobby": N_("Waiting for players: **Join**, then the creator presses **Start**."),
    "full": N_("Every seat is taken: the creator presses **Start**."),
    "active": N_("The game is on: follow the turn messages below."),
    "finished": N_("This game is over."),
    "cancelled": N_("This game was cancelled."),
}


def lobby_embed(
    rec: GameRecord, tr: Lang, reliability: dict[int, str] | None = None
) -> discord.Embed:
    """The lobby message; ``reliability``: a line per member, shown after their seat (how
    they finish games: ``cogs.records.lobby_reliability``)."""
    cap = rec.options.get("players", 4)
    notes = reliability or {}
    seats = "\n".join(
        f"{i + 1}. {seat_label(s, tr)}" + (f" · {notes[s.user_id]}" if s.user_id in notes else "")
        for i, s in enumerate(rec.seats)
    )
    shown = "full" if rec.status == "lobby" and lobby_full(rec) else rec.status
    status = (
        tr._(LOBBY_STATUS[shown])
        if rec.status in LOBBY_STATUS
        else tr._("Status: {status}.", status=rec.status)
    )
    hours = rec.options.get("reminder_hours")
    details = [tr._("Created by <@{user}>", user=rec.creator_id)]
    if hours:
        details.append(tr._("reminders after {hours} h", hours=tr.num(hours)))
    standin = rec.options.get("standin_hours")
    if standin:
        details.append(
            tr._("a stand-in may be asked {hours} h after a reminder", hours=tr.num(standin))
        )
    details.append(tr._("seat order and first player are drawn at the start"))
    language = rec.options.get("language")
    if language:
        details.append(tr._("played in {language}", language=i18n.NAMES.get(language, language)))
    head = tr._("Seats ({n}/{cap}):", n=len(rec.seats), cap=cap)
    embed = discord.Embed(
        title=tr._("Ada's Dream — game #{id}", id=rec.id),
        description=f"{status}\n{head}\n{seats or tr._('nobody yet')}\n\n-# " + " · ".join(details),
        colour=0xB9770E,
    )
    return embed


def recent_log(state: GameState, tr: Lang, lines: int = 12, limit: int = 1000) -> str:
    out: list[str] = []
    size = 0
    for line in reversed(state.log[-lines:]):
        line = escape_names(words.log_line(tr, state, line), state.seat_names)
        size += len(line) + 3
        if size > limit:
            break
        out.append(f"• {line}")
    return "\n".join(reversed(out)) or "—"


def score_table(names: list[str], rows: list[tuple[str, list[str]]], tr: Lang) -> str:
    """A scorepad as a monospaced table: categories down, players across (wide characters take
    two columns, so Japanese lines up too)."""
    names = [n.replace("`", "\u02cb") for n in names]  # a backtick would end the code block
    lines = [pad(tr._("Category"), 18) + "".join(pad(n, 9, right=True, cut=8) for n in names)]
    for cat, cells in rows:
        lines.append(
            pad(words.category(tr, cat), 18, cut=18) + "".join(pad(c, 9, right=True) for c in cells)
        )
    return "```\n" + "\n".join(lines) + "\n```"


def final_embed(
    rec: GameRecord, state: GameState, scorepad_file: str | None, tr: Lang
) -> discord.Embed:
    from engine.scoring import CATEGORIES

    scores = state.final_scores()
    win = state.winner()
    names = state.seat_names
    rows = [(cat, [str(s[cat]) for s in scores]) for cat in [*CATEGORIES, "Total"]]
    table = score_table(names, rows, tr)
    winner_seat = rec.seat_at(win)
    embed = discord.Embed(
        title=tr._("Game #{id} is over — {name} wins!", id=rec.id, name=names[win]),
        description=tr._("Congratulations {who}!", who=mention_of(winner_seat, tr)) + "\n" + table,
        colour=0xF1C40F,
    )
    if scorepad_file:
        embed.set_image(url=f"attachment://{scorepad_file}")
    return embed
