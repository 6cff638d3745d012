"""Ray, closed by default (issue 20): token authentication checks made before the runtime starts or joins a cluster.

A Ray cluster runs code for anyone who can reach it, and its GCS, raylet and workers listen on every interface, so the
Ray runtime starts or joins clusters only with Ray's token authentication (RAY_AUTH_MODE=token). Measured on Ray
2.60: a call without a token is refused by every listener within milliseconds, while `ray.init` with a wrong or
missing token retries for ~20 s and then says only "Failed to connect"; hence the explicit checks here.
"""

from __future__ import annotations

import os
import time
from typing import Any

from distrl_agent.errors import ClusterError
from distrl_agent.runtime.ray_actors import ray_version

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
