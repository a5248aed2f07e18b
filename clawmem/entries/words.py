"""Function words: what carries no content when two texts are compared word by word.

Low in the layers so the trust rules (``clawmem.trust.content_origin``) and dreaming share one
list without a rule importing the dreaming package.
"""

from __future__ import annotations

STOPWORDS = frozenset(
    """
    a about after again against all also always am an and any are as at be because been before being below between both
    but by can could did do does doing done down during each either else ever every few for from further get gets got
    had has have having he her here hers him his how i if in into is it its just let me more most must my need needs
    never new no nor not now of off often on once only or other our ours out over own please same she should so some
    still such than that the their them then there these they this those through to too try under until up use used
    using very via was we were what when where which while who whom why will with would yes yet you your yours run runs
    running sure instead first next time times today yesterday tomorrow one two thing things way lot really
    """.split()  # noqa: SIM905
)
