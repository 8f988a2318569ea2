"""Reading a file the user named (a script, a game log): each problem one sentence."""

from __future__ import annotations

from pathlib import Path


def read_user_text(path: str | Path, *, missing: str, folder: str, not_text: str, denied: str | None = None,
                   error: type[ValueError] = ValueError) -> str:
    """The file's text (UTF-8, no NUL), or ``error`` with the sentence for what is wrong:
    ``missing``, ``folder``, ``not_text``, ``denied`` (else "I can't read ..."), each with
    ``{p}`` standing for the path."""
    data = read_user_bytes(path, missing=missing, folder=folder, denied=denied, error=error)
    if binary(data):
        raise error(not_text.format(p=Path(path)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # text in another encoding ("café" saved as Latin-1): the line to fix
        number = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        line = data[start:end if end >= 0 else len(data)].decode("utf-8", errors="replace").strip()
        raise error(f"Line {number} of {Path(path)} is not UTF-8 text ('{line}'): save the file as UTF-8 "
                    "and try again.") from None


CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\f") + b"\x7f"


def binary(data: bytes) -> bool:
    """Whether ``data`` is no text in any encoding: a NUL, or control characters in more
    than 1 byte in 100 (a text file has tabs and line ends, little else)."""
    if b"\x00" in data:
        return True
    sample = data[:65536]
    return sum(sample.count(bytes([b])) for b in CONTROL) > len(sample) / 100


def read_user_bytes(path: str | Path, *, missing: str, folder: str, denied: str | None = None,
                    error: type[ValueError] = ValueError) -> bytes:
    """The file's bytes, or ``error`` with the sentence for why it cannot be read (as
    ``read_user_text``)."""
    p = Path(path)
    if p.is_dir():
        raise error(folder.format(p=p))
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise error(missing.format(p=p)) from None
    except PermissionError as exc:
        raise error(denied.format(p=p) if denied else f"I can't read {p}: {exc.strerror or exc}.") from None
    except OSError as exc:
        raise error(f"I can't read {p}: {exc.strerror or exc}.") from None
