"""The door of `banker`'s server (waitress): no client holds it shut for the others.

waitress reads each request whole before a thread serves it, so a slow client holds no thread; but
it holds a connection, and past `connection_limit` open connections waitress accepts none at all.
Every byte a client sends restarts that connection's idle timeout (`channel_timeout`), so a client
sending a byte every few seconds would hold its connections for ever. Hence, at the door:

- no client address holds more than CONNECTIONS_PER_ADDRESS connections at once: the next one is
  closed as soon as it is accepted. Only with no proxy in front (PROXY_FIX 0): behind one, every
  connection comes from the proxy, which keeps slow clients out itself (docs/hosting.md, nginx).
- a request must arrive whole, its headers and its body, within REQUEST_SECONDS of its first byte:
  past that its connection is closed, however slowly its bytes keep coming.
- near `connection_limit` (within `room` of it), each new connection makes room: the connection
  that has waited longest without being served is closed (a request still arriving first, then
  an idle keep-alive, which its browser simply opens again). Slow clients from many addresses
  then take turns at the door, and a phone's page still gets in; an open page (a live connection,
  being served) is never the one closed.
"""

import threading
import time
from collections import Counter

from waitress.channel import HTTPChannel


class Channel(HTTPChannel):
    """One connection, counted at its address while it is open, and timing the request it reads."""

    door: "Door | None" = None
    address: str | None = None  # where it is counted
    arriving = 0.0  # when the request being read sent its first byte (time.monotonic)

    def received(self, data):
        if self.request is not None and self.door and self.door.late(self):
            self.will_close = True  # waitress's loop closes it next
            return False
        reading = self.request
        done = super().received(data)
        if self.request is not None and self.request is not reading:  # a new request began here
            self.arriving = time.monotonic()
        return done

    def del_channel(self, map=None):
        super().del_channel(map)
        if self.door:
            self.door.left(self)


class Door:
    """One server's door: the connections open at each client address (per_address None: not
    counted), how long a request may take to arrive (`seconds`), and how near the connection
    limit a new connection makes room (`room`)."""

    def __init__(self, per_address: int | None, seconds: float, room: int = 0):
        self.per_address, self.seconds, self.room = per_address, seconds, room
        self.open: Counter = Counter()
        self._lock = threading.Lock()

    def channel(self, server, sock, addr, adj, map=None):
        """What waitress makes of each accepted connection (its `channel_class`): a Channel, or
        nothing (the connection closed) when its address holds its share already."""
        address = addr[0] if isinstance(addr, tuple) and self.per_address is not None else None
        if address is not None:
            with self._lock:
                if self.open[address] >= self.per_address:
                    sock.close()
                    return None
                self.open[address] += 1
        channel = Channel(server, sock, addr, adj, map=map)
        channel.door, channel.address = self, address
        if map is not None and len(map) >= adj.connection_limit - self.room:
            self.make_room(map.values())
        return channel

    def make_room(self, dispatchers) -> None:
        """Close the connection that has waited longest without being served: one whose request is
        still arriving, else one idle between requests (not one being served: an open page)."""
        waiting = [d for d in dispatchers if isinstance(d, HTTPChannel) and not d.requests and not d.will_close]
        if waiting:
            min(waiting, key=lambda channel: (channel.request is None, channel.creation_time)).will_close = True

    def left(self, channel: Channel) -> None:
        if channel.address is None:
            return
        with self._lock:
            self.open[channel.address] -= 1
            if not self.open[channel.address]:
                del self.open[channel.address]
        channel.address = None  # counted once, however often it is closed

    def late(self, channel: Channel) -> bool:
        """Whether the request this channel is reading has taken too long to arrive."""
        return channel.request is not None and time.monotonic() - channel.arriving > self.seconds

    def sweep(self, channels) -> None:
        """Close the connections whose request is late, though they send nothing more (run by
        waitress's own loop, with its maintenance)."""
        for channel in list(channels):
            if isinstance(channel, Channel) and self.late(channel):
                channel.will_close = True


def guard(server, per_address: int | None, seconds: float):
    """Put a Door in front of a waitress server made by create_server (before it runs), and return
    the server. Its loop looks for late requests every second or two, as often as it wakes."""
    # Room kept below the connection limit: past it waitress would accept nobody at all.
    room = max(2, server.adj.connection_limit // 20)
    door = server.door = Door(per_address, seconds, room)
    server.channel_class = door.channel
    maintenance = server.maintenance

    def maintain(now):
        maintenance(now)
        door.sweep(server.active_channels.values())

    server.maintenance = maintain
    server.adj.cleanup_interval = min(server.adj.cleanup_interval, max(1, int(seconds / 2)))
    return server
