"""The host's own HTTPS certificate: self-signed, made on the first run with
``cryptography`` and kept in the user's config folder (``phones/``), so a phone that
accepted it once is not asked again. A new one is made when this machine's address
is not among the names it was made for."""

from __future__ import annotations

import datetime
import ipaddress
import socket
from pathlib import Path

CERT, KEY = "host-cert.pem", "host-key.pem"


def folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("voice-host")) / "phones"


def names_for(address: str) -> list[str]:
    """The names and addresses the certificate covers: localhost, this machine's name,
    127.0.0.1 and the address the phones use."""
    names = ["localhost", socket.gethostname(), "127.0.0.1"]
    if address and address not in names:
        names.append(address)
    return names


def _covers(path: Path, names: list[str]) -> bool:
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    have = {str(n) for n in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))
    still = cert.not_valid_after_utc > datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=7)
    return still and all(n in have for n in names)


def certificate(address: str = "", where: Path | None = None) -> tuple[Path, Path]:
    """(certificate, key) files for HTTPS on ``address``, made when missing or stale."""
    where = where or folder()
    cert_path, key_path = where / CERT, where / KEY
    names = names_for(address)
    if cert_path.is_file() and key_path.is_file() and _covers(cert_path, names):
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "voice-host on " + socket.gethostname()[:40])])
    alt: list[x509.GeneralName] = []
    for n in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            alt.append(x509.DNSName(n))
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=825))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    from voice_host.web.server import private_folder

    private_folder(where)  # the key's folder (and the settings' folder made above it) the user's alone
    where.chmod(0o700)  # whatever the umask, and however it was made before
    key_path.touch(mode=0o600, exist_ok=True)
    key_path.chmod(0o600)
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def fingerprint(cert_path: Path) -> str:
    """The certificate's SHA-256 fingerprint, as a browser shows it (AB:CD:...)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    digest = x509.load_pem_x509_certificate(cert_path.read_bytes()).fingerprint(hashes.SHA256())
    return ":".join(f"{b:02X}" for b in digest)


__all__ = ["certificate", "fingerprint", "folder"]
