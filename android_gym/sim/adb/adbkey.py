"""ADB's RSA keys: the per-user key pair adb signs AUTH tokens with (`~/.android/adbkey`), and adb's public key format.

A device with `ro.adb.secure=1` answers a host's CNXN with `AUTH TOKEN` (20 random bytes); the host answers
`AUTH SIGNATURE`, the token signed with its private key (RSA PKCS#1 v1.5, the token standing in for a SHA-1 digest,
as adb's `RSA_sign(NID_sha1, ...)` does), and the device accepts it when one of its authorized public keys verifies
it (issue 43: our adbd took any CNXN). The key pair lives where adb keeps it, `$HOME/.android/adbkey` and
`adbkey.pub` (adb 36 ignores `$ANDROID_USER_HOME` for it, and so do we, so that a real adb server and our clients
sign with one key): the private key is PKCS#8 PEM, created 0600 with `O_EXCL | O_NOFOLLOW` and published with a
`link()` that never replaces a file; the public half is adb's struct (modulus size in words, n0inv, modulus, R^2 mod
n, exponent, little-endian) in base64, then " user@host". The RSA itself is the `cryptography` package's.

>>> key = AdbKey.generate()
>>> token = bytes(20)
>>> keys = AuthorizedKeys([decode_public_key(key.public_text())])
>>> keys.verify(token, key.sign(token)), keys.verify(token, AdbKey.generate().sign(token))
(True, False)
"""

from __future__ import annotations

import base64
import getpass
import os
import secrets
import socket
import stat
import struct
from collections.abc import Iterable, Mapping
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed

from android_gym.errors import ConfigError, UnsafePathError

KEY_BITS = 2048
"""adb's key size (its public key struct holds exactly 2048 bits of modulus)."""
TOKEN_BYTES = 20
AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
"""The `arg0` of an AUTH packet: what its payload is."""
_WORDS = KEY_BITS // 32
_PUBLIC_STRUCT = struct.Struct(f"<II{KEY_BITS // 8}s{KEY_BITS // 8}sI")
_SIGNING = (padding.PKCS1v15(), Prehashed(hashes.SHA1()))  # noqa: S303  (adb's protocol: the token is the "digest")


def user_key_path(env: Mapping[str, str] | None = None) -> Path:
    """Where adb keeps this user's private key: `$HOME/.android/adbkey` (the home of the passwd entry without $HOME).

    >>> user_key_path({"HOME": "/home/ada"}).as_posix()
    '/home/ada/.android/adbkey'
    """
    env = os.environ if env is None else env
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".android" / "adbkey"


def encode_public_key(public_key: rsa.RSAPublicKey, comment: str | None = None) -> str:
    """The public key as adb writes `adbkey.pub`: base64 of its struct, then " user@host".

    Raises:
        ConfigError: the key is not a 2048-bit RSA key (adb's format holds no other size).
    """
    numbers = public_key.public_numbers()
    n = numbers.n
    if n.bit_length() != KEY_BITS:
        raise ConfigError(f"adb keys are {KEY_BITS}-bit RSA; this one has {n.bit_length()} bits: make a new key")
    n0inv = (-pow(n, -1, 1 << 32)) % (1 << 32)  # -1 / n[0] mod 2^32: adbd's Montgomery constant
    rr = pow(2, 2 * KEY_BITS, n)  # R^2 mod n with R = 2^2048
    raw = _PUBLIC_STRUCT.pack(_WORDS, n0inv, n.to_bytes(KEY_BITS // 8, "little"),
                              rr.to_bytes(KEY_BITS // 8, "little"), numbers.e)
    if comment is None:
        comment = f"{getpass.getuser()}@{socket.gethostname()}"
    return base64.b64encode(raw).decode("ascii") + (f" {comment}" if comment else "")


def decode_public_key(text: str) -> rsa.RSAPublicKey:
    """A public key from adb's text form (one `adbkey.pub` or `adb_keys` line; the " user@host" is optional).

    Raises:
        ConfigError: the text is not an adb public key (the message says what is wrong with it).
    """
    b64 = text.strip().split(" ", 1)[0].rstrip("\0")
    try:
        raw = base64.b64decode(b64, validate=True)
        words, _, modulus, _, exponent = _PUBLIC_STRUCT.unpack(raw)
    except (ValueError, struct.error) as e:
        raise ConfigError(f"not an adb public key ({len(b64)} characters of base64 for a {_PUBLIC_STRUCT.size}-byte "
                          f"struct): {text[:40]!r}... ({e})") from e
    if words != _WORDS:
        raise ConfigError(f"an adb public key of {words} words; only {_WORDS} (RSA-{KEY_BITS}) exists")
    try:
        return rsa.RSAPublicNumbers(exponent, int.from_bytes(modulus, "little")).public_key()
    except ValueError as e:
        raise ConfigError(f"the adb public key {text[:40]!r}... is not a valid RSA key ({e})") from e


class AdbKey:
    """One RSA private key adb signs with.

    Args:
        private_key: a 2048-bit RSA key.
        path: the file it came from (for messages), if any.
    """

    def __init__(self, private_key: rsa.RSAPrivateKey, path: Path | None = None) -> None:
        self.private_key, self.path = private_key, path

    @classmethod
    def generate(cls) -> AdbKey:
        """A fresh key (not written anywhere)."""
        return cls(rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS))

    @classmethod
    def load(cls, path: str | Path) -> AdbKey:
        """The key at `path`, as adb writes it (PEM, PKCS#8 or PKCS#1).

        Raises:
            UnsafePathError: `path` is a symbolic link, belongs to another user, or others can read or write it.
            ConfigError: it holds no RSA private key.
            OSError: it cannot be read.
        """
        path = Path(path)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as e:
            if path.is_symlink():
                raise UnsafePathError(f"refused to read the adb key {path}: it is a symbolic link; replace it by the "
                                      "key file itself (or remove it to have a new key made)") from e
            raise
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if info.st_uid != os.getuid() or info.st_mode & 0o077:
                raise UnsafePathError(f"refused to use the adb key {path}: it belongs to uid {info.st_uid} with mode "
                                      f"{stat.filemode(info.st_mode)}; it must be yours and private: "
                                      f"`chmod 600 {path}` (or remove it to have a new key made)")
            data = handle.read()
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise ConfigError(f"the adb key {path} holds no unencrypted PEM private key ({e}); remove it to have a "
                              "new key made") from e
        if not isinstance(key, rsa.RSAPrivateKey) or key.key_size != KEY_BITS:
            raise ConfigError(f"the adb key {path} is not a {KEY_BITS}-bit RSA key; remove it to have a new key made")
        return cls(key, path)

    @classmethod
    def load_or_create(cls, path: str | Path | None = None) -> AdbKey:
        """The key at `path` (default `user_key_path()`), made first when missing, as adb makes it on first start.

        A new key is written to a fresh 0600 file (`O_CREAT | O_EXCL | O_NOFOLLOW`) and linked into place, so a
        process racing us ends up with the same key, and a planted file or link is never written through. The
        public half goes beside it as `adbkey.pub` (when that name is free).

        Raises:
            UnsafePathError, ConfigError, OSError: as `load`.
        """
        path = user_key_path() if path is None else Path(path)
        if not os.path.lexists(path):
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            key = cls.generate()
            pem = key.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption())
            _publish(path, pem, 0o600)
            _publish(path.with_name(path.name + ".pub"), key.public_text().encode(), 0o644)
        return cls.load(path)

    def sign(self, token: bytes) -> bytes:
        """The AUTH SIGNATURE payload for `token` (PKCS#1 v1.5 over the token as a SHA-1 digest, as adb signs)."""
        return self.private_key.sign(token, *_SIGNING)

    def public_text(self, comment: str | None = None) -> str:
        """The public half in adb's text form (`encode_public_key`)."""
        return encode_public_key(self.private_key.public_key(), comment)


class AuthorizedKeys:
    """The public keys a device accepts signatures from (a real device's `/data/misc/adb/adb_keys`).

    Args:
        keys: the accepted public keys.
        source: where they came from (named when a key is refused).
    """

    def __init__(self, keys: Iterable[rsa.RSAPublicKey], source: str = "the given keys") -> None:
        self.keys, self.source = list(keys), source

    @classmethod
    def of_user(cls, path: str | Path | None = None) -> AuthorizedKeys:
        """The public half of the user's key pair (`AdbKey.load_or_create(path)`): what our own clients sign with."""
        key = AdbKey.load_or_create(path)
        return cls([key.private_key.public_key()], f"the key pair {key.path}")

    @classmethod
    def load(cls, path: str | Path) -> AuthorizedKeys:
        """Keys from a file of adb public keys, one per line (`adb_keys`, or an `adbkey.pub`).

        Raises:
            ConfigError: a line is not an adb public key (the message names the file and line).
        """
        keys = []
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            if line.strip():
                try:
                    keys.append(decode_public_key(line))
                except ConfigError as e:
                    raise ConfigError(f"{path} line {number}: {e}") from e
        return cls(keys, str(path))

    def verify(self, token: bytes, signature: bytes) -> bool:
        """Whether one of the keys signed `token` with `signature`."""
        for key in self.keys:
            try:
                key.verify(signature, token, *_SIGNING)
                return True
            except InvalidSignature:
                continue
        return False


def _publish(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to a fresh file and link it at `path` unless something is there already (then keep that)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        try:
            os.link(tmp, path)  # atomic and never replacing: a racing process's key (or a planted link) wins
        except FileExistsError:
            pass
    finally:
        tmp.unlink(missing_ok=True)
