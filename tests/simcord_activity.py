"""Test-side shims: what simcord 3.2.1 does not know yet about Discord's Activities (issue 32).

simcord fails loudly on what it does not model, which is right; these shims add, for a test
that asks for them, the two behaviours of Discord that the bot's Activity support meets, as
Discord documents them. They patch simcord's route table for the test only (pytest's
``monkeypatch`` undoes them), never the bot's code.

- ``launch_activity``: the interaction callback type 12, LAUNCH_ACTIVITY, is accepted for a
  component or command interaction (not an autocomplete or a modal submit), answers the
  interaction (a second answer is then "already acknowledged", 40060), and replies with the
  callback response Discord gives (``interaction.activity_instance_id`` and a resource of type
  12 with the instance's id). The launches are listed in ``Launches.seen``.
- ``entry_point_commands``: the application has an Entry Point command (type 4,
  PRIMARY_ENTRY_POINT, handler 2: Discord launches the Activity), as enabling Activities in the
  Developer Portal creates it. A bulk overwrite of the global commands that leaves it out is
  refused with 400, code 50240 ("You cannot remove this app's Entry Point command in a bulk
  update operation"); one that carries it keeps it (same id).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from simcord.backend.errors import BackendError
from simcord.http import router

LAUNCH_ACTIVITY = 12
PRIMARY_ENTRY_POINT = 4
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
GLOBAL_COMMANDS = "/applications/{application_id}/commands"


def _patch(monkeypatch: pytest.MonkeyPatch, method: str, template: str, make: Any) -> None:
    """Replace the handler of one route of simcord's table by ``make(original)``."""
    routes = router._ROUTES[method]
    segments = template.strip("/").split("/")
    index = next(i for i, (t, _) in enumerate(routes) if t == segments)
    patched = list(routes)
    patched[index] = (segments, make(routes[index][1]))
    monkeypatch.setitem(router._ROUTES, method, patched)


@dataclass
class Launches:
    seen: list[dict[str, Any]] = field(default_factory=list)
    """One entry per launch: the interaction's id, user, channel and the instance id."""


def launch_activity(monkeypatch: pytest.MonkeyPatch) -> Launches:
    launches = Launches()

    def make(original: Any) -> Any:
        def callback(ctx: router.RequestContext) -> Any:
            if ctx.body().get("type") != LAUNCH_ACTIVITY:
                return original(ctx)
            record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
            if record is None or record.token != ctx.args["token"]:
                raise BackendError(404, 10062, "Unknown interaction")
            if record.responded:
                raise BackendError(400, 40060, "Interaction has already been acknowledged.")
            if record.type not in (2, 3):  # APPLICATION_COMMAND, MESSAGE_COMPONENT
                raise BackendError(400, 50035, "Invalid Form Body: LAUNCH_ACTIVITY")
            record.defer_update()  # answered: nothing is posted or edited in the channel
            instance = f"i-{record.id}-gc-{record.guild_id}-{record.channel_id}"
            launches.seen.append(
                {
                    "interaction": record.id,
                    "user": record.user_id,
                    "channel": record.channel_id,
                    "instance": instance,
                }
            )
            return {
                "interaction": {
                    "id": str(record.id),
                    "type": record.type,
                    "activity_instance_id": instance,
                    "response_message_id": None,
                    "response_message_loading": False,
                    "response_message_ephemeral": False,
                },
                "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}},
            }

        return callback

    _patch(monkeypatch, "POST", CALLBACK, make)
    return launches


def entry_point_commands(monkeypatch: pytest.MonkeyPatch, backend: Any) -> dict[str, Any]:
    """Give the application its Entry Point command (as the Developer Portal does) and make
    bulk overwrites of the global commands behave as Discord's; returns the command."""
    launch = {
        "id": str(backend.snowflake()),
        "application_id": str(backend.application_id),
        "name": "launch",
        "description": "",
        "type": PRIMARY_ENTRY_POINT,
        "handler": 2,  # DISCORD_LAUNCH_ACTIVITY
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
        "options": [],
        "default_member_permissions": None,
        "dm_permission": True,
    }
    backend.commands.setdefault(None, {})[("launch", PRIMARY_ENTRY_POINT)] = launch

    def make(original: Any) -> Any:
        def bulk(ctx: router.RequestContext) -> Any:
            payload = list(ctx.json or [])
            kept = [c for c in payload if c.get("type") == PRIMARY_ENTRY_POINT]
            existing = [
                c
                for c in backend.commands.get(None, {}).values()
                if c.get("type") == PRIMARY_ENTRY_POINT
            ]
            if existing and not kept:
                raise BackendError(
                    400,
                    50240,
                    "You cannot remove this app's Entry Point command in a bulk update operation."
                    " Please include the Entry Point command in your update request or delete"
                    " it separately.",
                )
            ctx.json = [c for c in payload if c.get("type") != PRIMARY_ENTRY_POINT]
            others = original(ctx)
            for command in kept:  # the entry point stays, with its id
                stored = existing[0] | {k: command[k] for k in command if k != "id"}
                backend.commands[None][(stored["name"], PRIMARY_ENTRY_POINT)] = stored
            return others + [
                c for c in backend.commands[None].values() if c["type"] == PRIMARY_ENTRY_POINT
            ]

        return bulk

    _patch(monkeypatch, "PUT", GLOBAL_COMMANDS, make)
    return launch
