"""The LangGraph store on a real server: BaseStore's public API, and a real LangGraph graph whose
nodes read and write long-term memory through it."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("langgraph")

from langgraph.graph import START, StateGraph  # noqa: E402
from langgraph.store.base import BaseStore  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402

from strata_memory import StrataClient  # noqa: E402
from strata_memory.langgraph import StrataStore, namespace_to_scope, scope_to_namespace  # noqa: E402

from .conftest import Server  # noqa: E402


@pytest.fixture()
def store(owner_server: Server):
    s = StrataStore(owner_server.url, token=owner_server.token)
    yield s
    s.close()


def _ns(*labels: str) -> tuple[str, ...]:
    # A fresh namespace per test: the server lives for the whole session.
    return (f"t{uuid.uuid4().hex[:8]}", *labels)


def test_namespace_scope_mapping_is_reversible() -> None:
    for ns in [("memories", "alice"), ("a b", "ü/ñ", ".hidden", "x:y"), ("users", "550e8400-e29b-41d4-a716-446655440000")]:
        scope = namespace_to_scope(ns)
        assert scope.startswith("custom:lg/") and scope_to_namespace(scope) == ns
    assert namespace_to_scope(("memories", "alice")) == "custom:lg/memories/alice"
    assert namespace_to_scope(("bob",), root="user:") == "user:bob" and scope_to_namespace("user:bob", root="user:") == ("bob",)
    assert scope_to_namespace("agent:ops") is None


def test_put_get_update_delete(store: StrataStore, owner_server: Server) -> None:
    ns = _ns("memories", "alice")
    store.put(ns, "pref-1", {"content": "Alice prefers window seats on long flights"})
    item = store.get(ns, "pref-1")
    assert item is not None and item.value == {"content": "Alice prefers window seats on long flights"}
    assert item.namespace == ns and item.key == "pref-1"
    # Stored as a plain memory in the namespace's scope, readable by every other Strata host.
    with StrataClient(owner_server.url, token=owner_server.token) as c:
        [memory] = c.list(scope=namespace_to_scope(ns)).memories
        assert memory.text == "Alice prefers window seats on long flights"
        assert set(memory.tags) == {"langgraph", "lg:key=pref-1", "lg:field=content"}

    store.put(ns, "pref-1", {"content": "Alice prefers aisle seats since her knee surgery"})
    assert store.get(ns, "pref-1").value == {"content": "Alice prefers aisle seats since her knee surgery"}
    with StrataClient(owner_server.url, token=owner_server.token) as c:
        assert c.list(scope=namespace_to_scope(ns)).total == 1  # updated in place, kept in history
        assert len(c.history(memory.id).entries) == 2

    structured = {"name": "Alice", "languages": ["en", "pt"], "age": 41, "nested": {"team": "payments"}}
    store.put(ns, "profile", structured)
    assert store.get(ns, "profile").value == structured

    store.delete(ns, "pref-1")
    assert store.get(ns, "pref-1") is None
    assert store.get(ns, "never-written") is None


def test_same_statement_under_two_keys_shares_one_memory(store: StrataStore, owner_server: Server) -> None:
    ns = _ns("facts")
    store.put(ns, "a", {"content": "The office wifi password rotates monthly"})
    store.put(ns, "b", {"content": "The office wifi password rotates monthly"})
    assert store.get(ns, "a").value == store.get(ns, "b").value
    with StrataClient(owner_server.url, token=owner_server.token) as c:
        assert c.list(scope=namespace_to_scope(ns)).total == 1
    assert sorted(i.key for i in store.search(ns)) == ["a", "b"]
    store.delete(ns, "a")
    assert store.get(ns, "a") is None and store.get(ns, "b") is not None
    store.delete(ns, "b")
    with StrataClient(owner_server.url, token=owner_server.token) as c:
        assert c.list(scope=namespace_to_scope(ns)).total == 0


def test_search_semantic_prefix_filter_and_namespace_isolation(store: StrataStore) -> None:
    root = _ns()
    alice, bob = (*root, "users", "alice"), (*root, "users", "bob")
    store.put(alice, "1", {"content": "Alice is allergic to peanuts"})
    store.put(alice, "2", {"content": "Alice runs the Berlin marathon every year"})
    store.put(bob, "1", {"content": "Bob is allergic to shellfish"})
    store.put(bob, "2", {"kind": "pet", "name": "Rex", "age": 3})

    hits = store.search(alice, query="food allergies")
    assert hits and hits[0].value == {"content": "Alice is allergic to peanuts"} and hits[0].score is not None
    assert all(h.namespace == alice for h in hits)  # Bob's shellfish never shows in Alice's namespace

    both = store.search((*root, "users"), query="allergic to", limit=10)
    assert {h.namespace for h in both[:2]} == {alice, bob}
    assert [h.key for h in store.search((*root, "users"), filter={"kind": "pet", "age": {"$gte": 3}})] == ["2"]
    assert store.search((*root, "users"), filter={"age": {"$gt": 3}}) == []
    assert len(store.search(root, limit=2)) == 2 and len(store.search(root, limit=10, offset=3)) == 1

    assert store.list_namespaces(prefix=root) == [alice, bob]
    assert store.list_namespaces(prefix=root, max_depth=len(root) + 1) == [(*root, "users")]
    assert store.list_namespaces(prefix=root, suffix=("bob",)) == [bob]


async def test_async_api(store: StrataStore) -> None:
    ns = _ns("async")
    await store.aput(ns, "k", {"content": "Async store check: the printer is on floor two"})
    assert (await store.aget(ns, "k")).value["content"].startswith("Async store check")
    assert [h.key for h in await store.asearch(ns, query="where is the printer")] == ["k"]
    assert await store.alist_namespaces(prefix=ns) == [ns]
    await store.adelete(ns, "k")
    assert await store.aget(ns, "k") is None


def test_a_real_langgraph_graph_remembers_across_threads(store: StrataStore) -> None:
    users = _ns("users")

    class State(TypedDict):
        user: str
        message: str
        reply: str

    def remember(state: State, *, store: BaseStore) -> dict:
        if state["message"].startswith("remember:"):
            fact = state["message"].removeprefix("remember:").strip()
            store.put((*users, state["user"]), str(uuid.uuid4()), {"content": fact})
        return {}

    def answer(state: State, *, store: BaseStore) -> dict:
        hits = store.search((*users, state["user"]), query=state["message"], limit=1)
        return {"reply": hits[0].value["content"] if hits else "I don't know."}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "answer")
    graph = builder.compile(store=store)

    graph.invoke({"user": "maya", "message": "remember: Maya's favourite editor is Helix", "reply": ""})
    out = graph.invoke({"user": "maya", "message": "which editor does Maya like?", "reply": ""})
    assert out["reply"] == "Maya's favourite editor is Helix"
    # Another user's thread sees nothing of Maya's.
    assert graph.invoke({"user": "omar", "message": "which editor does Maya like?", "reply": ""})["reply"] == "I don't know."
