"""A fake Android `emulator` binary for the emulator-management tests (standard library only, starts fast).

Run as `fake_emulator.py -avd NAME -port P -grpc G [flags...]`. It behaves like the real emulator where the manager
can tell: it logs its argv (JSON lines in $FAKE_EMULATOR_LOG), serves the telnet console on P (token auth from
~/.emulator_console_auth_token, `avd snapshot load`, `ping`, `kill`), listens on the ADB port P+1, and announces
itself to the ADB server on $ANDROID_ADB_SERVER_PORT with `host:emulator:<P+1>` (the sim's front then serves a
phone as emulator-P). A snapshot load resets that phone over ADB. The AVD name picks a behaviour:
"crash" exits at once, "stuck" never finishes booting (never announces), "flaky" crashes on its first launch,
anything else boots.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sys
import threading
from pathlib import Path

BANNER = ("Android Console: Authentication required\r\nAndroid Console: type 'auth <auth_token>' to authenticate\r\n"
          "Android Console: you can find your <auth_token> in \r\n'{path}'\r\nOK\r\n")


def log_event(event: dict) -> int:
    """Append `event` to $FAKE_EMULATOR_LOG; returns how many events the log held before."""
    path = os.environ.get("FAKE_EMULATOR_LOG")
    if not path:
        return 0
    p = Path(path)
    before = len(p.read_text().splitlines()) if p.exists() else 0
    with p.open("a") as f:
        f.write(json.dumps(event) + "\n")
    return before


def adb_request(port: int, *requests: str) -> bytes:
    """Send host-protocol requests on one connection; returns whatever the server sent until it closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        for request in requests:
            data = request.encode()
            sock.sendall(f"{len(data):04x}".encode() + data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def token() -> str:
    """The console token, created like the real emulator does when missing."""
    path = Path.home() / ".emulator_console_auth_token"
    if not path.exists():
        path.write_text(secrets.token_hex(8))
    return path.read_text().strip()


def console_session(conn: socket.socket, avd: str, port: int) -> bool:
    """Serve one console connection; returns True when told to `kill`."""
    f = conn.makefile("rwb", buffering=0)
    f.write(BANNER.format(path=Path.home() / ".emulator_console_auth_token").encode())
    authed = False
    for raw in f:
        line = raw.decode().strip()
        if line.startswith("auth "):
            authed = line[5:] == token()
            f.write(b"OK\r\n" if authed else b"KO: authentication token does not match\r\n")
        elif not authed:
            f.write(b"KO: unauthenticated\r\n")
        elif line == "ping":
            f.write(b"I am alive!\r\nOK\r\n")
        elif line == "avd name":
            f.write(f"{avd}\r\nOK\r\n".encode())
        elif line.startswith("avd snapshot load "):
            name = line.split()[-1]
            log_event({"avd": avd, "snapshot": name, "port": port})
            if name == "missing":
                f.write(b"KO: snapshot 'missing' does not exist\r\n")
                continue
            server = int(os.environ["ANDROID_ADB_SERVER_PORT"])
            adb_request(server, f"host:transport:emulator-{port}", "shell:cmd android_gym reset 0")
            f.write(b"OK\r\n")
        elif line == "kill":
            f.write(b"OK: killing emulator, bye bye\r\n")
            return True
        else:
            f.write(b"KO: unknown command, try 'help'\r\n")
    return False


def listen(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:port."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(8)
    return sock


def accept_and_close(sock: socket.socket) -> None:
    """The ADB port: accept and hang up (the front only checks that it listens)."""
    while True:
        conn, _ = sock.accept()
        conn.close()


def main(argv: list[str]) -> int:
    """Run the fake emulator until killed through its console or by a signal."""
    args = dict(zip(argv[::2], argv[1::2], strict=False))
    avd, port = args.get("-avd", ""), int(args["-port"])
    before = log_event({"avd": avd, "argv": argv, "pid": os.getpid()})
    if avd == "crash" or (avd == "flaky" and before == 0):
        print("emulator: ERROR: fake crash while starting", flush=True)
        return 1
    token()  # the real emulator writes the token file at startup
    console, adb_port = listen(port), listen(port + 1)
    threading.Thread(target=accept_and_close, args=(adb_port,), daemon=True).start()
    if avd != "stuck":
        adb_request(int(os.environ["ANDROID_ADB_SERVER_PORT"]), f"host:emulator:{port + 1}")
    print(f"emulator: fake {avd} ready on console {port}", flush=True)
    while True:
        conn, _ = console.accept()
        with conn:
            if console_session(conn, avd, port):
                return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
