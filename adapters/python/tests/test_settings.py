"""Client settings: one declaration (``_settings.Settings``) builds both
clients, with the keywords, defaults and checks the README documents."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, get_type_hints

import pytest

from registry_sidecar import DEFAULT_MAX_SIZE, AsyncClient, Client, Sidecar
from registry_sidecar._settings import DEFAULT_OPEN_TIMEOUT, ClientSettings, Settings

CLIENTS = [Client, AsyncClient]

#: The public constructor: url, then these keywords with these defaults.
EXPECTED_KEYWORDS = {
    "token": None,
    "max_size": DEFAULT_MAX_SIZE,
    "call_timeout": None,
    "open_timeout": DEFAULT_OPEN_TIMEOUT,
    "recovery": "reconnect",
    "sidecar": None,
}


@pytest.mark.parametrize("cls", CLIENTS)
def test_constructor_signature(cls: type[Settings]) -> None:
    params = inspect.signature(cls).parameters
    assert list(params) == ["url", *EXPECTED_KEYWORDS]
    assert params["url"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    for name, default in EXPECTED_KEYWORDS.items():
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert params[name].default == default, name


@pytest.mark.parametrize("cls", CLIENTS)
def test_defaults_fill_unset_keywords(cls: type[Settings]) -> None:
    c = cls("ws://127.0.0.1:1/ws")
    assert c.settings() == {"url": "ws://127.0.0.1:1/ws", **EXPECTED_KEYWORDS}


def test_client_settings_mirror_the_settings_fields() -> None:
    fields = [f.name for f in dataclasses.fields(Settings)]
    hints = get_type_hints(Settings, localns={"Sidecar": Sidecar})
    mirror = get_type_hints(ClientSettings, localns={"Sidecar": Sidecar})
    assert list(mirror) == fields
    assert {f: hints[f] for f in fields} == mirror


@pytest.mark.parametrize("cls", CLIENTS)
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"recovery": "sometimes"}, ValueError, "unknown recovery 'sometimes'"),
        ({"recovery": "relaunch"}, ValueError, "needs sidecar="),
        ({"timeout": 1.0}, TypeError, "timeout"),
    ],
)
def test_invalid_settings_are_refused(
    cls: type[Settings], kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        cls("ws://127.0.0.1:1/ws", **kwargs)


@pytest.mark.parametrize("cls", CLIENTS)
def test_clients_are_not_their_settings(cls: type[Settings]) -> None:
    a = cls("ws://127.0.0.1:1/ws", token="secret-token")
    b = cls("ws://127.0.0.1:1/ws", token="secret-token")
    assert a != b, "two clients are two connections, whatever their settings"
    assert len({a, b}) == 2
    assert "secret-token" not in repr(a)
