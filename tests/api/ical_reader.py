"""A small RFC 5545 reader written from the RFC, independent of the `icalendar` package the
feeds are written with: lines unfolded, properties split into name, parameters and value,
components nested, and the rules a calendar app relies on checked as it reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

NAME = re.compile(r"^[A-Za-z0-9-]+$")
# Properties whose value is TEXT (RFC 5545 3.3.11, RFC 7986 NAME; X-WR-* are TEXT by default):
# a comma, a semicolon and a backslash in them are written escaped.
TEXT = {"SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "NAME", "X-WR-CALNAME",
        "X-WR-CALDESC"}
DURATION = re.compile(r"^[+-]?P(\d+W|(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?)$")


@dataclass
class Component:
    name: str
    props: list[tuple[str, dict[str, str], str]] = field(default_factory=list)
    children: list[Component] = field(default_factory=list)

    def all(self, name: str) -> list[tuple[dict[str, str], str]]:
        return [(params, value) for n, params, value in self.props if n == name]

    def one(self, name: str) -> str:
        found = self.all(name)
        assert len(found) == 1, f"{self.name} has {len(found)} {name}, RFC 5545 wants one"
        return found[0][1]

    def params(self, name: str) -> dict[str, str]:
        return self.all(name)[0][0]

    def events(self) -> list[Component]:
        return [c for c in self.children if c.name == "VEVENT"]


def _split(line: str) -> tuple[str, dict[str, str], str]:
    """NAME;P1=V1;P2="V,2":VALUE (a colon inside a quoted parameter value is not the end)."""
    quoted, i = False, 0
    while i < len(line):
        if line[i] == '"':
            quoted = not quoted
        elif line[i] == ":" and not quoted:
            break
        i += 1
    head, value = line[:i], line[i + 1:]
    name, *params = head.split(";")
    assert NAME.match(name), f"bad property name {name!r}"
    return name.upper(), dict(p.split("=", 1) for p in params), value


def unescape(text: str) -> str:
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), text)


def read(body: bytes) -> Component:
    """The VCALENDAR in `body`, checked: CRLF line ends, lines of at most 75 octets, BEGIN and
    END paired, VERSION 2.0 and PRODID once, each VEVENT with one UID, DTSTAMP and DTSTART,
    never DTEND with DURATION, a VTIMEZONE for every TZID used, TEXT values (the calendar's
    NAME too) escaped and the refresh intervals written as durations."""
    assert body.endswith(b"\r\n") and b"\n" not in body.replace(b"\r\n", b""), "CRLF only"
    for raw in body.split(b"\r\n"):
        assert len(raw) <= 75, f"a line longer than 75 octets: {raw[:40]!r}"
    lines: list[str] = []
    for raw in body.decode("utf-8").split("\r\n")[:-1]:
        if raw[:1] in (" ", "\t"):
            lines[-1] += raw[1:]
        else:
            lines.append(raw)
    stack: list[Component] = []
    root = None
    for line in lines:
        name, params, value = _split(line)
        if name == "BEGIN":
            stack.append(Component(value.upper()))
        elif name == "END":
            done = stack.pop()
            assert done.name == value.upper(), f"END:{value} closes {done.name}"
            if stack:
                stack[-1].children.append(done)
            else:
                root = done
        else:
            if name in TEXT:
                bare = re.sub(r"\\[\\;,nN]", "", value)
                assert not set(bare) & set(",;\\"), f"{name} not escaped: {value!r}"
            if name in ("DTSTAMP", "LAST-MODIFIED", "CREATED"):
                assert re.match(r"^\d{8}T\d{6}Z$", value), f"{name} not in UTC: {value}"
            if name in ("REFRESH-INTERVAL", "X-PUBLISHED-TTL"):
                assert DURATION.match(value) and value != "P", f"{name} not a duration: {value}"
                assert name != "REFRESH-INTERVAL" or params.get("VALUE") == "DURATION"
            stack[-1].props.append((name, params, value))
    assert root is not None and not stack and root.name == "VCALENDAR"
    assert root.one("VERSION") == "2.0" and root.one("PRODID")
    zones = {c.one("TZID") for c in root.children if c.name == "VTIMEZONE"}
    for event in root.events():
        for name in ("UID", "DTSTAMP", "DTSTART"):
            event.one(name)
        assert not (event.all("DTEND") and event.all("DURATION"))
        if event.all("DTEND"):  # later than DTSTART (3.8.2.2), in the same form
            (start_params, start), (end_params, end) = event.all("DTSTART")[0], \
                event.all("DTEND")[0]
            assert start_params == end_params and end > start, (start, end)
        for name in ("DTSTART", "DTEND"):
            for params, _ in event.all(name):
                assert params.get("TZID", "UTC") in zones | {"UTC"}, params
    return root


def by_uid(calendar: Component) -> dict[str, Component]:
    events = calendar.events()
    uids = [e.one("UID") for e in events]
    assert len(set(uids)) == len(uids), f"a UID twice: {uids}"
    return dict(zip(uids, events, strict=True))
