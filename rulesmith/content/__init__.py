"""The content of a game, read and understood: strict YAML with positions (load), the typed model
(model), the registry of item types (items), a game folder validated into one Game (game), every
reference resolved with the index and backlinks (link), what a gap affects (affects), the bot's
turn as data (turn), and YAML edited in place for the commands that write content (yamledit)."""
