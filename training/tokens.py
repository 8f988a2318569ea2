"""Text -> Moonshine token ids, for training targets.

moonshine-cpp ships only the vocabulary (tokenizer.bin, read by model.read_tokenizer),
not the merges. Moonshine's tokenizer is a SentencePiece BPE (Llama's) whose pieces
are numbered in merge order, so BPE is replayed from the vocabulary alone: start from
the characters of "▁" + text (spaces as "▁"), and merge, again and again, the
neighbouring pair whose joined piece has the lowest id. tests/training/test_adapt.py
checks it against the model's own decoding.
"""

from __future__ import annotations

from pathlib import Path

from voice_host.speech.recognizing.moonshine.model import BOS, EOS, read_tokenizer


class Tokenizer:
    def __init__(self, model_dir: Path | None = None):
        from voice_host.speech.recognizing.moonshine.files import find_model_dir

        d = Path(model_dir) if model_dir else find_model_dir()
        self.tokens = read_tokenizer(d / "tokenizer.bin")
        self.ids: dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            if i < 3:
                continue
            try:
                s = t.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if not 3 <= i < 259:  # 3..258 are the byte tokens <0x00>..<0xFF>, stored as raw bytes
                self.ids.setdefault(s, i)
        self.byte_ids = {b: 3 + b for b in range(256)}

    def encode(self, text: str, bos: bool = True, eos: bool = True) -> list[int]:
        pieces = list("\u2581" + " ".join(text.split()).replace(" ", "\u2581"))
        while len(pieces) > 1:
            best, at = None, -1
            for k in range(len(pieces) - 1):
                i = self.ids.get(pieces[k] + pieces[k + 1])
                if i is not None and (best is None or i < best):
                    best, at = i, k
            if best is None:
                break
            pieces[at:at + 2] = [pieces[at] + pieces[at + 1]]
        out = [BOS] if bos else []
        for p in pieces:
            i = self.ids.get(p)
            if i is not None:
                out.append(i)
            else:  # byte fallback
                out.extend(self.byte_ids[b] for b in p.encode("utf-8") if b in self.byte_ids)
        return out + ([EOS] if eos else [])

    def decode(self, ids) -> str:
        return b"".join(self.tokens[i] for i in ids if i >= 3).decode("utf-8", "replace").replace("\u2581", " ").strip()
