"""voice-host: an offline, voice-driven host for word games played around a real table."""
