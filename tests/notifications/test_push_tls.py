"""The push's TLS goes to the address that was checked, yet names the push service: its name is
the handshake's server name (SNI) and the name the certificate must carry. Against a TLS push
service on loopback with a certificate for `push.test` (so this fails if requests or urllib3
stop passing these on)."""

from __future__ import annotations

import datetime
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from notifications.webpush import PinnedTLSAdapter

NAME = "push.test"


@dataclass
class TLSService:
    port: int
    certificate: Path
    server_names: list[str | None] = field(default_factory=list)
    hosts: list[str | None] = field(default_factory=list)


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, NAME)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(NAME)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def tls_service(tmp_path: Path) -> Iterator[TLSService]:
    cert_path, key_path = self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    service = TLSService(port=0, certificate=cert_path)

    def on_server_name(sock: ssl.SSLObject, name: str | None, ctx: ssl.SSLContext) -> None:
        service.server_names.append(name)

    context.sni_callback = on_server_name  # type: ignore[assignment]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.hosts.append(self.headers.get("Host"))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    service.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def post(service: TLSService, name: str) -> requests.Response:
    with requests.Session() as session:
        session.trust_env = False
        session.mount("https://", PinnedTLSAdapter(name))
        return session.post(
            f"https://127.0.0.1:{service.port}/push/abc",
            data=b"x",
            headers={"Host": NAME},
            verify=str(service.certificate),
            timeout=5,
        )


def test_the_connection_to_the_checked_address_names_the_push_service(
    tls_service: TLSService,
) -> None:
    assert post(tls_service, NAME).status_code == 201
    assert tls_service.server_names == [NAME]
    assert tls_service.hosts == [NAME]


def test_a_certificate_for_another_name_is_refused(tls_service: TLSService) -> None:
    with pytest.raises(requests.exceptions.SSLError):
        post(tls_service, "other.test")
    assert tls_service.hosts == []
