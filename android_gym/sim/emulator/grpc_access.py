"""Who may call the simulated emulator's gRPC methods: the `-grpc-use-token` bearer token and the `-grpc-allowlist`.

The real emulator (`-grpc-use-token`) generates a random token, writes it to its discovery file as `grpc.token`, and
requires `authorization: Bearer <token>` on every call: a missing header or another token is UNAUTHENTICATED. Its
allowlist (`-grpc-allowlist FILE`, the JSON of `emulator_access.json`) names, as regular expressions matched against
the whole method path (`/android.emulation.control.EmulatorController/getStatus`), the methods anyone may call
without a token (`"unprotected"`), and per token issuer (`"allowlist": [{"iss": ..., "allowed": [...],
"protected": [...]}]`) the methods that issuer's tokens may call. The static token's issuer is `android-studio`.

What the stand-in serves of that (issue 43):
- without an allowlist, the token may call every method and nothing is unprotected;
- with one, `unprotected` methods need no token, and the token may call the methods of the `android-studio`
  entry's `allowed` list; `protected` methods need a JWT whose audience names the method, which a static token has
  not, so they are refused to it (PERMISSION_DENIED), as are methods no list names;
- entries of other issuers grant nothing (their JWTs are refused: `-grpc-use-jwt` is not supported);
- an allowlist that cannot be read, is not such JSON, or holds an invalid pattern is an error at start-up (the real
  emulator blocks all access or skips the bad entry; the stand-in refuses to start rather than run with a policy
  other than the one asked for).

>>> policy = AccessPolicy.from_json("tok", '{"unprotected": ["/pkg.Svc/getStatus"], '
...                                 '"allowlist": [{"iss": "android-studio", "allowed": ["/pkg.Svc/get.*"]}]}')
>>> [policy.check("/pkg.Svc/getStatus", None), policy.check("/pkg.Svc/getScreenshot", "Bearer tok")]
[None, None]
>>> policy.check("/pkg.Svc/getScreenshot", None)[0].name, policy.check("/pkg.Svc/sendKey", "Bearer tok")[0].name
('UNAUTHENTICATED', 'PERMISSION_DENIED')
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from android_gym.errors import ConfigError

HEADER = "authorization"
BEARER = "Bearer "
STATIC_ISSUER = "android-studio"  # the issuer the real emulator files its static token under
Denial = tuple[grpc.StatusCode, str]


def _patterns(value: Any, where: str, source: str) -> tuple[re.Pattern[str], ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"`-grpc-allowlist` {source}: {where} must be a list of regular expressions (strings), "
                          f"got {value!r}")
    try:
        return tuple(re.compile(v) for v in value)
    except re.error as e:
        raise ConfigError(f"`-grpc-allowlist` {source}: {where} holds an invalid regular expression ({e}); fix "
                          "it") from e


@dataclass(frozen=True)
class AccessPolicy:
    """The token every protected call must carry and, with an allowlist, which methods need none or may be called.

    Attributes:
        token: the bearer token (compared in constant time).
        unprotected: patterns of methods callable without a token.
        allowed: patterns of methods the token may call; None: every method (no allowlist given).
    """

    token: str
    unprotected: tuple[re.Pattern[str], ...] = ()
    allowed: tuple[re.Pattern[str], ...] | None = None

    @classmethod
    def from_json(cls, token: str, text: str, source: str = "<json>") -> AccessPolicy:
        """The policy of allowlist JSON `text` (see the module docstring) for static token `token`.

        Raises:
            ConfigError: `text` is not an allowlist (the message names `source` and the bad part).
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"`-grpc-allowlist` {source} is not JSON ({e}); fix it, or leave the flag out to let "
                              "the token call every method") from e
        if not isinstance(data, dict) or not isinstance(data.get("allowlist", []), list):
            raise ConfigError(f"`-grpc-allowlist` {source} must be an object with \"unprotected\" (a list) and "
                              "\"allowlist\" (a list of {\"iss\", \"allowed\", \"protected\"})")
        unprotected = _patterns(data.get("unprotected", []), "\"unprotected\"", source)
        allowed: list[re.Pattern[str]] = []
        for i, entry in enumerate(data.get("allowlist", [])):
            if not isinstance(entry, dict) or not isinstance(entry.get("iss"), str):
                raise ConfigError(f"`-grpc-allowlist` {source}: allowlist entry {i} needs an \"iss\" (string)")
            lists = {key: _patterns(entry.get(key, []), f"allowlist entry {i} ({entry['iss']}) \"{key}\"", source)
                     for key in ("allowed", "protected")}
            if entry["iss"] == STATIC_ISSUER:
                allowed += lists["allowed"]
        return cls(token, unprotected, tuple(allowed))

    @classmethod
    def load(cls, token: str, path: str | None) -> AccessPolicy:
        """The policy of allowlist file `path` (None: the token may call every method).

        Raises:
            ConfigError: the file cannot be read or is not an allowlist.
        """
        if path is None:
            return cls(token)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"`-grpc-allowlist` {path} cannot be read ({e}); give the path of an access JSON "
                              "file") from e
        return cls.from_json(token, text, path)

    def check(self, method: str, authorization: str | None) -> Denial | None:
        """None when a call of `method` with header value `authorization` may go ahead, else why not.

        Returns:
            `(UNAUTHENTICATED, why)` when the method needs the token and the call has no header or another token;
            `(PERMISSION_DENIED, why)` when the token is right but the allowlist does not let it call `method`.
        """
        if any(p.fullmatch(method) for p in self.unprotected):
            return None
        if authorization is None:
            return grpc.StatusCode.UNAUTHENTICATED, f"No '{HEADER}' header present."
        if not authorization.startswith(BEARER):
            return grpc.StatusCode.UNAUTHENTICATED, f"Header does not start with '{BEARER}'."
        if not hmac.compare_digest(authorization[len(BEARER):].encode(), self.token.encode()):
            return grpc.StatusCode.UNAUTHENTICATED, "Incorrect token"
        if self.allowed is not None and not any(p.fullmatch(method) for p in self.allowed):
            return grpc.StatusCode.PERMISSION_DENIED, (f"{method} is not in the `-grpc-allowlist` of issuer "
                                                       f"{STATIC_ISSUER!r}")
        return None


def _denied(code: grpc.StatusCode, details: str) -> Callable[[Any, grpc.ServicerContext], Any]:
    def behaviour(request: Any, context: grpc.ServicerContext) -> Any:
        context.abort(code, details)
    return behaviour


class TokenInterceptor(grpc.ServerInterceptor):
    """Checks every call against an `AccessPolicy` before its method runs; a refused call's request is never parsed.

    Args:
        policy: the token and allowlist.
        on_denied: called with (method, status code) for each refused call (counting, logging).
    """

    def __init__(self, policy: AccessPolicy, on_denied: Callable[[str, grpc.StatusCode], None]) -> None:
        self.policy, self.on_denied = policy, on_denied

    def intercept_service(self, continuation: Callable[[Any], Any], handler_call_details: Any) -> Any:
        """The method's handler when the policy lets the call through, else one that aborts with the reason."""
        method = handler_call_details.method
        headers = [value for key, value in handler_call_details.invocation_metadata or () if key == HEADER]
        denial = self.policy.check(method, headers[0] if len(headers) == 1 else None)
        handler = continuation(handler_call_details)
        if denial is None:
            return handler
        self.on_denied(method, denial[0])
        behaviour = _denied(*denial)
        # Same shape as the method, so the client gets the status rather than a protocol error; no deserializer,
        # so the refused request's bytes are never parsed into a message.
        if handler is not None and handler.request_streaming and handler.response_streaming:
            return grpc.stream_stream_rpc_method_handler(behaviour)
        if handler is not None and handler.request_streaming:
            return grpc.stream_unary_rpc_method_handler(behaviour)
        if handler is not None and handler.response_streaming:
            return grpc.unary_stream_rpc_method_handler(behaviour)
        return grpc.unary_unary_rpc_method_handler(behaviour)
