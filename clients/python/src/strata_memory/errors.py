"""Exceptions raised by the client, one class per family of the API's error codes.

The server answers every failure with ``{"error": {"code", "message", ...}}`` and a status
(``src/core/ops/errors.ts``: ``httpStatusOf``); :func:`error_from_response` turns that into the
class below whose codes include it, falling back on the status for codes this client does not
know yet, so a newer server never surfaces as a bare ``StrataError`` when a family fits.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "StrataError",
    "InvalidArgument",
    "InvalidScope",
    "Unauthorized",
    "Forbidden",
    "ForbiddenScope",
    "NotFound",
    "PayloadTooLarge",
    "UnsupportedMediaType",
    "Timeout",
    "StoreLocked",
    "ProviderError",
    "Unsupported",
    "InternalError",
    "ConnectionFailed",
    "error_from_response",
]


class StrataError(Exception):
    """Any failure reported by Strata (or on the way to it).

    ``code`` is the API's error code (``NOT_FOUND``, ``FORBIDDEN_SCOPE``...), ``status`` the HTTP
    status (``None`` when no response arrived), ``details`` every other field of the error body.
    """

    codes: ClassVar[frozenset[str]] = frozenset()
    #: Whether repeating the same request later may succeed (used by the read retries).
    retryable: ClassVar[bool] = False

    def __init__(
        self,
        message: str,
        *,
        code: str = "INTERNAL",
        status: int | None = None,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details: dict[str, Any] = details or {}
        #: Seconds the server asked to wait (``Retry-After``), when it did.
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f" (HTTP {self.status})" if self.status is not None else ""
        return f"[{self.code}]{where} {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status!r}, message={self.message!r})"


class InvalidArgument(StrataError):
    """The request was refused as it stands (bad field, malformed JSON, invalid import): fix it, don't retry."""

    codes = frozenset({"INVALID_ARGUMENT", "MALFORMED_JSON", "IMPORT_INVALID"})


class InvalidScope(InvalidArgument):
    """A scope that breaks the grammar (``global``, ``agent:<id>``, ``user:<id>``, ``custom:<name>``...)."""

    codes = frozenset({"INVALID_SCOPE"})


class Unauthorized(StrataError):
    """Missing, unknown or revoked bearer token (a per-agent token from ``strata tokens create``, or ``STRATA_HTTP_TOKEN``)."""

    codes = frozenset({"UNAUTHORIZED"})


class Forbidden(StrataError):
    """The server refused who or where the request came from (Host or Origin checks)."""

    codes = frozenset({"FORBIDDEN", "FORBIDDEN_HOST", "FORBIDDEN_ORIGIN"})


class ForbiddenScope(Forbidden):
    """The request names a scope the server's caller does not hold; requests may only narrow."""

    codes = frozenset({"FORBIDDEN_SCOPE"})


class NotFound(StrataError):
    """No such memory (or route) within the caller's scopes: another agent's memory looks the same."""

    codes = frozenset({"NOT_FOUND"})


class PayloadTooLarge(InvalidArgument):
    codes = frozenset({"PAYLOAD_TOO_LARGE"})


class UnsupportedMediaType(InvalidArgument):
    codes = frozenset({"UNSUPPORTED_MEDIA_TYPE"})


class Timeout(StrataError):
    """The request (or the server's work on it) took too long; the client's own timeouts raise this too."""

    codes = frozenset({"TIMEOUT", "REQUEST_TIMEOUT"})
    retryable = True


class StoreLocked(StrataError):
    """Another writer holds the store's lock; try again shortly."""

    codes = frozenset({"STORE_LOCKED"})
    retryable = True


class ProviderError(StrataError):
    """The embedder, LLM or reranker behind the server failed (502)."""

    codes = frozenset(
        {"PROVIDER_CALL", "PROVIDER_AUTH", "PROVIDER_MODEL_NOT_FOUND", "PROVIDER_DIMENSION_MISMATCH", "RETRY_EXHAUSTED"}
    )
    retryable = True


class Unsupported(StrataError):
    codes = frozenset({"UNSUPPORTED"})


class InternalError(StrataError):
    """An unexpected server failure (the server log has the details)."""

    codes = frozenset({"INTERNAL", "STORAGE"})
    retryable = True


class ConnectionFailed(StrataError):
    """No answer: the server is not running, not reachable, or dropped the connection."""

    codes = frozenset({"CONNECTION"})
    retryable = True


_BY_CODE: dict[str, type[StrataError]] = {
    code: cls
    for cls in (
        InvalidArgument,
        InvalidScope,
        Unauthorized,
        Forbidden,
        ForbiddenScope,
        NotFound,
        PayloadTooLarge,
        UnsupportedMediaType,
        Timeout,
        StoreLocked,
        ProviderError,
        Unsupported,
        InternalError,
        ConnectionFailed,
    )
    for code in cls.codes
}

_BY_STATUS: dict[int, type[StrataError]] = {
    400: InvalidArgument,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    408: Timeout,
    413: PayloadTooLarge,
    415: UnsupportedMediaType,
    501: Unsupported,
    502: ProviderError,
    503: StoreLocked,
    504: Timeout,
}


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds (delta-seconds form, or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime
    from datetime import datetime, timezone

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def error_from_response(status: int, body: Any, retry_after: str | None = None) -> StrataError:
    """The exception for a failed response: by the body's code, else by the status."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code: str = error["code"]
        message = str(error.get("message") or code)
        details = {k: v for k, v in error.items() if k not in ("code", "message")}
    else:
        code = "INTERNAL" if status >= 500 else f"HTTP_{status}"
        message = f"HTTP {status} without a Strata error body" + (f": {str(body)[:200]}" if body else "")
        details = {}
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status) or (InternalError if status >= 500 else StrataError)
    return cls(message, code=code, status=status, details=details, retry_after=parse_retry_after(retry_after))
