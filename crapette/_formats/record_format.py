"""The format of game records: the constants that the record and its two writers share.

:mod:`crapette._formats.record` imports this and the writers (:mod:`crapette._formats.record_json`,
:mod:`crapette._formats.record_text`); the writers import this, never the record, so
the imports run one way.
"""

from __future__ import annotations

#: The version of the JSON layout that :meth:`GameRecord.to_json` writes.
RECORD_FORMAT_VERSION = 1
#: The longest JSON or text record accepted, in characters.
MAX_RECORD_LENGTH = 4_000_000
#: The most moves a record may hold.
MAX_RECORD_MOVES = 200_000
#: The results a record may carry: player 0 won, player 1 won, a draw, unknown or unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: The most free tags a record may carry.
MAX_TAGS = 64
#: The longest metadata value (a player's name, the date, a tag's value).
MAX_VALUE_LENGTH = 1024
#: The fields of the text form's headers; tags may not take these names.
RESERVED = ("Rules", "Seed", "Position", "Player0", "Player1", "Date", "Result")
RESERVED_LOWER = {k.lower() for k in RESERVED}
