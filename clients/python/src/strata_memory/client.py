"""The synchronous client. :class:`strata_memory.AsyncStrataClient` has the same methods, awaited."""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any, Iterator, Optional, Sequence, Union

import httpx

from . import _calls as c
from . import models as m
from ._calls import UNSET, Call, Scopes, T
from ._transport import RetryPolicy, base_url, headers, send, timeout_of

DEFAULT_URL = "http://127.0.0.1:7777"


class StrataClient:
    """A Strata server's HTTP API (``strata serve``).

    ``url`` defaults to ``$STRATA_URL`` else ``http://127.0.0.1:7777``; ``token`` to
    ``$STRATA_TOKEN`` (a per-agent token from ``strata tokens create``), else ``$STRATA_HTTP_TOKEN``. ``timeout`` is in seconds (or an ``httpx.Timeout``). Reads are retried
    per ``retry``; writes are sent once. The server acts as one caller (its ``--agent``): every
    request sees that caller's scopes, and may only narrow them.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        token: Optional[str] = None,
        timeout: Union[float, httpx.Timeout, None] = 30.0,
        retry: RetryPolicy = RetryPolicy(),
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        self.url = base_url(url or os.environ.get("STRATA_URL") or DEFAULT_URL)
        token = token if token is not None else os.environ.get("STRATA_TOKEN") or os.environ.get("STRATA_HTTP_TOKEN") or None
        self.retry = retry
        self._owns_client = http_client is None
        self._http = http_client or httpx.Client(base_url=self.url, timeout=timeout_of(timeout))
        if http_client is not None:
            self._http.base_url = httpx.URL(self.url)
        self._http.headers.update(headers(token))

    def _run(self, call: Call[T]) -> T:
        return send(self._http, call, self.retry)

    def close(self) -> None:
        if self._owns_client:
            self._http.close()

    def __enter__(self) -> "StrataClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the caller and the server ---------------------------------------------------------------
    def health(self) -> bool:
        return self._run(c.health())

    def whoami(self) -> m.WhoAmI:
        return self._run(c.whoami())

    def stats(self) -> m.Stats:
        return self._run(c.stats())

    def usage(self, *, since: Optional[Union[str, datetime]] = None) -> dict[str, Any]:
        return self._run(c.usage(since))

    # -- memories ---------------------------------------------------------------------------------
    def remember(
        self,
        text: str,
        *,
        scope: Optional[str] = None,
        category: Optional[str] = None,
        importance: Optional[float] = None,
        confidence: Optional[float] = None,
        tags: Optional[Sequence[str]] = None,
        valid_from: Optional[Union[str, datetime]] = None,
    ) -> m.RememberResult:
        """Store one memory; a duplicate (exact or near) is reported (``action == "duplicate"``), not stored twice."""
        return self._run(c.remember(text, scope=scope, category=category, importance=importance, confidence=confidence, tags=tags, valid_from=valid_from))

    add = remember

    def recall(
        self,
        query: str,
        *,
        scopes: Optional[Scopes] = None,
        limit: Optional[int] = None,
        categories: Optional[Sequence[str]] = None,
        include_history: Optional[bool] = None,
        min_score: Optional[float] = None,
        rerank: Optional[bool] = None,
        explain: bool = False,
    ) -> m.RecallResult:
        """Hybrid search over the caller's memories; ``explain=True`` adds every candidate's per-stage scores."""
        return self._run(c.recall(query, scopes=scopes, limit=limit, categories=categories, include_history=include_history, min_score=min_score, rerank=rerank, explain=explain))

    def explain(self, query: str, **options: Any) -> m.RecallResult:
        """``recall(query, explain=True, ...)``."""
        return self.recall(query, explain=True, **options)

    def list(
        self,
        *,
        scope: Optional[Scopes] = None,
        category: Optional[Union[str, Sequence[str]]] = None,
        tag: Optional[Union[str, Sequence[str]]] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        order: Optional[str] = None,
        include_history: Optional[bool] = None,
    ) -> m.MemoryPage:
        """One page of memories, newest first (``order="oldest"`` reverses); ``tag`` matches any of the tags given."""
        return self._run(c.list_memories(scope=scope, category=category, tag=tag, limit=limit, offset=offset, order=order, include_history=include_history))

    def iter_memories(self, *, page_size: int = 200, **filters: Any) -> Iterator[m.Memory]:
        """Every memory matching ``filters`` (the arguments of :meth:`list`), fetched page by page."""
        offset = 0
        while True:
            page = self.list(limit=page_size, offset=offset, **filters)
            yield from page.memories
            offset += len(page.memories)
            if not page.memories or offset >= page.total:
                return

    def get(self, memory_id: str) -> m.Memory:
        return self._run(c.get(memory_id))

    def update(
        self,
        memory_id: str,
        *,
        text: Optional[str] = None,
        scope: Optional[str] = None,
        category: Optional[str] = None,
        importance: Optional[float] = None,
        confidence: Optional[float] = None,
        tags: Optional[Sequence[str]] = None,
        valid_to: Any = UNSET,
    ) -> m.Memory:
        """Change a memory in place (kept in its history). ``tags`` replaces the tags; ``valid_to=None`` makes it current again."""
        return self._run(c.update(memory_id, text=text, scope=scope, category=category, importance=importance, confidence=confidence, tags=tags, valid_to=valid_to))

    def forget(self, memory_id: str) -> m.ForgetResult:
        return self._run(c.forget(memory_id))

    delete = forget

    def history(self, memory_id: str) -> m.History:
        return self._run(c.history(memory_id))

    def revert(self, memory_id: str) -> dict[str, Any]:
        """Undo the last change to a memory."""
        return self._run(c.revert(memory_id))

    def provenance(self, memory_id: str) -> m.Provenance:
        return self._run(c.provenance(memory_id))

    def export(self, *, scope: Optional[Scopes] = None, include_history: Optional[bool] = None) -> list[dict[str, Any]]:
        """Every memory of the caller's scopes as the export's JSONL records (the same lines ``strata import`` reads)."""
        return self._run(c.export(scope=scope, include_history=include_history))

    # -- sessions ---------------------------------------------------------------------------------
    def search_conversations(self, query: str, *, limit: Optional[int] = None, session_key: Optional[str] = None) -> m.ConversationSearchResult:
        return self._run(c.search_conversations(query, limit=limit, session_key=session_key))

    def context(self, *, query: Optional[str] = None, max_tokens: Optional[int] = None, session_key: Optional[str] = None) -> m.ContextResult:
        """The token-budgeted context block for the start of a session."""
        return self._run(c.context(query=query, max_tokens=max_tokens, session_key=session_key))

    def persona(self, *, agent: Optional[str] = None) -> m.Persona:
        return self._run(c.persona(agent))

    def scenes(self, *, agent: Optional[str] = None) -> m.Scenes:
        return self._run(c.scenes(agent))

    def scene(self, name: str, *, agent: Optional[str] = None) -> m.Scene:
        return self._run(c.scene(name, agent))
