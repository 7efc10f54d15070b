"""Where phones reach this laptop: its address on the local network, and the URL to show for the
address the server listens on."""

import ipaddress
import socket

# Listening on one of these means every interface of that family; waitress makes "::" IPv6 only.
EVERY_INTERFACE = {"0.0.0.0": socket.AF_INET, "::": socket.AF_INET6}
# Only a route is picked towards these documentation addresses (RFC 5737, RFC 3849); no packet leaves.
_PROBE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
_LOOPBACK = {socket.AF_INET: "127.0.0.1", socket.AF_INET6: "::1"}


def lan_address(family: socket.AddressFamily = socket.AF_INET) -> str:
    """The first address of this machine that other devices on the network can reach (private for
    IPv4; neither loopback nor link-local), else the loopback address.

    Looked up from the host name and the interface the system would route through; nothing is
    sent on the network.
    """
    candidates: list[str] = []
    try:
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, family)]
    except OSError:
        pass
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((_PROBE[family], 9))  # a UDP "connect" only picks a route
            candidates.append(probe.getsockname()[0])
    except OSError:
        pass
    for address in candidates:
        ip = ipaddress.ip_address(address)
        reachable = not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified)
        if reachable and (ip.version == 6 or ip.is_private):
            return address
    return _LOOPBACK[family]


def server_url(host: str, port: int) -> str:
    """The URL that opens a server listening on `host`: this machine's LAN address when it listens
    on every interface, else the address (or name) it listens on, the only one that answers."""
    address = lan_address(EVERY_INTERFACE[host]) if host in EVERY_INTERFACE else host
    if ":" in address:  # an IPv6 literal goes in brackets
        address = f"[{address}]"
    return f"http://{address}:{port}/"


def local_only(host: str) -> bool:
    """Whether a server listening on `host` answers this machine only (a loopback address or name)."""
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return all(ipaddress.ip_address(address).is_loopback for address in addresses)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A client's address as an IP address (an IPv4 one written as IPv6, as itself); None for junk."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return getattr(ip, "ipv4_mapped", None) or ip


def loopback(address: str) -> bool:
    """Whether a client's `address` is this machine's loopback."""
    ip = _ip(address)
    return ip is not None and ip.is_loopback


def this_machine(address: str) -> bool:
    """Whether `address` is one of this machine's own (a loopback address, or its address on the
    network): a socket can be bound only to a machine's own addresses. Nothing is sent."""
    ip = _ip(address)
    if ip is None:
        return False
    if ip.is_loopback:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(ip), 0))
    except OSError:
        return False
    return True
