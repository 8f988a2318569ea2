"""Screenshots of the live page, one per game kind, for docs/DISPLAY.md:

    .venv/bin/python tools/display_shots.py docs/display

Each game is played from a short script (the seeds and boards fixed, so the pictures
come out the same), its page served as in play, and Debian's chromium takes the picture
(``chromium --headless --screenshot``). The timer shows its seconds as at the moment of
the picture.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = (  # file, game, players, setup, script, theme
    ("prolix-classic", "prolix-classic", "Ann,Ben,Cat", ("@start Ann", "@board W B J S L C D G"),
     "Ann: jewelers\n@draw M N\nBen: jigsaw\n@draw R T\nAnn: flip", "dark"),
    ("phlounder", "phlounder", "Ann,Ben,Cat,Dan", (), "@dice 5N\nBen: bell\nBen: table\nCat: no word\n"
     "Ann: table, unused 1\nDan: chair\n@dice 6V\nAnn: bell\nAnn: winter", "light"),
    ("dexikon", "dexikon", "Ann,Ben", ("@start Ann",), "Ann: bank catch for 5\nBen: bank fire for 4\n"
     "Ann: bank jewel for 7", "dark"),
    ("road", "road", "Ann,Ben,Cat", ("@start Ann",), "Ann: play jump for 15 with 4 tiles\n"
     "Ben: play fire for 7, fir for 6 with 3 tiles\nCat: mulligan", "light"),
    ("final-scores", "road", "Ann,Ben", ("@start Ann",), "Ann: play jump for 15 with 4 tiles\n"
     "Ben: play zebra for 16 with 5 tiles\nAnn: play quiz for 22 with 4 tiles\nBen: bag empty\nBen: pass\nAnn: pass", "dark"),
)


def take(folder: Path, size: str = "1280,720") -> list[Path]:
    from voice_host import config
    from voice_host.app import load_words
    from voice_host.display import Display
    from voice_host.host.script import parse_script
    from voice_host.host.session import Session, new_header

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("shots: the screenshots need chromium (apt-get install chromium).")
    folder.mkdir(parents=True, exist_ok=True)
    cfg = config.load(overrides={"road": {"set_size": 100}})
    words = load_words(cfg)
    made = []
    for name, game, players, setup, script, theme in GAMES:
        display = Display.open("127.0.0.1", 0)
        try:
            session = Session(new_header(game, players.split(","), 7, cfg), words, display.said)
            display.follow(session)
            lines = "\n".join([*setup, *script.split("\n")])
            records = parse_script(lines)
            for record in records:  # the last line's answer stays on the page: no settling after it
                session.play(record)
            out = folder / f"{name}.png"
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                f"--user-data-dir={profile}", f"--window-size={size}", f"--screenshot={out}",
                                f"{display.url}?theme={theme}"], check=True, capture_output=True, timeout=120)
            made.append(out)
        finally:
            display.close()
    return made


if __name__ == "__main__":
    for path in take(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/display")):
        print(path)
