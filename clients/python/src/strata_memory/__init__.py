"""Python client for Strata, the memory engine for AI agents (``strata serve``'s HTTP API)."""

from . import models
from ._calls import UNSET
from ._transport import RetryPolicy
from .async_client import AsyncStrataClient
from .client import StrataClient
from .errors import (
    ConnectionFailed,
    Forbidden,
    ForbiddenScope,
    InternalError,
    InvalidArgument,
    InvalidScope,
    NotFound,
    PayloadTooLarge,
    ProviderError,
    StoreLocked,
    StrataError,
    Timeout,
    Unauthorized,
    Unsupported,
    UnsupportedMediaType,
)
from .models import Memory, RecallResult, RememberResult

__version__ = "0.1.0"

__all__ = [
    "AsyncStrataClient",
    "StrataClient",
    "RetryPolicy",
    "UNSET",
    "models",
    "Memory",
    "RecallResult",
    "RememberResult",
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
]
