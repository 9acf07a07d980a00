"""Every API call once, as data: method, path, query, body, whether it may be retried, and how
to read the answer. The sync and async clients only send these (``_transport.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Generic, Optional, Sequence, TypeVar, Union
from urllib.parse import quote

from . import models as m

T = TypeVar("T")

#: Marks "not given" where ``None`` means something (``valid_to=None`` makes a memory current again).
class _Unset:
    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()

Scopes = Union[str, Sequence[str]]


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[Any], T]
    params: list[tuple[str, str]] = field(default_factory=list)
    json: Optional[dict[str, Any]] = None
    #: Safe to repeat: reads only (GET, and the POSTs that only search).
    idempotent: bool = False
    #: Raw text lines (the export stream) instead of JSON.
    ndjson: bool = False


def _id(memory_id: str) -> str:
    if not isinstance(memory_id, str) or not memory_id:
        raise ValueError("memory id must be a non-empty string")
    return quote(memory_id, safe="")


def _iso(value: Union[str, datetime]) -> str:
    if isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise ValueError("datetimes sent to Strata must be timezone-aware (Strata stores UTC)")
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def _body(**fields: Any) -> dict[str, Any]:
    """The JSON body: camelCase keys, fields left at None/UNSET left out."""
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if value is None or value is UNSET:
            continue
        head, *rest = key.split("_")
        out[head + "".join(w.title() for w in rest)] = value
    return out


def _list(value: Optional[Scopes]) -> Optional[list[str]]:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def _params(**values: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, value in values.items():
        if value is None:
            continue
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            out.append((key, ("true" if item else "false") if isinstance(item, bool) else str(item)))
    return out


def health() -> Call[bool]:
    return Call("GET", "/health", lambda b: bool(b.get("ok")), idempotent=True)


def whoami() -> Call[m.WhoAmI]:
    return Call("GET", "/whoami", m.WhoAmI.model_validate, idempotent=True)


def stats() -> Call[m.Stats]:
    return Call("GET", "/stats", m.Stats.model_validate, idempotent=True)


def usage(since: Optional[Union[str, datetime]]) -> Call[dict[str, Any]]:
    return Call("GET", "/usage", dict, params=_params(since=_iso(since) if since else None), idempotent=True)


def remember(
    text: str,
    *,
    scope: Optional[str],
    category: Optional[str],
    importance: Optional[float],
    confidence: Optional[float],
    tags: Optional[Sequence[str]],
    valid_from: Optional[Union[str, datetime]],
) -> Call[m.RememberResult]:
    body = _body(
        text=text,
        scope=scope,
        category=category,
        importance=importance,
        confidence=confidence,
        tags=list(tags) if tags is not None else None,
        valid_from=_iso(valid_from) if valid_from else None,
    )
    return Call("POST", "/memories", m.RememberResult.model_validate, json=body)


def recall(
    query: str,
    *,
    scopes: Optional[Scopes],
    limit: Optional[int],
    categories: Optional[Sequence[str]],
    include_history: Optional[bool],
    min_score: Optional[float],
    rerank: Optional[bool],
    explain: bool,
) -> Call[m.RecallResult]:
    body = _body(
        query=query,
        scopes=_list(scopes),
        limit=limit,
        categories=list(categories) if categories is not None else None,
        include_history=include_history,
        min_score=min_score,
        rerank=rerank,
    )
    if explain:
        body["explain"] = True
    return Call("POST", "/recall", m.RecallResult.model_validate, json=body, idempotent=True)


def list_memories(
    *,
    scope: Optional[Scopes],
    category: Optional[Union[str, Sequence[str]]],
    tag: Optional[Union[str, Sequence[str]]],
    limit: Optional[int],
    offset: Optional[int],
    order: Optional[str],
    include_history: Optional[bool],
) -> Call[m.MemoryPage]:
    params = _params(
        scope=_list(scope),
        category=_list(category),
        tag=_list(tag),
        limit=limit,
        offset=offset,
        order=order,
        history=include_history,
    )
    return Call("GET", "/memories", m.MemoryPage.model_validate, params=params, idempotent=True)


def get(memory_id: str) -> Call[m.Memory]:
    return Call("GET", f"/memories/{_id(memory_id)}", m.Memory.model_validate, idempotent=True)


def update(
    memory_id: str,
    *,
    text: Optional[str],
    scope: Optional[str],
    category: Optional[str],
    importance: Optional[float],
    confidence: Optional[float],
    tags: Optional[Sequence[str]],
    valid_to: Any,
) -> Call[m.Memory]:
    body = _body(
        text=text,
        scope=scope,
        category=category,
        importance=importance,
        confidence=confidence,
        tags=list(tags) if tags is not None else None,
    )
    if valid_to is not UNSET:
        body["validTo"] = None if valid_to is None else _iso(valid_to)
    return Call("PATCH", f"/memories/{_id(memory_id)}", m.Memory.model_validate, json=body)


def forget(memory_id: str) -> Call[m.ForgetResult]:
    return Call("DELETE", f"/memories/{_id(memory_id)}", m.ForgetResult.model_validate)


def history(memory_id: str) -> Call[m.History]:
    return Call("GET", f"/memories/{_id(memory_id)}/history", m.History.model_validate, idempotent=True)


def revert(memory_id: str) -> Call[dict[str, Any]]:
    return Call("POST", f"/memories/{_id(memory_id)}/revert", dict)


def provenance(memory_id: str) -> Call[m.Provenance]:
    return Call("GET", f"/memories/{_id(memory_id)}/provenance", m.Provenance.model_validate, idempotent=True)


def search_conversations(query: str, *, limit: Optional[int], session_key: Optional[str]) -> Call[m.ConversationSearchResult]:
    body = _body(query=query, limit=limit, session_key=session_key)
    return Call("POST", "/conversations/search", m.ConversationSearchResult.model_validate, json=body, idempotent=True)


def context(*, query: Optional[str], max_tokens: Optional[int], session_key: Optional[str]) -> Call[m.ContextResult]:
    params = _params(query=query, maxTokens=max_tokens, sessionKey=session_key)
    return Call("GET", "/context", m.ContextResult.model_validate, params=params, idempotent=True)


def export(*, scope: Optional[Scopes], include_history: Optional[bool]) -> Call[Any]:
    params = _params(scope=_list(scope), history=include_history)
    return Call("GET", "/export", lambda lines: lines, params=params, idempotent=True, ndjson=True)


def persona(agent: Optional[str]) -> Call[m.Persona]:
    return Call("GET", "/persona", m.Persona.model_validate, params=_params(agent=agent), idempotent=True)


def scenes(agent: Optional[str]) -> Call[m.Scenes]:
    return Call("GET", "/scenes", m.Scenes.model_validate, params=_params(agent=agent), idempotent=True)


def scene(name: str, agent: Optional[str]) -> Call[m.Scene]:
    return Call("GET", f"/scenes/{quote(name, safe='')}", m.Scene.model_validate, params=_params(agent=agent), idempotent=True)
