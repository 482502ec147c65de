"""Extract every player-facing string into ``i18n/locale/messages.pot`` and bring the language
catalogs up to date with it (Babel), as ``pybabel extract`` and ``pybabel update`` would:

    .venv/bin/python -m i18n.extract          # writes messages.pot, updates es and ja
    .venv/bin/python -m i18n.extract --check  # exit 1 if the template is out of date
    .venv/bin/python -m i18n.extract --merge translated/es.po   # take a translator's catalog
        (and its glossary, translated/glossary-es.toml, if there is one: i18n/glossary/es.toml)

Where the strings come from:
- the Python sources of the bot (``cogs/``, ``render/``, ``i18n/``, ``store/``, ``bot.py``,
  ``web/discord_auth.py``): calls
  of ``_``, ``n_``, ``p_``, ``N_``, and the messages of ``Oops(...)`` and the store's errors;
- the engine's tables (prompts, log sentences, area and colour words, scorepad categories) and
  its rules summaries (``engine.help``);
- every edition's content (``engine/editions/*.toml``): effect texts, Objectives, Programs,
  Assignment titles and Institutions, each by its context, the ids using it noted for the
  translator (people's and cities' names are not translated);
- the slash commands: every command, option and choice name and description (contexts
  "command", "command description", "option", "option description", "choice").

A new or changed English string appears in es and ja untranslated (or fuzzy: fuzzy entries are
not used), and the catalog tests fail until it is translated.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    "bot.py",
    "cogs",
    "render",
    "web",
    "i18n",
    "store/errors.py",
    "store/common.py",
    "store/lobby.py",
    "store/play.py",
    "store/settings.py",
    "web/discord_auth.py",
)
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "NP_": ((1, "c"), 2),
    "n_": (1, 2),
    "p_": ((1, "c"), 2),
    "Oops": None,
    "OopsN": (1, 2),
    "StoreError": None,
    "LobbyError": None,
    "CannotUndo": None,
    "GameNotFound": None,
}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
GLOSSARY_DIR = LOCALE_DIR.parent / "glossary"
"""One glossary a language (``es.toml``): the game's terms as the rules texts of that language
write them; the catalogs follow it (tests/test_i18n_catalogs.py checks)."""


def _python(catalog: Catalog) -> None:
    for source in SOURCES:
        path = ROOT / source
        if path.is_file():
            found: Iterator[Any] = ((source, *m) for m in _extract_file(path))
        else:
            found = (
                (f"{source}/{name}", lineno, message, comments, context)
                for name, lineno, message, comments, context in extract_from_dir(
                    path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
                )
            )
        for filename, lineno, message, comments, context in found:
            catalog.add(
                message,
                locations=[(filename, lineno)],
                auto_comments=comments,
                context=context,
            )


def _extract_file(path: Path) -> Iterator[tuple[int, Any, list[str], str | None]]:
    from babel.messages.extract import extract

    with path.open("rb") as f:
        yield from extract("python", f, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",))


def _add(catalog: Catalog, text: Any, context: str | None, where: str) -> None:
    """Add a message (a text, or a (singular, plural) pair) unless the catalog has it."""
    if not text:
        return
    if isinstance(text, tuple):  # a plural: babel keys it by its singular
        text = tuple(text)
    old = catalog.get(text, context)
    if old is not None:
        if where not in old.auto_comments and len(old.auto_comments) < 6:
            old.auto_comments.append(where)
        return
    catalog.add(text, context=context, auto_comments=[where])


def _engine(catalog: Catalog) -> None:
    from engine.edition import edition
    from engine.help import RULES_SUMMARY, Listed, summary
    from i18n.game import engine_tables
    from store.errors import StoreError

    for context, texts in engine_tables().items():
        for text in texts:
            _add(catalog, text, context, f"engine {context or 'label'}")
    ed = edition("designed-1")
    for kind in RULES_SUMMARY:
        s = summary(kind)
        _add(catalog, s.text, None, f"rules summary: {kind}")
        for value in (s.fields(ed) if s.fields else {}).values():
            if isinstance(value, Listed):
                _add(catalog, value.template, None, f"rules summary: {kind}")
                _add(catalog, value.sep, None, f"rules summary: {kind}")
    stack = [StoreError]
    while stack:
        cls = stack.pop()
        _add(catalog, cls.default_message, None, f"store error {cls.__name__}")
        stack.extend(cls.__subclasses__())


def _editions(catalog: Catalog) -> None:
    from engine.edition import library

    for name in library().names():
        ed = library().get(name)
        for where, context, text in content_texts(ed):
            _add(catalog, text, context, f"{name}: {where}")


def content_texts(ed: Any) -> Iterator[tuple[str, str, str]]:
    """(where, context, English text) of every translatable text of an edition."""
    for key, info in ed.workshop_bonuses.items():
        yield f"workshop bonus {key}", "effect", info["text"]
    for i, info in enumerate(ed.program_spaces):
        yield f"program space {i}", "effect", info["text"]
    for info in ed.cities:
        if info.get("text"):
            yield f"city {info['id']}", "effect", info["text"]
    for info in ed.university_tiles:
        yield f"university tile {info['id']}", "effect", info["text"]
    yield "analytical society", "effect", ed.analytical_society["text"]
    for i, inst in enumerate(ed.institutions):
        yield f"institution {i}", "institution", inst["name"]
        for level, space in inst["spaces"].items():
            yield f"institution {i} level {level}", "effect", space["text"]
    for info in ed.breakthroughs:
        yield f"breakthrough {info['id']}", "effect", info["text"]
    for info in ed.objectives:
        yield f"objective {info['id']}", "objective", info["text"]
    for info in ed.programs:
        yield f"program {info['id']}", "program", info["text"]
    for info in ed.assignments:
        yield f"assignment {info['id']}", "assignment", info["name"]
        yield f"assignment {info['id']}", "effect", info["text"]
        for step in info["effect"]:
            for option in step.get("options", []):
                yield f"assignment {info['id']} option", "effect", option["label"]
    for info in ed.partners:
        yield f"partner {info['id']}", "effect", info["text"]


def commands() -> Iterator[tuple[str, str, str]]:
    """(where, context, text) of every name and description of the slash commands."""
    from cogs import EXTENSIONS as COG_MODULES
    from cogs.base import AdaCog, make_groups

    for group in make_groups():
        yield f"/{group.name}", "command", group.name
        yield f"/{group.name}", "command description", group.description
    for module_name in COG_MODULES:
        module = importlib.import_module(module_name)
        for obj in vars(module).values():
            if not (isinstance(obj, type) and issubclass(obj, AdaCog) and obj is not AdaCog):
                continue
            for command in _leaves(obj.__cog_app_commands__):
                yield f"/{command.name}", "command", command.name
                yield f"/{command.name}", "command description", command.description
                for param in getattr(command, "parameters", ()):
                    yield f"/{command.name} {param.name}", "option", param.name
                    yield f"/{command.name} {param.name}", "option description", param.description
                    for choice in param.choices:
                        yield f"/{command.name} {param.name}", "choice", choice.name


def _leaves(commands: Any) -> Iterator[Any]:
    """Commands and groups of commands, and the commands in each group."""
    for command in commands:
        yield command
        yield from _leaves(getattr(command, "commands", ()))


def _commands(catalog: Catalog) -> None:
    for where, context, text in commands():
        _add(catalog, text, context, where)


def template() -> Catalog:
    catalog = Catalog(
        project="Ada's Dream bot",
        msgid_bugs_address="",
        copyright_holder="",
        charset="utf-8",
        fuzzy=False,
    )
    _python(catalog)
    _engine(catalog)
    _editions(catalog)
    _commands(catalog)
    return catalog


def _po_bytes(catalog: Catalog, **kwargs: Any) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, **kwargs)
    return buf.getvalue()


def _messages(catalog: Catalog) -> set[tuple[Any, Any]]:
    """What a template asks translators for: each message and its context (not where in the
    code it is, which moves with every edit)."""
    return {(m.context, m.id) for m in catalog if m.id}


def _catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def merge(source: Path) -> tuple[str, int, int, int]:
    """Copy a translator's translations into the repo's catalog of the same language, message by
    message (context and English text): messages the repo no longer has are left out, fuzzy
    ones too, and a message the translator left empty keeps the repo's translation.

    Returns (language, copied, left out as unknown or fuzzy, still untranslated)."""
    with source.open("rb") as f:
        theirs = read_po(f)
    code = str(theirs.locale) if theirs.locale else source.stem
    if code not in LANGUAGES or code == "en":
        raise SystemExit(f"{source}: no language of the bot (its Language header says {code!r})")
    path = _catalog_path(code)
    with path.open("rb") as f:
        ours = read_po(f, locale=code, domain=DOMAIN)
    copied = skipped = 0
    for message in theirs:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            continue
        mine = ours.get(message.id, message.context)
        if mine is None or message.fuzzy:
            skipped += 1
            continue
        if isinstance(mine.id, tuple) != isinstance(message.id, tuple):
            skipped += 1
            continue
        if mine.string != message.string or mine.fuzzy:
            mine.string = message.string
            mine.flags.discard("fuzzy")
            mine.previous_id = ()
            copied += 1
    path.write_bytes(_po_bytes(ours, ignore_obsolete=True, include_previous=True))
    missing = sum(
        1
        for m in ours
        if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))
    )
    return code, copied, skipped, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the template is current")
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        metavar="PO",
        help="copy the translations of these catalogs (es.po, ja.po) into the repo's",
    )
    args = parser.parse_args(argv)
    if args.merge:
        for source in args.merge:
            code, copied, skipped, missing = merge(source)
            print(
                f"{_catalog_path(code).relative_to(ROOT)}: {copied} translations taken from "
                f"{source}, {skipped} left out (unknown or fuzzy), {missing} still untranslated"
            )
            glossary = source.parent / f"glossary-{code}.toml"
            if glossary.exists():
                tomllib.loads(glossary.read_text(encoding="utf-8"))  # refuse a broken one
                target = GLOSSARY_DIR / f"{code}.toml"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(glossary.read_text(encoding="utf-8"), encoding="utf-8")
                print(f"{target.relative_to(ROOT)}: copied from {glossary}")
        return 0
    pot = template()
    data = _po_bytes(pot, sort_output=False)
    if args.check:
        current = Catalog()
        if TEMPLATE.exists():
            with TEMPLATE.open("rb") as f:
                current = read_po(f)
        if _messages(current) != _messages(pot):
            print(
                "i18n/locale/messages.pot is out of date: run python -m i18n.extract",
                file=sys.stderr,
            )
            return 1
        return 0
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(data)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(pot)} messages")
    for code in LANGUAGES:
        if code == "en":
            continue
        path = _catalog_path(code)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=code, domain=DOMAIN)
        else:
            catalog = Catalog(locale=code, domain=DOMAIN, fuzzy=False)
            path.parent.mkdir(parents=True, exist_ok=True)
        catalog.update(pot, no_fuzzy_matching=False, update_header_comment=False)
        catalog.obsolete.clear()
        path.write_bytes(_po_bytes(catalog, ignore_obsolete=True, include_previous=True))
        done = sum(1 for m in catalog if m.id and m.string and not m.fuzzy)
        print(f"{path.relative_to(ROOT)}: {done} of {len(catalog)} translated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
