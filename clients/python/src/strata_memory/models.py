"""Typed views of the API's JSON (src/spec, src/core/ops). Fields are snake_case in Python and
camelCase on the wire; fields a newer server adds are kept (``extra="allow"``), never an error."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

Category = Literal["preference", "fact", "decision", "entity", "event", "rule", "lesson", "other"]
CATEGORIES: tuple[str, ...] = ("preference", "fact", "decision", "entity", "event", "rule", "lesson", "other")


class Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow", frozen=False)


class MemorySource(Model):
    kind: str
    agent_id: Optional[str] = None
    session_key: Optional[str] = None
    message_ids: Optional[list[str]] = None


class Memory(Model):
    id: str
    text: str
    category: str
    scope: str
    importance: float
    confidence: float
    tags: list[str] = Field(default_factory=list)
    source: MemorySource
    created_at: datetime
    updated_at: datetime
    valid_from: datetime
    valid_to: Optional[datetime] = None
    supersedes: Optional[str] = None
    superseded_by: Optional[str] = None
    access_count: int = 0
    last_accessed_at: Optional[datetime] = None
    content_hash: str = ""
    embedding_model: str = ""

    @property
    def current(self) -> bool:
        return self.valid_to is None


class DuplicateOf(Model):
    kind: Literal["exact", "near"]
    similarity: Optional[float] = None


class RememberResult(Model):
    action: Literal["created", "duplicate"]
    #: The new memory's id, or the one it duplicates.
    id: str
    duplicate_of: Optional[DuplicateOf] = None
    record: Optional[Memory] = None
    #: Set when the new memory replaced a near-identical one stating a different fact.
    supersedes: Optional[str] = None
    redactions: int = 0
    flags: list[str] = Field(default_factory=list)


class RecallScores(Model):
    lexical: Optional[float] = None
    vector: Optional[float] = None
    fused: float
    rerank: Optional[float] = None
    final: float


class RecallHit(Model):
    record: Memory
    score: float
    scores: RecallScores


class RecallResult(Model):
    query: str
    results: list[RecallHit]
    #: Per-candidate, per-stage explanation (``explain=True``); kept as the server's JSON.
    explain: Optional[dict[str, Any]] = None
    timings: dict[str, float] = Field(default_factory=dict)


class MemoryPage(Model):
    memories: list[Memory]
    limit: int
    offset: int
    total: int


class ForgetResult(Model):
    deleted: int
    id: str


class HistoryEntry(Model):
    entry_id: str
    id: str
    at: datetime
    actor: str
    action: str
    reason: str = ""
    previous: Optional[Memory] = None
    #: A summary of the record after the change (text, scope, category, validTo...).
    next: Optional[dict[str, Any]] = None
    related: Optional[list[dict[str, Any]]] = None
    reverts: Optional[str] = None


class History(Model):
    id: str
    entries: list[HistoryEntry]


class ConversationRecord(Model):
    session_key: str
    session_id: str
    agent_id: str
    host: str
    id: str
    role: str
    content: str
    #: Epoch milliseconds of the message.
    timestamp: float
    recorded_at: datetime


class ProvenanceSource(Model):
    kind: str
    agent_id: Optional[str] = None
    session_key: Optional[str] = None
    message_ids: list[str] = Field(default_factory=list)


class Provenance(Model):
    id: str
    source: ProvenanceSource
    messages: list[ConversationRecord]
    missing: list[str]
    withheld: Optional[str] = None


class ConversationHit(Model):
    record: ConversationRecord
    score: float


class ConversationSearchResult(Model):
    results: list[ConversationHit]
    #: Why nothing could be searched (e.g. the server's caller has no agent).
    note: Optional[str] = None


class ContextResult(Model):
    text: str
    tokens: int
    persona: bool
    scenes: int
    memories: int
    summaries: int
    conversations: Optional[int] = None


class WhoAmI(Model):
    agent: Optional[str] = None
    scopes: list[str]
    write_scope: str
    owner: bool


class EmbedderInfo(Model):
    id: str
    dimensions: int


class StoreInfo(Model):
    provider: str
    rows: Optional[int] = None
    fragments: Optional[int] = None
    indexes: Optional[list[dict[str, Any]]] = None
    disk_bytes: Optional[int] = None


class Stats(Model):
    agent: Optional[str] = None
    scopes: list[str]
    owner: bool
    memories: int
    by_scope: dict[str, int]
    by_category: dict[str, int]
    embedder: EmbedderInfo
    store: StoreInfo


class Persona(Model):
    agent: str
    text: str


class SceneSummary(Model):
    name: str
    summary: Optional[str] = None
    heat: Optional[float] = None
    updated: Optional[str] = None


class Scenes(Model):
    agent: str
    scenes: list[SceneSummary]


class Scene(Model):
    agent: str
    name: str
    text: str
    summary: Optional[str] = None
    heat: Optional[float] = None
    created: Optional[str] = None
    updated: Optional[str] = None
    body: Optional[str] = None
