"""Command line of the rules engine.

    python -m engine selfplay --players N --seed S --games G [--json]
        [--policy random|greedy|search] [--seat-policies greedy,random,...] [--rotate]
        [--budget SECONDS] [--iterations N] [--candidates N] [--edition NAME]
    python -m engine check-edition FILE [FILE ...]   # check edition files against the rules
    python -m engine editions                        # the editions this engine has
    python -m engine replay FILE [--json]            # replay a game record to its final scores

Game i (0-based) uses seed S+i, and each seat's policy draws its randomness from that seed too, so
the same arguments print the same output, except the lines starting with "timing:" (text) or the
"timing" object (JSON). A search policy with a time budget (`--budget`) may choose differently on
a faster or busier machine; give it `--iterations` for reproducible games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from engine import GameSetup
from engine.ai import POLICIES, Policy, get_policy, selfplay_game
from engine.edition import Edition, EditionError, UnknownEdition, library
from engine.facts import FACTS
from engine.scoring import CATEGORIES

TIMING_PREFIX = "timing:"


def _policy_names(args: argparse.Namespace) -> list[str]:
    if args.seat_policies:
        names = [n.strip() for n in args.seat_policies.split(",")]
        if len(names) != args.players:
            raise SystemExit(
                f"--seat-policies names {len(names)} policies for {args.players} players"
            )
    else:
        names = [args.policy] * args.players
    for name in names:
        if name not in POLICIES:
            raise SystemExit(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return names


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


def _make(name: str, args: argparse.Namespace) -> Policy:
    if name == "search":
        kw = {"budget_seconds": args.budget, "iterations": args.iterations}
        if args.candidates is not None:
            kw["candidates"] = args.candidates
        return get_policy(name, **kw)
    return get_policy(name)


def _summary(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Win rates and score distributions, per policy and per seat (turn order)."""
    by_policy: dict[str, dict[str, Any]] = {}
    by_seat: list[dict[str, Any]] = [
        {"seat": s + 1, "wins": 0, "totals": []} for s in range(players)
    ]
    for game in games:
        for seat, (policy, row) in enumerate(zip(game["policies"], game["scores"], strict=True)):
            entry = by_policy.setdefault(
                policy, {"seats": 0, "wins": 0, "totals": [], "categories": {}}
            )
            entry["seats"] += 1
            entry["wins"] += game["winner"] == seat
            entry["totals"].append(row["Total"])
            for cat in CATEGORIES:
                entry["categories"].setdefault(cat, []).append(row[cat])
            by_seat[seat]["wins"] += game["winner"] == seat
            by_seat[seat]["totals"].append(row["Total"])

    def dist(values: list[int]) -> dict[str, float]:
        return {
            "mean": round(statistics.fmean(values), 2),
            "sd": round(statistics.pstdev(values), 2),
            "min": min(values),
            "median": statistics.median(values),
            "max": max(values),
        }

    policies = {}
    for name, entry in sorted(by_policy.items()):
        policies[name] = {
            "seats": entry["seats"],
            "wins": entry["wins"],
            "win_rate": round(entry["wins"] / entry["seats"], 4),
            "total": dist(entry["totals"]),
            "categories": {
                cat: round(statistics.fmean(v), 2) for cat, v in entry["categories"].items()
            },
        }
    seats = [
        {
            "seat": s["seat"],
            "wins": s["wins"],
            "win_rate": round(s["wins"] / len(games), 4),
            "total": dist(s["totals"]),
        }
        for s in by_seat
    ]
    return {
        "games": len(games),
        "policies": policies,
        "seats": seats,
        "mean_decisions": round(statistics.fmean(g["decisions"] for g in games), 1),
        "mean_turns_per_player": round(
            statistics.fmean(statistics.fmean(g["turns"]) for g in games), 2
        ),
    }


def selfplay(args: argparse.Namespace, out: Any) -> int:
    names = _policy_names(args)
    edition_name = args.edition or library().default
    try:
        library().get(edition_name)
    except (EditionError, UnknownEdition) as exc:
        raise SystemExit(str(exc)) from None
    games: list[dict[str, Any]] = []
    spent: dict[str, list[float]] = {}
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        shift = i % args.players if args.rotate else 0
        seat_names = names[-shift:] + names[:-shift] if shift else list(names)
        setup = GameSetup(players=args.players, seed=seed, edition=edition_name)
        record = selfplay_game(setup, [_make(n, args) for n in seat_names])
        st = record.state
        game = {
            "game": i + 1,
            "seed": seed,
            "policies": seat_names,
            "names": st.seat_names,
            "scores": st.final_scores(),
            "winner": st.winner(),
            "decisions": record.total_decisions,
            "rounds": st.round,
            "turns": [p.turns for p in st.players],
            "digest": st.digest(),
        }
        games.append(game)
        for seat, policy in enumerate(seat_names):
            acc = spent.setdefault(policy, [0, 0.0])
            acc[0] += record.decisions[seat]
            acc[1] += record.seconds[seat]
        if not args.json:
            _print_game(game, out)
    elapsed = time.perf_counter() - start
    timing: dict[str, Any] = {
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 3) if elapsed else None,
        "decisions_per_second": {
            policy: round(n / s, 1) if s else None for policy, (n, s) in sorted(spent.items())
        },
    }
    summary = _summary(games, args.players) if games else {}
    if args.json:
        doc = {
            "players": args.players,
            "seed": args.seed,
            "games": games,
            "summary": summary,
            "timing": timing,
        }
        out.write(json.dumps(doc, indent=1) + "\n")
    else:
        _print_summary(summary, out)
        dps = ", ".join(f"{p} {v}" for p, v in timing["decisions_per_second"].items())
        out.write(
            f"{TIMING_PREFIX} {timing['seconds']} s, {timing['games_per_second']} games/s; "
            f"decisions/s per policy: {dps}\n"
        )
    return 0


def _print_game(game: dict[str, Any], out: Any) -> None:
    w = game["winner"]
    out.write(
        f"game {game['game']} seed {game['seed']}: {game['decisions']} decisions, "
        f"{game['rounds']} rounds, winner seat {w + 1} ({game['names'][w]}, {game['policies'][w]})\n"
    )
    header = ["seat", "policy", "name", *CATEGORIES, "Total"]
    rows = [header]
    for seat, row in enumerate(game["scores"]):
        rows.append(
            [str(seat + 1), game["policies"][seat], game["names"][seat]]
            + [str(row[c]) for c in [*CATEGORIES, "Total"]]
        )
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    for r in rows:
        cells = [c.ljust(widths[k]) if k < 3 else c.rjust(widths[k]) for k, c in enumerate(r)]
        out.write("  " + "  ".join(cells).rstrip() + "\n")
    out.write(f"  digest {game['digest']}\n")


def _print_summary(summary: dict[str, Any], out: Any) -> None:
    if not summary:
        out.write("no games played\n")
        return
    out.write(
        f"summary: {summary['games']} games, {summary['mean_decisions']} decisions and "
        f"{summary['mean_turns_per_player']} turns per player on average\n"
    )
    for name, p in summary["policies"].items():
        t = p["total"]
        out.write(
            f"  policy {name}: {p['wins']}/{p['seats']} wins ({100 * p['win_rate']:.1f}%), "
            f"Total mean {t['mean']} sd {t['sd']} min {t['min']} median {t['median']} "
            f"max {t['max']}\n"
        )
        cats = ", ".join(f"{c} {v}" for c, v in p["categories"].items())
        out.write(f"    category means: {cats}\n")
    for s in summary["seats"]:
        t = s["total"]
        out.write(
            f"  seat {s['seat']}: {s['wins']} wins ({100 * s['win_rate']:.1f}%), "
            f"Total mean {t['mean']} sd {t['sd']}\n"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="Ada's Dream engine tools"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play complete games between AI policies")
    sp.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    sp.add_argument("--seed", type=int, default=0, help="game i uses seed S+i")
    sp.add_argument("--games", type=int, default=1)
    sp.add_argument("--json", action="store_true", help="one JSON document instead of text")
    sp.add_argument(
        "--policy", default="random", choices=sorted(POLICIES), help="the policy of every seat"
    )
    sp.add_argument(
        "--seat-policies",
        default=None,
        help="comma-separated policy per seat in turn order, e.g. greedy,random",
    )
    sp.add_argument(
        "--rotate",
        action="store_true",
        help="rotate the seat policies by one seat each game (fair comparisons)",
    )
    sp.add_argument("--budget", type=float, default=1.0, help="search policy: seconds per decision")
    sp.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="search policy: simulations per decision instead of a time budget (reproducible)",
    )
    sp.add_argument(
        "--candidates",
        type=_positive_int,
        default=None,
        help="search policy: how many of the greedy's best choices it compares (default 6)",
    )
    sp.add_argument(
        "--edition", default=None, help="the content edition to play (default: the default one)"
    )
    ce = sub.add_parser(
        "check-edition",
        help="check edition files: shape, consistency and every fact the rules state",
    )
    ce.add_argument("files", nargs="+", metavar="FILE")
    sub.add_parser("editions", help="list the editions of this engine")
    rp = sub.add_parser(
        "replay", help="replay a game record (the bot's export) to its final scores"
    )
    rp.add_argument("file", metavar="FILE", help="a game record (JSON), or - for stdin")
    rp.add_argument("--json", action="store_true", help="print the final scores as JSON")
    return parser


def replay_file(path: str, as_json: bool, out: Any) -> int:
    """Replay a record file: 0 and the final scores (or where it stopped), 1 with one line
    saying what is wrong."""
    from engine.record import RecordError, replay_record, summary

    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        state = replay_record(json.loads(text))
    except OSError as exc:
        out.write(f"error: cannot read {path}: {exc.strerror or exc}\n")
        return 1
    except json.JSONDecodeError as exc:
        out.write(f"error: {path} is not JSON ({exc.msg}, line {exc.lineno})\n")
        return 1
    except RecordError as exc:
        out.write(f"error: {path}: {exc}\n")
        return 1
    if as_json:
        scores = state.final_scores() if state.is_over else None
        result = {"choices": len(state.history), "over": state.is_over, "final_scores": scores}
        if state.is_over:
            result["winner"] = state.winner()
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(summary(state)) + "\n")
    return 0


def check_editions(paths: list[str], out: Any) -> int:
    """Check each file; 0 if all are usable editions, 1 otherwise (every problem is printed)."""
    lib = library()
    bad = 0
    for path in paths:
        try:
            ed = Edition.load(path)
        except EditionError as exc:
            out.write(f"{exc}\n")
            bad += 1
            continue
        released = lib.released.get(ed.name)
        if released is not None and released != ed.fingerprint:
            out.write(
                f"{path}: edition {ed.name!r} is released with other values "
                f"(fingerprint {released[:16]}..., this file {ed.fingerprint[:16]}...): never "
                "change a released edition, copy it to a new name instead\n"
            )
            bad += 1
            continue
        items = [x for v in ed.data.values() if isinstance(v, list) for x in v]
        designed = sum(1 for x in items if x.get("provisional"))
        marked = sum(m.provisional for m in ed.marks.values())
        status = "released" if released else "not released yet"
        out.write(
            f"{path}: edition {ed.name!r} ({status}), fingerprint {ed.fingerprint[:16]}...: OK, "
            f"agrees with all {len(FACTS)} facts the rules state; {len(items)} items "
            f"({designed} designed, marked provisional) and {marked} designed single values\n"
        )
        if released is None:
            out.write(
                f'  to release it, add under [released] in index.toml: {ed.name} = "{ed.fingerprint}"\n'
            )
    return 1 if bad else 0


def list_editions(out: Any) -> int:
    lib = library()
    for name in lib.names():
        try:
            ed = lib.get(name)
        except (EditionError, UnknownEdition) as exc:
            out.write(f"{name}: UNUSABLE - {exc}\n")
            continue
        marks = ["default for new games"] if name == lib.default else []
        marks.append("released" if name in lib.released else "not released")
        out.write(f"{name}: {ed.title} [{', '.join(marks)}] {ed.fingerprint[:16]}...\n")
    return 0


def main(argv: list[str] | None = None, out: Any = None) -> int:
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    if args.command == "check-edition":
        return check_editions(args.files, out)
    if args.command == "editions":
        return list_editions(out)
    if args.command == "replay":
        return replay_file(args.file, args.json, out)
    if args.games < 0:
        raise SystemExit("--games must be 0 or more")
    if args.command == "selfplay":
        return selfplay(args, out)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
