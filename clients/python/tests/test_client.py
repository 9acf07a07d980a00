"""The sync client against a real server: every method, with the server's own answers checked."""

from __future__ import annotations

from datetime import datetime, timezone

from strata_memory import StrataClient
from strata_memory.models import Memory

from .conftest import AGENT, SHARED_TRANSCRIPTS, Server


def test_whoami_health_and_stats(client: StrataClient) -> None:
    assert client.health() is True
    who = client.whoami()
    assert who.agent == AGENT
    assert who.scopes == ["global", f"agent:{AGENT}", "custom:shared"]
    assert who.write_scope == f"agent:{AGENT}" and who.owner is False
    stats = client.stats()
    assert stats.agent == AGENT and stats.embedder.dimensions == 512
    assert stats.store.provider == "lancedb"


def test_remember_get_update_history_revert_forget(client: StrataClient) -> None:
    created = client.remember("The staging database runs PostgreSQL 16 on port 6432", category="fact", importance=0.8, tags=["infra"])
    assert created.action == "created" and created.record is not None
    memory = client.get(created.id)
    assert isinstance(memory, Memory)
    assert (memory.text, memory.category, memory.scope, memory.importance, memory.tags) == (
        "The staging database runs PostgreSQL 16 on port 6432",
        "fact",
        f"agent:{AGENT}",
        0.8,
        ["infra"],
    )
    assert memory.current and memory.source.kind == "manual" and memory.created_at.tzinfo is not None

    # The same statement again is reported, not stored twice.
    again = client.add("The staging database runs PostgreSQL 16 on port 6432.")
    assert again.action == "duplicate" and again.id == created.id and again.duplicate_of and again.duplicate_of.kind == "exact"

    updated = client.update(created.id, text="The staging database runs PostgreSQL 17 on port 6432", tags=["infra", "db"])
    assert updated.text.endswith("PostgreSQL 17 on port 6432") and updated.tags == ["infra", "db"]
    expired = client.update(created.id, valid_to=datetime(2030, 1, 1, tzinfo=timezone.utc))
    assert expired.valid_to == datetime(2030, 1, 1, tzinfo=timezone.utc)
    current = client.update(created.id, valid_to=None)
    assert current.valid_to is None

    history = client.history(created.id)
    assert [e.action for e in history.entries][:2] == ["create", "update"]
    assert history.entries[1].previous is not None and "PostgreSQL 16" in history.entries[1].previous.text

    client.revert(created.id)  # undoes the last change (validTo back to 2030)
    assert client.get(created.id).valid_to is not None

    gone = client.forget(created.id)
    assert gone.deleted == 1 and gone.id == created.id


def test_remember_into_a_granted_scope_with_valid_from(client: StrataClient) -> None:
    when = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
    created = client.remember("Quarterly planning happens in the Lisbon office", scope="custom:shared", category="event", valid_from=when)
    assert created.record and created.record.scope == "custom:shared" and created.record.valid_from == when


def test_recall_and_explain(client: StrataClient) -> None:
    client.remember("Maria prefers dark roast coffee without sugar", category="preference", tags=["recall-test"])
    client.remember("The deploy pipeline is triggered by tagging a release", category="fact", tags=["recall-test"])
    result = client.recall("what coffee does Maria like", limit=3)
    assert result.results and "coffee" in result.results[0].record.text
    top = result.results[0]
    assert 0 < top.score <= 1 and top.scores.final == top.score and result.explain is None
    assert "total" in result.timings

    explained = client.explain("what coffee does Maria like", limit=3, scopes=[f"agent:{AGENT}"])
    assert explained.explain is not None
    assert explained.explain["candidates"][0]["id"] == explained.results[0].record.id
    assert explained.explain["filter"]["scopes"] == [f"agent:{AGENT}"]

    only_rules = client.recall("coffee", categories=["rule"])
    assert all(h.record.category == "rule" for h in only_rules.results)


def test_list_pages_and_filters(client: StrataClient) -> None:
    # Distinct statements: near-identical ones would be deduplicated or superseded (Strata's write path).
    texts = [
        "Paging: the build cache lives on the fast NVMe volume",
        "Paging: Friday deploys need a second reviewer",
        "Paging: the mobile app is written in Kotlin and Swift",
        "Paging: invoices are archived to cold storage after a year",
        "Paging: the team lunch budget was raised in March",
    ]
    ids = [client.remember(t, tags=["paging"], category="fact").id for t in texts]
    page = client.list(tag="paging", limit=2)
    assert page.total == 5 and page.limit == 2 and len(page.memories) == 2
    assert [m.id for m in page.memories] == ids[::-1][:2]  # newest first
    oldest = client.list(tag="paging", limit=2, offset=1, order="oldest")
    assert [m.id for m in oldest.memories] == ids[1:3]
    assert [m.id for m in client.iter_memories(tag="paging", page_size=2)] == ids[::-1]
    assert client.list(tag="paging", category="rule").total == 0


def test_export(client: StrataClient) -> None:
    created = client.remember("Export check: backups rotate every 14 days", tags=["export"])
    lines = client.export(scope=f"agent:{AGENT}")
    assert any(line.get("id") == created.id for line in lines)


def test_provenance_of_a_manual_memory(client: StrataClient) -> None:
    created = client.remember("Provenance check: the on-call phone is in drawer three")
    prov = client.provenance(created.id)
    assert prov.id == created.id and prov.source.kind == "manual" and prov.source.agent_id == AGENT
    assert prov.messages == [] and prov.missing == []


def test_conversation_search_over_real_transcripts(client: StrataClient, server: Server) -> None:
    if not SHARED_TRANSCRIPTS.is_dir():
        import pytest

        pytest.skip("../shared fixtures not present")
    found = client.search_conversations("spotter", limit=3)
    assert found.note is None and 0 < len(found.results) <= 3
    hit = found.results[0]
    assert hit.record.agent_id == AGENT and hit.record.host == "claude-code" and "spotter" in hit.record.content.lower()
    scoped = client.search_conversations("spotter", limit=2, session_key=hit.record.session_key)
    assert all(h.record.session_key == hit.record.session_key for h in scoped.results)


def test_context_block(client: StrataClient) -> None:
    client.remember("Context check: Ravi is the tech lead of the payments team", category="entity")
    ctx = client.context(query="who leads payments", max_tokens=400)
    assert "Ravi" in ctx.text and 0 < ctx.tokens <= 400 and ctx.memories >= 1


def test_usage_persona_scenes(client: StrataClient) -> None:
    assert isinstance(client.usage(), dict)
    assert client.scenes().agent == AGENT
    assert client.scenes().scenes == []
