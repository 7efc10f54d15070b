"""The laptop's address on the local network, so phones can reach it."""

import ipaddress
import socket


def lan_address() -> str:
    """The first private IPv4 address of this machine, else 127.0.0.1.

    Looked up from the host name and the interface the system would route through; nothing is
    sent on the network.
    """
    candidates: list[str] = []
    try:
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a UDP "connect" only picks a route; no packet leaves
            candidates.append(probe.getsockname()[0])
    except OSError:
        pass
    for address in candidates:
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and not ip.is_link_local:
            return address
    return "127.0.0.1"
