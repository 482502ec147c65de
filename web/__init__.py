"""The board page: Ada's Dream as a web page served by the bot's own process (issue 32).

One page for one game and one viewer, inside Discord as an Activity or in a plain browser on the
offline table. Layers: ``web`` sits above ``cogs`` (it makes moves through ``cogs.service``, the
one path every move takes) and below ``bot.py``/``offline``, which start it.

- ``web.sessions``: who is asking. A signed, expiring session token names a Discord user, a game
  and a seat (or none: a spectator). It is issued only by the server, after it has itself found
  the user and the game (Discord's OAuth2 exchange, or the offline table's local login), never from
  what a browser claims.
- ``web.app``: the aiohttp application (routes, limits, headers) and its start/stop.
- ``web.board``: the board page's routes (the viewer's view, moves, live updates, replay).
- ``web.discord_auth``: the Activity's side (OAuth2 code exchange, Discord's proxy signatures,
  the Activity instance check).
- ``webapp/``: the page itself (HTML, CSS, JavaScript; the Discord SDK from npm).
"""
