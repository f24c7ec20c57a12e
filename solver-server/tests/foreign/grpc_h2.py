"""gRPC over raw HTTP/2 (the python `h2` state machine on a plain socket).

A stock gRPC client hides how its messages are framed. This one sends exactly the DATA frames a
test asks for (one message per frame, like grpcio, grpc-go and grpc-java, or many per frame) and
grants flow-control window back only when the test says so, so a test can play a client that
stops reading.
"""

import select
import socket
import struct
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sliding_request(case_id, start, target=()):
    """A `solver.v1.SlidingRequest`, encoded by hand (tiles are below 128: one byte each)."""
    body = b""
    if case_id:
        body += b"\x08" + varint(case_id)
    body += b"\x12" + varint(len(start)) + bytes(start)
    if target:
        body += b"\x1a" + varint(len(target)) + bytes(target)
    return body


def grpc_frame(message):
    """The gRPC length-prefixed message: flag 0 (not compressed), 4-byte length, the bytes."""
    return b"\x00" + struct.pack(">I", len(message)) + message


def split_messages(buffer):
    """Splits whole gRPC messages off `buffer` (a bytearray); returns them, keeps the rest."""
    messages = []
    offset = 0
    while len(buffer) - offset >= 5:
        length = struct.unpack_from(">I", buffer, offset + 1)[0]
        if len(buffer) - offset - 5 < length:
            break
        messages.append(bytes(buffer[offset + 5 : offset + 5 + length]))
        offset += 5 + length
    del buffer[:offset]
    return messages


class Stream:
    """What one stream received."""

    def __init__(self, stream_id, ack):
        self.id = stream_id
        self.ack = ack
        self.headers = None
        self.trailers = None
        self.buffer = bytearray()
        self.messages = []
        self.unacked = 0
        self.ended = False
        self.reset = None

    def status(self):
        """grpc-status from the trailers (or trailers-only headers), or None."""
        for fields in (self.trailers, self.headers):
            for name, value in fields or ():
                if name == b"grpc-status":
                    return int(value)
        return None

    def header(self, wanted):
        for fields in (self.headers, self.trailers):
            for name, value in fields or ():
                if name == wanted:
                    return value
        return None


class Connection:
    """One HTTP/2 connection to the server, driven by the caller (no threads)."""

    def __init__(self, port, host="127.0.0.1"):
        self.port = port
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        config = h2.config.H2Configuration(client_side=True, header_encoding=None)
        self.h2 = h2.connection.H2Connection(config)
        self.h2.initiate_connection()
        self.streams = {}
        self.goaway = None
        self.closed = False
        self.flush()

    def flush(self):
        data = self.h2.data_to_send()
        if data and not self.closed:
            try:
                self.sock.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                # The server closed the connection; read what it said last (a GOAWAY?).
                self.drain()

    def open(self, path, ack=True, content_type="application/grpc", method="POST", end=False):
        """Opens a stream; `ack` says whether data received on it is granted back at once."""
        stream_id = self.h2.get_next_available_stream_id()
        headers = [
            (b":method", method.encode()),
            (b":scheme", b"http"),
            (b":path", path.encode()),
            (b":authority", f"127.0.0.1:{self.port}".encode()),
        ]
        if content_type is not None:
            headers.append((b"content-type", content_type.encode()))
        headers.append((b"te", b"trailers"))
        self.h2.send_headers(stream_id, headers, end_stream=end)
        self.streams[stream_id] = Stream(stream_id, ack)
        self.flush()
        return stream_id

    def window(self, stream_id):
        """Bytes that may be sent on the stream now (stream and connection windows)."""
        if self.closed or self.goaway is not None:
            return 0
        try:
            return self.h2.local_flow_control_window(stream_id)
        except (h2.exceptions.StreamClosedError, h2.exceptions.NoSuchStreamError):
            return 0

    def send(self, stream_id, payload, end=False):
        self.h2.send_data(stream_id, payload, end_stream=end)

    def end(self, stream_id):
        self.h2.end_stream(stream_id)
        self.flush()

    def grant(self, stream_id):
        """Starts granting window on a stream, with what it holds already."""
        stream = self.streams[stream_id]
        stream.ack = True
        if stream.unacked:
            # The connection's share was granted when the data arrived.
            self.h2.increment_flow_control_window(stream.unacked, stream_id=stream_id)
            stream.unacked = 0
        self.flush()

    def drain(self):
        """Reads whatever is left after the server closed the connection."""
        self.sock.settimeout(1.0)
        try:
            while True:
                data = self.sock.recv(1 << 20)
                if not data:
                    break
                for event in self.h2.receive_data(data):
                    self.handle(event)
        except (OSError, h2.exceptions.ProtocolError):
            pass
        self.closed = True

    def pump(self, timeout):
        """Reads what has arrived within `timeout` seconds and handles it; False when closed."""
        if self.closed:
            return False
        poller = select.poll()
        poller.register(self.sock, select.POLLIN)
        if not poller.poll(timeout * 1000):
            return True
        try:
            data = self.sock.recv(1 << 20)
        except ConnectionResetError:
            data = b""
        if not data:
            self.closed = True
            return False
        for event in self.h2.receive_data(data):
            self.handle(event)
        self.flush()
        return True

    def handle(self, event):
        if isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = (event.error_code, event.additional_data)
            return
        stream = self.streams.get(getattr(event, "stream_id", None))
        if isinstance(event, h2.events.DataReceived):
            length = event.flow_controlled_length
            if stream is not None:
                stream.buffer += event.data
                stream.messages.extend(split_messages(stream.buffer))
            if stream is None or stream.ack:
                if length:
                    try:
                        self.h2.acknowledge_received_data(length, event.stream_id)
                    except (h2.exceptions.StreamClosedError, h2.exceptions.NoSuchStreamError):
                        self.h2.increment_flow_control_window(length)
            else:
                stream.unacked += length
                if length:
                    # Like a real client's transport: the connection's window is granted when
                    # data arrives, a stream's only when the application reads it.
                    self.h2.increment_flow_control_window(length)
        elif stream is None:
            return
        elif isinstance(event, h2.events.ResponseReceived):
            stream.headers = event.headers
        elif isinstance(event, h2.events.TrailersReceived):
            stream.trailers = event.headers
        elif isinstance(event, h2.events.StreamEnded):
            stream.ended = True
        elif isinstance(event, h2.events.StreamReset):
            stream.reset = event.error_code
            stream.ended = True

    def wait(self, done, timeout):
        """Pumps until `done()` holds or the connection closes; returns `done()`."""
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline and not self.closed:
            self.pump(min(0.05, max(0.0, deadline - time.monotonic())))
        return done()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
        self.closed = True
