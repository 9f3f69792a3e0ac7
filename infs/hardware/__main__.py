"""``python -m infs.hardware``: refresh benchmarks/MODEL.md's generated block (``model_table``)."""

from pathlib import Path

from infs.hardware.model_table import MODEL_MD_BEGIN, MODEL_MD_END, model_markdown

path = Path(__file__).resolve().parents[2] / "benchmarks" / "MODEL.md"
text = path.read_text()
a, b = text.index(MODEL_MD_BEGIN) + len(MODEL_MD_BEGIN), text.index(MODEL_MD_END)
path.write_text(text[:a] + "\n" + model_markdown() + text[b:])
