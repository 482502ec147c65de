"""The offline table: the real bot against a simulated Discord (simcord's preview), in a browser."""
