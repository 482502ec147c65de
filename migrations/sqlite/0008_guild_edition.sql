-- Issue 21: the content comes in editions (engine/editions). New games take the bot's default
-- edition unless their server keeps another until its games end: NULL follows the default.
-- A started game records its own edition in its setup and keeps it forever.

ALTER TABLE guild_settings ADD COLUMN edition TEXT;
