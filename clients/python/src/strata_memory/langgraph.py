"""LangGraph's long-term memory store (``langgraph.store.base.BaseStore``) on a Strata server.

The mapping (reversible; see the README's "LangGraph" section):

- a namespace is a Strata scope: ``("memories", "alice")`` -> ``custom:lg/memories/alice``
  (``scope_root`` sets the prefix; characters outside ``A-Za-z0-9._@-`` are written ``:XX`` per
  UTF-8 byte), so namespaces are isolated the way Strata isolates scopes;
- an item is a memory in that scope tagged ``langgraph`` and ``lg:key=<key>``;
- a value with one string field (``{"content": "..."}``, LangMem's shape) is stored as that text,
  with the field's name in a ``lg:field=<name>`` tag, so it reads like any memory and recall
  searches it; any other value is stored as its JSON text, tagged ``lg:json``.

The logic is written once as generators that yield API calls (``_calls.Call``) and receive their
results; :meth:`StrataStore.batch` drives them with the sync client, :meth:`abatch` with the async one.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any, Generator, Iterable, Optional, Sequence, TypeVar, Union

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from . import _calls as c
from . import models as m
from ._calls import Call
from .async_client import AsyncStrataClient
from .client import StrataClient
from .errors import NotFound, StrataError

__all__ = ["StrataStore", "namespace_to_scope", "scope_to_namespace"]

MARK = "langgraph"
KEY_TAG = "lg:key="
FIELD_TAG = "lg:field="
JSON_TAG = "lg:json"
TAG_MAX = 64
#: Scopes per request and recall results per request (the server's default limits).
SCOPES_PER_REQUEST = 32
RECALL_MAX = 100
LIST_PAGE = 1000

_SAFE = re.compile(r"[A-Za-z0-9._@-]")
_ESCAPED = re.compile(r"(?::[0-9A-F]{2})+")

R = TypeVar("R")
Flow = Generator[Call[Any], Any, R]


def _encode_label(label: str) -> str:
    out = []
    for i, ch in enumerate(label):
        # A scope id must start with a letter or digit, so a leading '.', '_', '@' or '-' is escaped too.
        keep = _SAFE.fullmatch(ch) is not None and (i > 0 or ch.isalnum())
        out.append(ch if keep and ch.isascii() else "".join(f":{b:02X}" for b in ch.encode("utf-8")))
    return "".join(out)


def _decode_label(text: str) -> str:
    return _ESCAPED.sub(lambda mt: bytes.fromhex(mt.group(0).replace(":", "")).decode("utf-8"), text)


def _root_prefix(root: str) -> str:
    return root if root.endswith(":") else root + "/"


def namespace_to_scope(namespace: Sequence[str], root: str = "custom:lg") -> str:
    """The Strata scope holding a namespace's items."""
    if not namespace:
        raise InvalidNamespaceError("A namespace needs at least one label.")
    labels = [_encode_label(label) for label in namespace]
    scope = _root_prefix(root) + "/".join(labels)
    if len(scope.split(":", 1)[1]) > 128:
        raise InvalidNamespaceError(f"Namespace {tuple(namespace)!r} is too long for a Strata scope (at most 128 characters once encoded: {scope!r}).")
    return scope


def scope_to_namespace(scope: str, root: str = "custom:lg") -> Optional[tuple[str, ...]]:
    """The namespace a scope holds, or None for a scope outside ``root``."""
    prefix = _root_prefix(root)
    if not scope.startswith(prefix) or len(scope) == len(prefix):
        return None
    return tuple(_decode_label(label) for label in scope[len(prefix):].split("/"))


def _key_tag(key: str) -> str:
    if not isinstance(key, str) or not key or key != key.strip() or len(KEY_TAG) + len(key) > TAG_MAX:
        raise ValueError(f"Item keys are stored as Strata tags: 1 to {TAG_MAX - len(KEY_TAG)} characters, no leading or trailing spaces (got {key!r}).")
    return KEY_TAG + key


def _encode_value(value: dict[str, Any]) -> tuple[str, list[str]]:
    """The memory text for a value and the tag saying how to read it back."""
    if len(value) == 1:
        (name, text), = value.items()
        if isinstance(text, str) and text.strip() and len(FIELD_TAG) + len(name) <= TAG_MAX and name == name.strip() and name:
            return text, [FIELD_TAG + name]
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": ")), [JSON_TAG]


def _decode_value(memory: m.Memory) -> dict[str, Any]:
    for tag in memory.tags:
        if tag.startswith(FIELD_TAG):
            return {tag[len(FIELD_TAG):]: memory.text}
    if JSON_TAG in memory.tags:
        try:
            value = json.loads(memory.text)
            if isinstance(value, dict):
                return value
        except ValueError:
            pass
    return {"content": memory.text}


def _keys(memory: m.Memory) -> list[str]:
    return [t[len(KEY_TAG):] for t in memory.tags if t.startswith(KEY_TAG)]


def _is_item(memory: m.Memory) -> bool:
    return MARK in memory.tags and bool(_keys(memory))


def _own_tags(memory: m.Memory) -> list[str]:
    """Tags that are not the adapter's (e.g. ``suspected-injection``): kept on every rewrite."""
    return [t for t in memory.tags if t != MARK and t != JSON_TAG and not t.startswith((KEY_TAG, FIELD_TAG))]


def _item(memory: m.Memory, namespace: tuple[str, ...], key: str, score: Optional[float] = None, search: bool = False) -> Item:
    value = _decode_value(memory)
    if search:
        return SearchItem(namespace=namespace, key=key, value=value, created_at=memory.created_at, updated_at=memory.updated_at, score=score)
    return Item(namespace=namespace, key=key, value=value, created_at=memory.created_at, updated_at=memory.updated_at)


_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _lookup(value: dict[str, Any], path: str) -> Any:
    current: Any = value
    for part in path.split("."):
        if not isinstance(current, dict) or part not in current:
            return None
        current = current[part]
    return current


def _matches(value: dict[str, Any], filter: Optional[dict[str, Any]]) -> bool:
    for path, cond in (filter or {}).items():
        actual = _lookup(value, path)
        if isinstance(cond, dict) and cond and all(k.startswith("$") for k in cond):
            for op, expected in cond.items():
                if op not in _OPS:
                    raise ValueError(f"Unsupported filter operator {op!r}: use one of {', '.join(_OPS)}.")
                try:
                    if not _OPS[op](actual, expected):
                        return False
                except TypeError:
                    return False
        elif actual != cond:
            return False
    return True


def _path_matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path):]
    return all(p == "*" or p == n for p, n in zip(path, part))


class StrataStore(BaseStore):
    """``BaseStore`` over a Strata server: ``StrataStore(url, token=...)`` or ``StrataStore(client=..., async_client=...)``.

    The server's caller must hold the namespaces' scopes: run ``strata serve --all-scopes`` (owner
    mode, behind a token when not on loopback) or grant them (``scopes.agentGrants``); otherwise a
    put raises ``ForbiddenScope``. TTLs and per-item index settings are not supported (Strata
    indexes every memory for hybrid search) and are ignored.
    """

    supports_ttl = False

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        token: Optional[str] = None,
        client: Optional[StrataClient] = None,
        async_client: Optional[AsyncStrataClient] = None,
        scope_root: str = "custom:lg",
        timeout: float = 30.0,
    ) -> None:
        if scope_root.count(":") != 1 or not re.fullmatch(r"(agent|user|project|session|custom):[A-Za-z0-9._@/-]*", scope_root):
            raise ValueError(f"scope_root must be a scope kind and an optional prefix, e.g. 'custom:lg' or 'user:' (got {scope_root!r}).")
        self.scope_root = scope_root
        base = client.url if client is not None else async_client.url if async_client is not None else url
        self._client = client or StrataClient(base, token=token, timeout=timeout)
        self._async_client = async_client or AsyncStrataClient(self._client.url, token=token, timeout=timeout)

    # -- BaseStore --------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._drive(self._op(op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return [await self._adrive(self._op(op)) for op in ops]

    def close(self) -> None:
        self._client.close()

    async def aclose(self) -> None:
        await self._async_client.aclose()

    # -- drivers: one flow, two clients -------------------------------------------------------------
    def _drive(self, flow: Flow[R]) -> R:
        try:
            call = next(flow)
            while True:
                try:
                    result = self._client._run(call)
                except StrataError as error:
                    call = flow.throw(error)
                else:
                    call = flow.send(result)
        except StopIteration as done:
            return done.value

    async def _adrive(self, flow: Flow[R]) -> R:
        try:
            call = next(flow)
            while True:
                try:
                    result = await self._async_client._run(call)
                except StrataError as error:
                    call = flow.throw(error)
                else:
                    call = flow.send(result)
        except StopIteration as done:
            return done.value

    # -- the operations, as flows -------------------------------------------------------------------
    def _op(self, op: Op) -> Flow[Result]:
        if isinstance(op, GetOp):
            return self._get(tuple(op.namespace), op.key)
        if isinstance(op, PutOp):
            return self._put(tuple(op.namespace), op.key, op.value)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise ValueError(f"Unknown store operation {type(op).__name__}.")

    def _find(self, scope: str, key: str) -> Flow[Optional[m.Memory]]:
        """The memory holding an item: superseded ones included (a later put may have superseded it
        as a changed fact, yet the item still exists); the current one wins."""
        page: m.MemoryPage = yield c.list_memories(scope=scope, category=None, tag=_key_tag(key), limit=50, offset=None, order="newest", include_history=True)
        found = [mem for mem in page.memories if MARK in mem.tags and key in _keys(mem)]
        found.sort(key=lambda mem: (mem.current, mem.updated_at), reverse=True)
        return found[0] if found else None

    def _get(self, namespace: tuple[str, ...], key: str) -> Flow[Optional[Item]]:
        memory = yield from self._find(namespace_to_scope(namespace, self.scope_root), key)
        return _item(memory, namespace, key) if memory else None

    def _put(self, namespace: tuple[str, ...], key: str, value: Optional[dict[str, Any]]) -> Flow[None]:
        scope = namespace_to_scope(namespace, self.scope_root)
        key_tag = _key_tag(key)
        existing = yield from self._find(scope, key)
        if existing is not None:
            others = [k for k in _keys(existing) if k != key]
            if value is not None and not others:
                text, how = _encode_value(dict(value))
                tags = [MARK, key_tag, *how, *_own_tags(existing)]
                if existing.text == text and existing.tags == tags and existing.current:
                    return None
                yield c.update(existing.id, text=text, scope=None, category=None, importance=None, confidence=None, tags=tags, valid_to=None)
                return None
            # The memory also holds other keys' items: this key leaves it (and a delete removes only
            # the key, unless it was the last one).
            if others:
                keep = [t for t in existing.tags if t != key_tag]
                yield c.update(existing.id, text=None, scope=None, category=None, importance=None, confidence=None, tags=keep, valid_to=c.UNSET)
            else:
                try:
                    yield c.forget(existing.id)
                except NotFound:
                    pass  # deleted meanwhile: the outcome asked for
        if value is None:
            return None
        text, how = _encode_value(dict(value))
        created: m.RememberResult = yield c.remember(text, scope=scope, category=None, importance=None, confidence=None, tags=[MARK, key_tag, *how], valid_from=None)
        if created.action == "duplicate":
            # Strata already holds this statement in the namespace (same text, or a near-identical
            # one): the item shares that memory instead of storing it twice.
            same: m.Memory = yield c.get(created.id)
            tags = list(dict.fromkeys([*same.tags, MARK, key_tag, *([] if _is_item(same) else how)]))
            yield c.update(same.id, text=None, scope=None, category=None, importance=None, confidence=None, tags=tags, valid_to=c.UNSET)
        return None

    def _scopes(self) -> Flow[dict[str, tuple[str, ...]]]:
        """Every scope of this store the caller can read that holds something, with its namespace."""
        stats: m.Stats = yield c.stats()
        out: dict[str, tuple[str, ...]] = {}
        for scope, count in stats.by_scope.items():
            namespace = scope_to_namespace(scope, self.scope_root)
            if namespace is not None and count > 0:
                out[scope] = namespace
        return out

    def _search(self, op: SearchOp) -> Flow[list[SearchItem]]:
        prefix = tuple(op.namespace_prefix)
        scopes = {s: ns for s, ns in (yield from self._scopes()).items() if ns[: len(prefix)] == prefix}
        chunks = [sorted(scopes)[i : i + SCOPES_PER_REQUEST] for i in range(0, len(scopes), SCOPES_PER_REQUEST)]
        found: list[tuple[float, datetime, SearchItem]] = []
        for chunk in chunks:
            if op.query:
                result: m.RecallResult = yield c.recall(op.query, scopes=chunk, limit=RECALL_MAX, categories=None, include_history=None, min_score=None, rerank=None, explain=False)
                hits = [(hit.record, hit.score) for hit in result.results]
            else:
                hits = []
                offset = 0
                while True:
                    page: m.MemoryPage = yield c.list_memories(scope=chunk, category=None, tag=MARK, limit=LIST_PAGE, offset=offset, order="newest", include_history=None)
                    hits.extend((mem, None) for mem in page.memories)
                    offset += len(page.memories)
                    if not page.memories or offset >= page.total:
                        break
            for memory, score in hits:
                if not _is_item(memory) or memory.scope not in scopes or not _matches(_decode_value(memory), op.filter):
                    continue
                for key in _keys(memory):
                    item = _item(memory, scopes[memory.scope], key, score=score, search=True)
                    found.append((score if score is not None else 0.0, memory.updated_at, item))  # type: ignore[arg-type]
        found.sort(key=lambda f: (f[0], f[1]), reverse=True)
        return [item for _, _, item in found[op.offset : op.offset + op.limit]]

    def _list_namespaces(self, op: ListNamespacesOp) -> Flow[list[tuple[str, ...]]]:
        namespaces = set()
        for namespace in (yield from self._scopes()).values():
            if all(_path_matches(namespace, cond) for cond in op.match_conditions or ()):
                namespaces.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        return sorted(namespaces)[op.offset : op.offset + op.limit]
