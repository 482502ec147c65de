"""Lookups over the content (cards by id, the travel map's distances), computed once at import."""

from __future__ import annotations

import heapq
from collections import deque
from typing import Any

from engine import content as C

PARTNER: dict[str, dict[str, Any]] = {p["id"]: p for p in C.PARTNERS}
ASSIGNMENT: dict[str, dict[str, Any]] = {a["id"]: a for a in C.ASSIGNMENTS}
PROGRAM: dict[str, dict[str, Any]] = {p["id"]: p for p in C.PROGRAMS}
OBJECTIVE: dict[str, dict[str, Any]] = {o["id"]: o for o in C.OBJECTIVES}
MULTIPLIER: dict[str, dict[str, Any]] = {m["id"]: m for m in C.MULTIPLIERS}
BREAKTHROUGH: dict[str, dict[str, Any]] = {b["id"]: b for b in C.BREAKTHROUGHS}
UNIVERSITY_TILE: dict[str, dict[str, Any]] = {u["id"]: u for u in C.UNIVERSITY_TILES}
CITY: dict[str, dict[str, Any]] = {c["id"]: c for c in C.CITIES}
SMALL_CITIES = [c["id"] for c in C.CITIES if c["kind"] == "small"]
UNIVERSITY_CITIES = [c["id"] for c in C.CITIES if c["kind"] == "university"]


def gear_cost(gear: str) -> dict[str, int]:
    if gear in C.GEAR_COSTS:
        return C.GEAR_COSTS[gear]
    return MULTIPLIER[gear]["cost"]


def gear_name(gear: str) -> str:
    return {"add": "Addition Gear", "sub": "Subtraction Gear"}.get(gear, f"Multiplier ({gear})")


def _neighbours() -> dict[str, list[tuple[str, int]]]:
    adj: dict[str, list[tuple[str, int]]] = {c: [] for c in CITY}
    for a, b, kind in C.ROUTES:
        cost = C.ROUTE_COST[kind]
        adj[a].append((b, cost))
        adj[b].append((a, cost))
    for links in adj.values():
        links.sort()
    return adj


NEIGHBOURS = _neighbours()


def _cheapest_from(start: str) -> dict[str, int]:
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        cost, city = heapq.heappop(queue)
        if cost > best[city]:
            continue
        for other, step in NEIGHBOURS[city]:
            if cost + step < best.get(other, 1 << 30):
                best[other] = cost + step
                heapq.heappush(queue, (cost + step, other))
    return best


# TRAVEL_COST[a][b]: the cheapest £ cost of a journey from a to b (you pay for every route used).
TRAVEL_COST = {c: _cheapest_from(c) for c in CITY}


def _steps_from(start: str) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        city = queue.popleft()
        for other, _ in NEIGHBOURS[city]:
            if other not in seen:
                seen[other] = seen[city] + 1
                queue.append(other)
    return seen


# ROUTE_STEPS[a][b]: the fewest routes between a and b ("nearest University").
ROUTE_STEPS = {c: _steps_from(c) for c in CITY}


def _next_small(start: str) -> set[str]:
    """Small Cities one Small City away: Universities on the way are skipped over."""
    found: set[str] = set()
    seen = {start}
    queue = deque([start])
    while queue:
        city = queue.popleft()
        for other, _ in NEIGHBOURS[city]:
            if other in seen:
                continue
            seen.add(other)
            if CITY[other]["kind"] == "small":
                found.add(other)
            else:
                queue.append(other)
    found.discard(start)
    return found


_ONE_SMALL = {c: _next_small(c) for c in CITY}


def small_cities_within(start: str, n: int) -> list[str]:
    """Small Cities up to n Small Cities away from start (not counting Universities)."""
    reach: set[str] = set()
    frontier = {start}
    for _ in range(n):
        frontier = set().union(*(_ONE_SMALL[c] for c in frontier)) - reach
        reach |= frontier
    reach.discard(start)
    return sorted(reach)
