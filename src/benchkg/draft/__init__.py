"""``benchkg draft SOURCE``: draft claims from a saved blog post, press release or record page.

It reads the text (``.html``, ``.md`` or ``.txt``) sentence by sentence and writes down what the text
says, never more: every number with a throughput, latency or count unit (each with its sentence as
the quote), and one claim per throughput number with its own context (:func:`groups`): a number
restated elsewhere (a rounded "104K" in the headline) is the same claim with the precise figure, and
another number of the same clause is reported beside it. A claim's count, node count, scenario, model
and chips are read nearest first — its clause, its sentence, its paragraph (and, for the only claim of
a text, the title) — and a count is never taken from another paragraph; the suite, division and format
come from the whole text; ``omitted_by_source`` lists what it does not state. What it cannot decide
(who measured the number, which of two chips ran it) is left out of the record and said in a comment:
a draft validates only once a person has filled the gaps. Prices, years, percentages and model sizes
are numbers too, and are left alone.

Long because reading prose is a chain of small readers (numbers, units, chips, models, scenarios,
counts, organisations) whose order decides what a sentence says; they are kept together so that
order is read in one place.

The package, by what it reads: :mod:`~benchkg.draft.page` (a saved page's text, title, sentences and
paragraphs; :mod:`~benchkg.draft.tables` its tables as sentences), :mod:`~benchkg.draft.figures` (numbers
with a unit, in words or digits, and the clauses around them), :mod:`~benchkg.draft.groups` (which numbers
are one claim), :mod:`~benchkg.draft.hardware` (chips, counts, submitter), :mod:`~benchkg.draft.context`
(round, division, scenario, model, superlative — :mod:`~benchkg.draft.populations` its population — and
who measured it), and :mod:`~benchkg.draft.drafting`, which reads a page with them in order.
"""

from benchkg.draft.drafting import draft
from benchkg.draft.groups import Draft

__all__ = ["Draft", "draft"]
