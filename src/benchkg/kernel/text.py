"""Text as benchkg compares it: one normaliser applied before any rule reads a text or compares a name.

Vendors write "DeepSeek‑R1" with a non-breaking hyphen (U+2011), "Llama–2" with an en dash, "910 621"
with a thin space and "8 GPUs" with a no-break space; a rule written for "-" and " " would miss every
one. :func:`normalise` gives each its plain form (Unicode NFC first), so a reader, a name index or a
comparison sees one spelling; :func:`fold` also folds case, for ids and spellings ("Nvidia" is "NVIDIA").
"""

from __future__ import annotations

import re
import unicodedata

#: every dash and hyphen a text writes for "-": hyphen, non-breaking hyphen, figure dash, en dash, em dash,
#: horizontal bar, minus sign, small and full-width hyphen-minus
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
#: every space that is not " ": no-break, thin, narrow no-break, figure, punctuation, hair, en and em spaces
_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
#: characters with no width that split a word ("Deep\u200bSeek"): removed
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")


def normalise(text: str) -> str:
    """``text`` in Unicode NFC with every dash a hyphen-minus, every space a space and no invisible
    characters; its length can change only where an invisible character is removed.

    >>> normalise("DeepSeek\u2011R1 at 910\u2009621 tokens/s on 8\u00a0GPUs \u2013 Llama\u20112\u201170B")
    'DeepSeek-R1 at 910 621 tokens/s on 8 GPUs - Llama-2-70B'
    """
    return _INVISIBLE.sub("", _SPACES.sub(" ", _DASHES.sub("-", unicodedata.normalize("NFC", text))))


def fold(text: str) -> str:
    """:func:`normalise`, then case folded: how ids and spellings compare ("Nvidia B300" is "NVIDIA B300").

    >>> fold("Nvidia B300\u2011SXM") == fold("NVIDIA B300-SXM")
    True
    """
    return normalise(text).casefold()
