"""Text compared as one: the one normaliser every floor compares names, ids and spellings through.

A submitter's spelling differs from another's in ways that mean nothing: Unicode forms (a composed "é"
or an "e" and a combining accent), the dash (a hyphen, a non-breaking hyphen, an en dash, a minus sign),
the space (a no-break or thin space) and, for ids and spellings, case ("NVIDIA B300-SXM-270GB" and
"Nvidia B300-SXM-270GB" are one chip's name, issue 62). :func:`normalise` takes away the first three,
:func:`fold` all four.
"""

from __future__ import annotations

import re
import unicodedata

#: the dashes read as "-": hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar (U+2010–U+2015), minus sign
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
#: the spaces read as " ": no-break, figure, thin and narrow no-break space
SPACES = "\u00a0\u2007\u2009\u202f"
_DASH = re.compile(f"[{DASHES}]")
_SPACE = re.compile(f"[{SPACES}]")


def normalise(text: str) -> str:
    """``text`` in Unicode NFC, every dash variant a hyphen-minus and every space variant a space; case kept.

    >>> normalise("B300\u2011SXM\u00a0270GB"), normalise("Cafe\u0301") == "Caf\u00e9"
    ('B300-SXM 270GB', True)
    """
    return _SPACE.sub(" ", _DASH.sub("-", unicodedata.normalize("NFC", text)))


def fold(text: str) -> str:
    """``text`` normalised (:func:`normalise`) and case folded: how ids and spellings compare.

    >>> fold("NVIDIA B300-SXM-270GB") == fold("Nvidia B300\u2013SXM-270GB")
    True
    """
    return normalise(text).casefold()
