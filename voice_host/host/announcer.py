"""The host's sentences now live in voice_host.host.announce; this name stays for the
modules that import it from here."""

from voice_host.host.announce import Announcer, spelling_hint

__all__ = ["Announcer", "spelling_hint"]
