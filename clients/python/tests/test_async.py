"""The async client against the same real server."""

from __future__ import annotations

import asyncio

import pytest

from strata_memory import AsyncStrataClient, ForbiddenScope, NotFound

from .conftest import AGENT


async def test_async_round_trip(aclient: AsyncStrataClient) -> None:
    who = await aclient.whoami()
    assert who.agent == AGENT
    created = await aclient.remember("Async check: the VPN gateway is vpn2.internal", tags=["async"])
    assert created.action == "created"
    # Concurrent reads on one client.
    got, page, recalled = await asyncio.gather(
        aclient.get(created.id), aclient.list(tag="async"), aclient.recall("which VPN gateway", limit=2)
    )
    assert got.text.startswith("Async check") and page.total == 1 and recalled.results[0].record.id == created.id
    updated = await aclient.update(created.id, importance=0.9)
    assert updated.importance == 0.9
    assert [e.action for e in (await aclient.history(created.id)).entries] == ["create", "update"]
    assert (await aclient.provenance(created.id)).source.kind == "manual"
    assert [m.id async for m in aclient.iter_memories(tag="async")] == [created.id]
    ctx = await aclient.context(query="VPN gateway")
    assert "vpn2.internal" in ctx.text
    conv = await aclient.search_conversations("spotter", limit=1)
    assert conv.note is None
    assert (await aclient.stats()).memories >= 1
    assert (await aclient.forget(created.id)).deleted == 1
    with pytest.raises(NotFound):
        await aclient.get(created.id)
    with pytest.raises(ForbiddenScope):
        await aclient.list(scope="agent:someone-else")
    assert (await aclient.explain("VPN", limit=1)).explain is not None
