"""Settings from the environment: a platform's postgres:// URL given its driver, numbers read
as numbers, and the webhooks' switches."""

from __future__ import annotations

from api.config import load_config, normalise_database_url


def test_the_environment_sets_the_database_numbers_and_webhooks(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", " postgres://euchre:pw@db.example/events ")
    monkeypatch.setenv("WEBHOOKS_TIMEOUT_SECONDS", "2.5")
    monkeypatch.setenv("EVENT_PLAYERS", "120")
    monkeypatch.setenv("WEBHOOKS_DELIVER", " off ")
    monkeypatch.setenv("WEBHOOKS_ALLOW_PRIVATE", "yes")
    settings = load_config()
    assert settings["SQLALCHEMY_DATABASE_URI"] == \
        "postgresql+psycopg://euchre:pw@db.example/events"
    assert settings["WEBHOOKS_TIMEOUT_SECONDS"] == 2.5 and settings["EVENT_PLAYERS"] == 120
    assert settings["WEBHOOKS_DELIVER"] == "off" and settings["WEBHOOKS_ALLOW_PRIVATE"] is True
    monkeypatch.setenv("WEBHOOKS_ALLOW_PRIVATE", "0")
    assert load_config({"EVENT_PLAYERS": 8})["WEBHOOKS_ALLOW_PRIVATE"] is False


def test_a_url_already_naming_its_driver_is_kept():
    for url in ("sqlite:////srv/euchre.db", "postgresql+psycopg://db.example/events"):
        assert normalise_database_url(url) == url
