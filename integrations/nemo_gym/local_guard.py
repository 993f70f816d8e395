"""Who may use the forwarder: requests for its own address only (Host), none from a web page (Origin) unless allowed, and
its local secret when one is set. A page the operator visits must not reach the gateway with the forwarder's token, nor
read an answer through DNS rebinding (the rebound request names the attacker's host).

NeMo Gym's collector (nemo_gym/server_utils.py, aiohttp and requests) sends only Content-Type: its Host is the address it
was configured with or discovered, it sends no Origin, and it cannot send a secret, so the secret is optional.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from typing import Any, Dict, Iterable, Optional, Set, Tuple

# A bind address that is every interface: no Host names it.
WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class LocalGuard:
    def __init__(self, allow_origins: Iterable[str], secret: Optional[str], advertise: Optional[str]):
        self.origins = {origin.strip().rstrip("/").lower() for origin in allow_origins if origin.strip()}
        self.secret = secret
        self.advertise = advertise
        # Filled by listen() once the port is known: the Host values this server answers to.
        self.hosts: Set[str] = set()

    def listen(self, bound: str, port: int) -> None:
        """Its own addresses as a Host header names them: the loopback names, the bound address, --advertise."""
        names = set(LOOPBACK_NAMES)
        if bound not in WILDCARDS:
            names.add(f"[{bound}]" if ":" in bound else bound)
        self.hosts = {f"{name}:{port}".lower() for name in names}
        if port == 80:  # a client may leave the default port out
            self.hosts |= {name.lower() for name in names}
        if self.advertise:
            self.hosts.add(self.advertise.strip().lower())

    def refusal(self, headers: Any) -> Optional[Tuple[int, str, Dict[str, str]]]:
        """Why a request is not served here (status, message, extra headers), or None when it is."""
        host = (headers.get("host") or "").strip().lower()
        if host not in self.hosts:
            return 421, (f"edgegym forwarder: Host {host or '(none)'!r} is not this server's address "
                         f"({', '.join(sorted(self.hosts))}); refused, as a DNS-rebound web page's request would be. "
                         "Use one of these, or pass --advertise host:port for the name your clients use"), {}
        origin = headers.get("origin")
        if origin is not None and origin.strip().rstrip("/").lower() not in self.origins:
            return 403, (f"edgegym forwarder: requests from a web page (Origin {origin!r}) are refused; "
                         "allow one with --allow-origin <origin> (or EDGEGYM_FORWARDER_ALLOW_ORIGINS)"), {}
        if self.secret is not None and not self.carries_secret(headers.get("authorization") or ""):
            return 401, ("edgegym forwarder: this server needs its local secret (--secret / EDGEGYM_FORWARDER_SECRET): "
                         "send Authorization: Bearer <secret>"), {"www-authenticate": 'Bearer realm="edgegym-forwarder"'}
        return None

    def carries_secret(self, authorization: str) -> bool:
        """Bearer <secret>, or Basic with the secret as the password (a URL's http://user:<secret>@host credentials)."""
        scheme, _, value = authorization.strip().partition(" ")
        given = value.strip()
        if scheme.lower() == "basic":
            try:
                given = base64.b64decode(given, validate=True).decode("utf-8").partition(":")[2]
            except (binascii.Error, UnicodeDecodeError):
                return False
        elif scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.encode(), (self.secret or "").encode())
