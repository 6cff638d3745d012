"""Ray, closed by default (issue 20): token authentication checks made before the runtime starts or joins a cluster.

A Ray cluster runs code for anyone who can reach it, and its GCS, raylet and workers listen on every interface, so the
Ray runtime starts or joins clusters only with Ray's token authentication (RAY_AUTH_MODE=token). Measured on Ray
2.60: a call without a token is refused by every listener within milliseconds, while `ray.init` with a wrong or
missing token retries for ~20 s and then says only "Failed to connect"; hence the explicit checks here.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from distrl_agent.errors import ClusterError
from distrl_agent.runtime.ray_actors import ray_version

log = logging.getLogger(__name__)
AUTO_TOKEN_RAY_VERSION = (2, 60)  # measured: a private ray.init() of 2.60 turns token auth on if RAY_AUTH_MODE is unset
GCS_PROBE_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"  # the first call any Ray client makes to a GCS
TOKEN_HOWTO = ("export RAY_AUTH_MODE=token and give this machine the cluster's token (`ray get-auth-token` on the head "
               "node prints it) in RAY_AUTH_TOKEN, in the file RAY_AUTH_TOKEN_PATH names, or in ~/.ray/auth_token "
               "(README: 'On a Ray cluster')")


def require_token_mode(ray: Any, address: str | None) -> None:
    """Check, before Ray joins the cluster at `address` (None: starts a private one), that it will use token auth.

    Ray reads RAY_AUTH_MODE from the environment. Unset, Ray >= 2.60 turns token auth on for a private cluster (and
    creates ~/.ray/auth_token) but never when joining an address, so joining needs RAY_AUTH_MODE=token.

    Raises:
        ClusterError: RAY_AUTH_MODE is set to anything but "token", or is unset where Ray would leave auth off.
    """
    from ray._private.authentication.authentication_utils import is_token_auth_enabled
    from ray._raylet import Config

    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is None and address is None and ray_version(ray.__version__) >= AUTO_TOKEN_RAY_VERSION:
        return  # ray.init turns it on; `connect` checks afterwards that it did
    if mode is not None and mode.lower() == "token":
        if not is_token_auth_enabled():  # Ray read its config at `import ray`, before RAY_AUTH_MODE was set:
            Config.initialize("")  # re-read it, as ray.init does when it turns token auth on itself
        return
    if address is not None:
        found = "unset" if mode is None else repr(mode)
        raise ClusterError(f"`runtime.address` {address!r}: joining a Ray cluster needs token authentication, and "
                           f"RAY_AUTH_MODE is {found} here (expected 'token'); {TOKEN_HOWTO}")
    if mode is None:
        raise ClusterError(f"ray {ray.__version__} does not turn token authentication on by itself for a private "
                           "cluster (Ray >= 2.60 does): export RAY_AUTH_MODE=token, or upgrade Ray")
    raise ClusterError(f"RAY_AUTH_MODE={mode!r}: the private Ray cluster would run without token authentication "
                       "while its GCS, raylet and workers listen on every network interface, so anyone who can reach "
                       "this machine could run code in it. Unset RAY_AUTH_MODE (Ray then turns token auth on and keeps "
                       "its token in ~/.ray/auth_token) or set RAY_AUTH_MODE=token")


def private_token_file() -> Path | None:
    """Make sure the token file a private cluster will use is readable by its owner only (0600); returns its path.

    Ray 2.60 writes a missing ~/.ray/auth_token with the process umask, typically 0644: readable by every local
    user, and the token is full access to the cluster (issue 43). So the token is written here first, created 0600
    with `O_EXCL | O_NOFOLLOW` (a planted link is refused), with Ray's own format (64 hex digits); a token file of
    ours already open to others is closed to them. Nothing to do (None) when RAY_AUTH_TOKEN carries the token.

    Raises:
        ClusterError: the token file is a symbolic link, not a regular file, or owned by another user.
    """
    if os.environ.get("RAY_AUTH_TOKEN"):
        return None
    named = os.environ.get("RAY_AUTH_TOKEN_PATH")
    path = Path(named).expanduser() if named else Path.home() / ".ray" / "auth_token"
    if not named and not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            what = ("a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
                    if not stat.S_ISREG(info.st_mode) else f"owned by uid {info.st_uid}, not by you")
            raise ClusterError(f"the Ray token file {path} is {what}; another user may have planted it to learn or "
                               "choose the token. Remove it (Ray then writes a new one) or set "
                               "RAY_AUTH_TOKEN_PATH") from None
        if info.st_mode & 0o077:
            os.chmod(path, 0o600)
            log.warning("the Ray token file %s was readable by other users (mode %o); it is now 0600. Anyone who "
                        "read it could join a cluster that uses it: replace the token if that matters here", path,
                        stat.S_IMODE(info.st_mode))
        return path
    with os.fdopen(fd, "w") as handle:
        handle.write(secrets.token_hex(32))
    return path


@contextlib.contextmanager
def loopback_node(ray: Any) -> Iterator[None]:
    """While a private cluster starts: its node address is 127.0.0.1, so its GCS, raylet and workers bind loopback.

    Ray turns `_node_ip_address="127.0.0.1"` into this machine's routable address (so that other nodes could join),
    unless its constant `ENABLE_RAY_CLUSTER` is off, as on macOS and Windows; then every listener of the cluster
    binds 127.0.0.1 (measured on Ray 2.60 with `ss -ltn`: none on 0.0.0.0). A private cluster has no other node,
    so the constant is off for the start and restored after. Where a Ray version lacks it, the cluster starts as Ray
    chooses (its listeners then rely on token auth alone) and a warning says so.
    """
    try:
        constants: Any = importlib.import_module("ray._private.ray_constants")
    except ImportError:
        constants = None
    if not hasattr(constants, "ENABLE_RAY_CLUSTER"):
        log.warning("ray %s: cannot pin the private cluster to 127.0.0.1; its listeners may bind every interface "
                    "(token authentication still guards them)", getattr(ray, "__version__", "?"))
        yield
        return
    before = constants.ENABLE_RAY_CLUSTER
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = before


def token_header(address: str) -> dict[str, str]:
    """The gRPC metadata carrying this machine's Ray token, found where Ray looks for it.

    Ray's lookup order: RAY_AUTH_TOKEN, then the file RAY_AUTH_TOKEN_PATH names, then ~/.ray/auth_token.

    Raises:
        ClusterError: no token was found, or RAY_AUTH_TOKEN_PATH names a file that cannot be read.
    """
    from ray._raylet import AuthenticationTokenLoader
    from ray.exceptions import AuthenticationError

    try:
        header = AuthenticationTokenLoader.instance().get_token_for_http_header(ignore_auth_mode=True)
    except AuthenticationError as e:
        raise ClusterError(f"`runtime.address` {address!r}: cannot read this machine's Ray token: {e.message}; "
                           f"{TOKEN_HOWTO}") from e
    if not header:
        raise ClusterError(f"`runtime.address` {address!r}: RAY_AUTH_MODE=token but no Ray token was found "
                           f"(RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token); {TOKEN_HOWTO}")
    return dict(header)


def check_cluster_auth(address: str, timeout_s: float, header: dict[str, str]) -> None:
    """Check that the GCS at `address` refuses a call without a token and accepts one with `header`.

    One gRPC call each way (a few ms each when the GCS answers), instead of `ray.init`, which retries a refused token
    for ~20 s and then reports only "Failed to connect to Ray cluster".

    Args:
        address: the GCS as host:port.
        timeout_s: seconds for both calls together.
        header: the token metadata (`token_header`).

    Raises:
        ClusterError: the cluster enforces no authentication, refuses the token, or does not answer in `timeout_s`.
    """
    try:
        import grpc
    except ImportError as e:
        raise ClusterError("checking the Ray cluster's authentication needs grpcio: pip install grpcio") from e
    deadline = time.monotonic() + timeout_s

    def call(metadata: tuple[tuple[str, str], ...]) -> Any:
        with grpc.insecure_channel(address, options=[("grpc.enable_http_proxy", 0)]) as channel:  # as Ray's own
            try:
                channel.unary_unary(GCS_PROBE_METHOD)(b"", timeout=max(deadline - time.monotonic(), 0.01),
                                                      metadata=metadata)
            except grpc.RpcError as e:
                return e
        return None

    refused = call(())
    if refused is None:
        raise ClusterError(f"`runtime.address` {address!r}: that Ray cluster answers without a token, so anyone who "
                           "can reach it can run code on it; refusing to join. Restart every node of it with "
                           "`export RAY_AUTH_MODE=token` and one shared token (README: 'On a Ray cluster')")
    answer = call(tuple(header.items())) if refused.code() == grpc.StatusCode.UNAUTHENTICATED else refused
    if answer is None:
        return
    if answer is not refused and answer.code() == grpc.StatusCode.UNAUTHENTICATED:
        raise ClusterError(f"`runtime.address` {address!r}: the cluster refused this machine's Ray token "
                           f"({answer.details()}); {TOKEN_HOWTO}")
    raise ClusterError(f"`runtime.address` {address!r}: the Ray GCS call failed ({answer.code().name}: "
                       f"{answer.details()}) within {timeout_s:.1f} s (`runtime.connect_timeout_s`); is it the GCS "
                       "port of a Ray head node (6379 by default)?")
