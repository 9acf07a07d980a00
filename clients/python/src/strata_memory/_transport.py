"""Sending a :class:`Call`: headers, the bearer token, timeouts, error mapping, and the one retry
loop (idempotent reads only; exponential backoff with jitter; a server's ``Retry-After`` wins)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from typing import Any, Optional, Union

import httpx

from ._calls import Call, T
from .errors import ConnectionFailed, StrataError, Timeout, error_from_response

API_PREFIX = "/api/v1"
USER_AGENT = "strata-memory-python/0.1.0"
#: Statuses worth another try for a read: rate limits and a server or its proxy in trouble.
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Retries for idempotent reads. Writes are sent once: a retried write could store twice."""

    attempts: int = 3
    base_delay: float = 0.25
    max_delay: float = 8.0

    def delay(self, attempt: int, error: StrataError) -> float:
        if error.retry_after is not None:
            return min(error.retry_after, self.max_delay * 4)
        backoff = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return backoff * (0.5 + random.random() / 2)


def base_url(url: str) -> str:
    url = url.rstrip("/")
    return url[: -len(API_PREFIX)] if url.endswith(API_PREFIX) else url


def headers(token: Optional[str]) -> dict[str, str]:
    out = {
        "accept": "application/json",
        "user-agent": USER_AGENT,
        # Marks the request as a program's (the server's CSRF rule for state-changing requests).
        "x-strata-request": "1",
    }
    if token:
        out["authorization"] = f"Bearer {token}"
    return out


def timeout_of(timeout: Union[float, httpx.Timeout, None]) -> httpx.Timeout:
    if isinstance(timeout, httpx.Timeout):
        return timeout
    return httpx.Timeout(timeout, connect=min(timeout, 10.0) if timeout else None)


def _request_args(call: Call[Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"params": call.params}
    if call.json is not None:
        args["json"] = call.json
    return args


def _read(call: Call[T], response: httpx.Response) -> T:
    if response.is_success:
        if call.ndjson:
            return call.parse([json.loads(line) for line in response.text.splitlines() if line.strip()])
        return call.parse(response.json())
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    raise error_from_response(response.status_code, body, response.headers.get("retry-after"))


def _transport_error(error: httpx.HTTPError, call: Call[Any]) -> StrataError:
    where = f"{call.method} {API_PREFIX}{call.path}"
    if isinstance(error, httpx.TimeoutException):
        return Timeout(f"{where} timed out: {error}", code="TIMEOUT")
    return ConnectionFailed(f"{where} failed: {error}", code="CONNECTION")


def _should_retry(call: Call[Any], error: StrataError, attempt: int, policy: RetryPolicy) -> bool:
    if not call.idempotent or attempt >= policy.attempts:
        return False
    return error.status in RETRY_STATUSES if error.status is not None else error.retryable


def send(client: httpx.Client, call: Call[T], policy: RetryPolicy) -> T:
    attempt = 0
    while True:
        attempt += 1
        try:
            response = client.request(call.method, API_PREFIX + call.path, **_request_args(call))
            return _read(call, response)
        except httpx.HTTPError as raw:
            error: StrataError = _transport_error(raw, call)
            error.__cause__ = raw
        except StrataError as failed:
            error = failed
        if not _should_retry(call, error, attempt, policy):
            raise error
        time.sleep(policy.delay(attempt, error))


async def asend(client: httpx.AsyncClient, call: Call[T], policy: RetryPolicy) -> T:
    attempt = 0
    while True:
        attempt += 1
        try:
            response = await client.request(call.method, API_PREFIX + call.path, **_request_args(call))
            return _read(call, response)
        except httpx.HTTPError as raw:
            error: StrataError = _transport_error(raw, call)
            error.__cause__ = raw
        except StrataError as failed:
            error = failed
        if not _should_retry(call, error, attempt, policy):
            raise error
        await asyncio.sleep(policy.delay(attempt, error))
