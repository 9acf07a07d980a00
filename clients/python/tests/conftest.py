"""Real `strata serve` processes on loopback for the whole session (no mocks: the tests speak HTTP
to the same server users run). The repo is built once if `dist/` is missing; each server gets a
temp STRATA_HOME, the offline embedder (USE-lite from npm) and a free port (`--port 0`, the URL
read from the line the server prints)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import pytest

from strata_memory import AsyncStrataClient, StrataClient

REPO_ROOT = Path(__file__).resolve().parents[3]
CLI = REPO_ROOT / "bin" / "strata.js"
SHARED_TRANSCRIPTS = REPO_ROOT.parent / "shared" / "fixtures" / "transcripts" / "claude-code"
AGENT = "claude-code"  # the agent the Claude Code fixture's conversations are filed under
TOKEN = "py-test-token-9f2c1e"
START_TIMEOUT = 120.0


@dataclass
class Server:
    url: str
    home: Path
    process: subprocess.Popen[str]
    log: list[str]
    token: Optional[str] = None


def _node() -> str:
    node = os.environ.get("STRATA_NODE") or shutil.which("node")
    if not node:
        pytest.fail("node is not on PATH: the tests start a real `strata serve`")
    return node


def _ensure_built() -> None:
    if (REPO_ROOT / "dist" / "cli" / "main.js").exists():
        return
    subprocess.run(["npm", "run", "build"], cwd=REPO_ROOT, check=True)


def _env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STRATA_")}
    return {**env, "STRATA_HOME": str(home), "LANCEDB_LOG": "error", **extra}


def _home(config: dict) -> Path:
    home = Path(tempfile.mkdtemp(prefix="strata-py-"))
    (home / "config.json").write_text(json.dumps(config))
    return home


def _start(home: Path, args: list[str], env: dict[str, str], token: Optional[str] = None) -> Server:
    process = subprocess.Popen(
        [_node(), str(CLI), "--home", str(home), *args, "serve", "--port", "0"],
        cwd=REPO_ROOT,
        env=_env(home, env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    found = threading.Event()
    url: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            match = re.search(r"on (http://[^\s/]+)", line)
            if match and not found.is_set():
                url.append(match.group(1))
                found.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while not found.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"strata serve did not start (exit {process.poll()}):\n{''.join(log)}")
    server = Server(url=url[0], home=home, process=process, log=log, token=token)
    # Ready when the API answers (the URL is printed once listening; this also proves the token path).
    with StrataClient(server.url, token=token) as client:
        assert client.health() is True
    return server


def _stop(server: Server) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        code = server.process.wait()
    shutil.rmtree(server.home, ignore_errors=True)
    assert code == 0, f"strata serve exited with {code}:\n{''.join(server.log)}"


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """Acts as agent `claude-code` (global + agent:claude-code, granted custom:shared), with the real
    Claude Code fixture transcripts ingested into its conversation log."""
    _ensure_built()
    home = _home({"embedder": {"provider": "local"}, "scopes": {"agentGrants": {AGENT: ["custom:shared"]}}})
    if SHARED_TRANSCRIPTS.is_dir():
        subprocess.run(
            [_node(), str(CLI), "--home", str(home), "ingest", "--source", "claude-code", "--path", str(SHARED_TRANSCRIPTS), "--no-embed"],
            cwd=REPO_ROOT,
            env=_env(home, {}),
            check=True,
            capture_output=True,
        )
    elif os.environ.get("CI"):
        pytest.fail(f"{SHARED_TRANSCRIPTS} is missing (CI runs with ../shared beside the repo)")
    srv = _start(home, ["--agent", AGENT], {})
    yield srv
    _stop(srv)


@pytest.fixture(scope="session")
def owner_server() -> Iterator[Server]:
    """Owner mode (`--all-scopes`: any scope, as the LangGraph store's namespaces need) behind a bearer token."""
    _ensure_built()
    home = _home({"embedder": {"provider": "local"}})
    srv = _start(home, ["--all-scopes"], {"STRATA_HTTP_TOKEN": TOKEN}, token=TOKEN)
    yield srv
    _stop(srv)


@pytest.fixture()
def client(server: Server) -> Iterator[StrataClient]:
    with StrataClient(server.url) as c:
        yield c


@pytest.fixture()
async def aclient(server: Server):
    async with AsyncStrataClient(server.url) as c:
        yield c
