"""Reading a file the user named (a script, a game log): each problem one sentence."""

from __future__ import annotations

from pathlib import Path


def read_user_text(path: str | Path, *, missing: str, folder: str, not_text: str, denied: str | None = None,
                   error: type[ValueError] = ValueError) -> str:
    """The file's text (UTF-8, no NUL), or ``error`` with the sentence for what is wrong:
    ``missing``, ``folder``, ``not_text``, ``denied`` (else "I can't read ..."), each with
    ``{p}`` standing for the path."""
    data = read_user_bytes(path, missing=missing, folder=folder, denied=denied, error=error)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise error(not_text.format(p=Path(path)))
    return text


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
