"""Errors as the real server reports them, mapped to the client's exception classes."""

from __future__ import annotations

import httpx
import pytest

from strata_memory import (
    ConnectionFailed,
    ForbiddenScope,
    InvalidArgument,
    InvalidScope,
    NotFound,
    RetryPolicy,
    StrataClient,
    StrataError,
    Unauthorized,
)
from strata_memory.errors import error_from_response, parse_retry_after

from .conftest import AGENT, Server


def test_bad_input_is_invalid_argument(client: StrataClient) -> None:
    with pytest.raises(InvalidArgument) as caught:
        client.remember("x", importance=2)
    assert caught.value.code == "INVALID_ARGUMENT" and caught.value.status == 400
    assert "importance" in caught.value.message
    with pytest.raises(InvalidArgument):
        client.recall("")
    with pytest.raises(InvalidArgument):
        client.list(order="sideways")


def test_unknown_id_is_not_found(client: StrataClient) -> None:
    for call in (client.get, client.history, client.provenance, client.forget):
        with pytest.raises(NotFound) as caught:
            call("01ZZZZZZZZZZZZZZZZZZZZZZZZ")
        assert caught.value.code == "NOT_FOUND" and caught.value.status == 404


def test_another_agents_scope_is_forbidden(client: StrataClient) -> None:
    with pytest.raises(ForbiddenScope) as caught:
        client.remember("Not mine to write", scope="agent:someone-else")
    assert caught.value.code == "FORBIDDEN_SCOPE" and caught.value.status == 403
    with pytest.raises(ForbiddenScope):
        client.recall("anything", scopes=["agent:someone-else"])
    with pytest.raises(ForbiddenScope):
        client.scenes(agent="someone-else")


def test_malformed_scope_is_invalid_scope(client: StrataClient) -> None:
    with pytest.raises(InvalidScope) as caught:
        client.list(scope="no such kind")
    assert caught.value.code == "INVALID_SCOPE" and isinstance(caught.value, InvalidArgument)


def test_bearer_token_required(owner_server: Server) -> None:
    with StrataClient(owner_server.url, token="wrong") as bad, pytest.raises(Unauthorized) as caught:
        bad.whoami()
    assert caught.value.status == 401 and caught.value.code == "UNAUTHORIZED"
    with StrataClient(owner_server.url, token=None) as none:
        with pytest.raises(Unauthorized):
            none.stats()
    with StrataClient(owner_server.url, token=owner_server.token) as good:
        assert good.whoami().owner is True


def test_no_server_is_connection_failed_after_retries() -> None:
    # A port nothing listens on (bound then released); reads retry, then raise.
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with StrataClient(f"http://127.0.0.1:{port}", retry=RetryPolicy(attempts=2, base_delay=0.01)) as c:
        with pytest.raises(ConnectionFailed) as caught:
            c.whoami()
    assert caught.value.status is None and isinstance(caught.value, StrataError)


def test_reads_retry_honouring_retry_after_writes_do_not() -> None:
    """A scripted transport (the only double here: the server never sends 503 on demand)."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        if len(seen) == 1:
            return httpx.Response(503, headers={"retry-after": "0"}, json={"error": {"code": "STORE_LOCKED", "message": "busy"}})
        return httpx.Response(200, json={"agent": None, "scopes": ["global"], "writeScope": "global", "owner": False})

    http = httpx.Client(transport=httpx.MockTransport(handler))
    with StrataClient("http://strata.test", http_client=http, retry=RetryPolicy(attempts=3, base_delay=5)) as c:
        assert c.whoami().scopes == ["global"]
    assert seen == ["GET", "GET"]
    http.close()

    seen.clear()
    http = httpx.Client(transport=httpx.MockTransport(lambda r: (seen.append(r.method), httpx.Response(503, json={"error": {"code": "STORE_LOCKED", "message": "busy"}}))[1]))
    with StrataClient("http://strata.test", http_client=http) as c, pytest.raises(StrataError) as caught:
        c.remember("a write is sent once")
    assert seen == ["POST"] and caught.value.code == "STORE_LOCKED"
    http.close()


def test_mapping_by_code_then_status() -> None:
    assert type(error_from_response(403, {"error": {"code": "FORBIDDEN_SCOPE", "message": "m"}})) is ForbiddenScope
    unknown = error_from_response(404, {"error": {"code": "SOMETHING_NEW", "message": "m", "hint": 1}})
    assert isinstance(unknown, NotFound) and unknown.code == "SOMETHING_NEW" and unknown.details == {"hint": 1}
    assert parse_retry_after("2.5") == 2.5 and parse_retry_after(None) is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
