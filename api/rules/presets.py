"""The rule formats as data: each preset is a set of named parameters, as is a custom format."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from .errors import InvalidPreset

INDIVIDUAL = "individual"
TEAM = "team"

# How players move between rounds; each name is implemented in seating.py / schedules.py.
MOVEMENTS = {
    "progressive": INDIVIDUAL,  # winners stay, losers move on, partners change
    "wec-singles": INDIVIDUAL,  # a fixed schedule for every game, made at check-in
    "teams-rotation": TEAM,  # winners stay, losing team moves on
    "wec-doubles": TEAM,  # game-1 winners are home for the event, visitors rotate
    "league-schedule": TEAM,  # a round robin of weekly matches
}
# Movements that seat a round from the winners of the round before.
WINNERS_MOVE = frozenset({"progressive", "teams-rotation", "wec-doubles"})
# How the field is ranked; each name is implemented in standings.py.
STANDINGS = ("league", "progressive", "teams", "wec")


@dataclass(frozen=True)
class Param:
    """One parameter's type, bounds and meaning in plain words."""

    type: str  # "int", "bool", "choice", "places"
    description: str
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    only_for: tuple[str, ...] = ()  # the movements that use it (empty: every format)
    none_means: str | None = None  # what an empty value means, in words


LEAGUE_ONLY = ("league-schedule",)
TEAMS_ONLY = ("teams-rotation",)
# Who confirms a score (RULES.md section 7): the first is today's way and the default.
SIGN_OFF, CONFIRM_EACH_HAND, DOUBLE_ENTRY = "sign_off", "confirm_each_hand", "double_entry"
VERIFICATION_MODES = (SIGN_OFF, CONFIRM_EACH_HAND, DOUBLE_ENTRY)
# Each way in a few words, for a sentence: "This event checks scores by double entry".
MODE_WORDS = {SIGN_OFF: "sign-off", CONFIRM_EACH_HAND: "confirm each hand",
              DOUBLE_ENTRY: "double entry"}
# Each choice in words, for people choosing a format.
CHOICE_WORDS = {
    "entry": {INDIVIDUAL: "single players (partners change)", TEAM: "fixed teams of two"},
    "movement": {
        "progressive": "winners stay, losers move to the next table",
        "wec-singles": "a fixed schedule for every game, made at check-in",
        "teams-rotation": "winners stay, the losing team moves on",
        "wec-doubles": "game 1 winners keep their table, the others move on",
        "league-schedule": "a round robin of weekly matches",
    },
    "standings": {
        "league": "league standings points", "progressive": "total points",
        "teams": "team totals, then the championship", "wec": "total points, then games won",
    },
    "verification": {
        SIGN_OFF: "one phone enters the hands, an opponent signs the game off",
        CONFIRM_EACH_HAND: "the other side confirms every hand one side enters",
        DOUBLE_ENTRY: "each side enters every hand; a difference is a mismatch to settle",
    },
}


PARAMETERS: dict[str, Param] = {
    "entry": Param("choice", "Who enters: single players (partners change) or fixed teams of two.",
                   choices=(INDIVIDUAL, TEAM)),
    "movement": Param("choice", "How tables are filled each round.", choices=tuple(MOVEMENTS)),
    "standings": Param("choice", "How the field is ranked.", choices=STANDINGS),
    "target_points": Param("int", "A game ends at the hand that takes a side to this many points.",
                           1, 100, nullable=True,
                           none_means="none: games are a set number of hands"),
    "hands_per_game": Param("int", "A game is this many hands, whatever the score.", 1, 50,
                            nullable=True, none_means="none: games end at a score"),
    "games_per_match": Param("int", "Games two sides play against each other in a round.", 1, 9,
                             only_for=LEAGUE_ONLY),
    "rounds": Param("int", "Rounds (or league weeks) in the event; empty means as many as the "
                    "schedule needs.", 1, 60, nullable=True,
                    none_means="as many as the schedule needs"),
    "round_minutes": Param("int", "Time limit of a round; when it runs out the organizer may call "
                           "time and games end with the hands played.", 1, 240, nullable=True,
                           none_means="no time limit"),
    "points_made": Param("int", "Points for the makers taking 3 or 4 tricks.", 1, 10),
    "points_march": Param("int", "Points for the makers taking all 5 tricks (a march).", 1, 10),
    "points_loner_made": Param("int", "Points for a lone player taking 3 or 4 tricks.", 1, 10),
    "points_loner_march": Param("int", "Points for a lone player taking all 5 tricks.", 1, 10),
    "points_euchre": Param("int", "Points the defenders score when the makers take fewer than "
                           "3 tricks (a euchre).", 1, 10),
    "points_loner_euchred": Param("int", "Points the defenders score when a lone player takes "
                                  "fewer than 3 tricks.", 1, 10),
    "renege_points": Param("int", "Points the wronged side scores for an upheld renege.", 0, 10),
    "renege_loner_points": Param("int", "Points for an upheld renege when the wronged side had "
                                 "declared a loner.", 0, 10),
    "false_claim_points": Param("int", "Points the accused side scores when a renege claim is "
                                "found wrong (0: no penalty).", 0, 10),
    "ghost_minimum": Param("int", "At a table with a ghost seat, each real player scores at least "
                           "this much for the round.", 0, 50, nullable=True,
                           only_for=("progressive",), none_means="none"),
    "bumps": Param("bool", "Keep the bump cup: dollars per player for being euchred, reneging or "
                   "throwing in cards."),
    "game_sheet": Param("bool", "Runners may enter a game as its final points and bumps instead of "
                        "hand by hand."),
    "sign_off_required": Param("bool", "The opponents must sign a match off before the next round "
                               "is seated (under sign-off; where both sides agree each hand, "
                               "that agreement stands instead)."),
    "verification": Param("choice", "Who confirms a score: 'sign_off' (one phone enters every "
                          "hand, an opponent signs the finished game off), 'confirm_each_hand' "
                          "(the other side confirms each hand one side entered) or "
                          "'double_entry' (each side enters every hand on its own phone; equal "
                          "entries are stored, unequal ones are a mismatch to settle).",
                          choices=VERIFICATION_MODES),
    "correction_minutes": Param("int", "Minutes after a round closes during which a table may "
                                "still correct its games; after that only the organizer, with a "
                                "reason.", 0, 1440),
    "prize_places": Param("places", "Prize places by field size: pairs of [smallest field, "
                          "places]."),
    "championship_teams": Param("int", "After the last round the top teams play a championship "
                                "match (0: none, 2: the top two).", 0, 2, only_for=TEAMS_ONLY),
    "championship_hands": Param("int", "Hands in the championship match.", 1, 50, nullable=True,
                                only_for=TEAMS_ONLY, none_means="none"),
    "cut_playoff_hands": Param("int", "Hands in a playoff between teams level at the "
                               "championship cut.", 1, 12, only_for=TEAMS_ONLY),
    "playoff_games_per_match": Param("int", "League playoffs: a match is best of this many games "
                                     "(0: no playoffs).", 0, 9, only_for=LEAGUE_ONLY),
    "points_per_game_won": Param("int", "League standings points for each game won.", 0, 10,
                                 only_for=LEAGUE_ONLY),
    "match_win_bonus": Param("int", "Extra league standings points for winning the match.", 0, 10,
                             only_for=LEAGUE_ONLY),
    "forfeit_minutes": Param("int", "League: a team this many minutes late forfeits game 1, twice "
                             "as late game 2, three times as late the whole match.", 1, 60,
                             only_for=LEAGUE_ONLY),
    "offences_to_flag": Param("int", "League: the week of forfeiting at which a team is flagged "
                              "'may be removed from playoffs'.", 1, 10, only_for=LEAGUE_ONLY),
    "offences_to_remove": Param("int", "League: the week of forfeiting at which a team is removed "
                                "from the league.", 1, 10, only_for=LEAGUE_ONLY),
}


@dataclass(frozen=True)
class Preset:
    """A complete rule format. Built-in presets and custom formats are both instances."""

    key: str
    name: str
    summary: str
    entry: str
    movement: str
    standings: str
    target_points: int | None = None
    hands_per_game: int | None = None
    games_per_match: int = 1
    rounds: int | None = None
    round_minutes: int | None = None
    points_made: int = 1
    points_march: int = 2
    points_loner_made: int = 1
    points_loner_march: int = 4
    points_euchre: int = 2
    points_loner_euchred: int = 2
    renege_points: int = 2
    renege_loner_points: int = 4
    false_claim_points: int = 0
    ghost_minimum: int | None = None
    bumps: bool = False
    game_sheet: bool = False
    sign_off_required: bool = False
    verification: str = SIGN_OFF
    correction_minutes: int = 30
    prize_places: tuple[tuple[int, int], ...] = ((1, 1), (12, 2), (24, 3))
    championship_teams: int = 0
    championship_hands: int | None = None
    cut_playoff_hands: int = 4
    playoff_games_per_match: int = 0
    points_per_game_won: int = 2
    match_win_bonus: int = 1
    forfeit_minutes: int = 10
    offences_to_flag: int = 2
    offences_to_remove: int = 3
    based_on: str | None = field(default=None)

    @property
    def fixed_hands(self) -> bool:
        """True when games are a set number of hands (and may end level)."""
        return self.hands_per_game is not None

    @property
    def signs_off(self) -> bool:
        """Whether the opponents sign a finished game off (RULES.md §7): only under sign-off.
        Under confirm_each_hand and double_entry every hand that counts was agreed by both
        sides, which is what a signature would say, so nobody is asked to sign."""
        return self.verification == SIGN_OFF

    @property
    def sign_off_needed(self) -> bool:
        """Whether a finished game must be signed off before its round closes: where the
        format asks for it (`sign_off_required`) and the event checks scores by sign-off."""
        return self.sign_off_required and self.signs_off

    @property
    def team_entry(self) -> bool:
        return self.entry == TEAM

    @property
    def moves_by_winner(self) -> bool:
        """Whether a round's seating depends on who won each table the round before."""
        return self.movement in WINNERS_MOVE

    def parameters(self) -> dict[str, Any]:
        """The tunable parameters only, as plain JSON-ready data."""
        data = {name: getattr(self, name) for name in PARAMETERS}
        data["prize_places"] = [list(pair) for pair in self.prize_places]
        return data

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["prize_places"] = [list(pair) for pair in self.prize_places]
        return data

    def hand_points(self) -> dict[str, int]:
        """What each result of a played hand is worth: a table of data, the same one the PWA
        adds up for a provisional score."""
        return {"made": self.points_made, "march": self.points_march,
                "loner-made": self.points_loner_made, "loner-march": self.points_loner_march,
                "euchred": self.points_euchre, "loner-euchred": self.points_loner_euchred}

    def prize_places_for(self, field_size: int) -> int:
        """How many places win a prize in a field of this size."""
        places = 0
        for smallest, count in self.prize_places:
            if field_size >= smallest:
                places = count
        return places


PRESETS: dict[str, Preset] = {
    "league": Preset(
        key="league",
        name="Weekly 2-on-2 league",
        summary=("Fixed teams of two meet a scheduled opponent each week and always play 3 games "
                 "to 10 points. A week earns 2 standings points per game won and 1 more for "
                 "winning the match (3-0 = 7, 2-1 = 5, 1-2 = 2, 0-3 = 0). Late teams forfeit "
                 "games; the season ends in single-elimination playoffs, best 2 of 3."),
        entry=TEAM, movement="league-schedule", standings="league",
        target_points=10, games_per_match=3, renege_points=2, renege_loner_points=2,
        playoff_games_per_match=3, prize_places=((1, 1),),
    ),
    "progressive": Preset(
        key="progressive",
        name="Progressive (individual) tournament",
        summary=("Players enter alone and change partners every round: 5 rounds of 8 hands, "
                 "25 minutes each. Winners stay at their table, losers move to the next. Your "
                 "score is the sum of your side's points each round; a player at a table with a "
                 "ghost seat scores at least 7 for that round. A wrong renege claim costs the "
                 "claimants 2 points."),
        entry=INDIVIDUAL, movement="progressive", standings="progressive",
        hands_per_game=8, rounds=5, round_minutes=25, renege_points=2, renege_loner_points=2,
        false_claim_points=2, ghost_minimum=7, prize_places=((1, 1), (12, 2), (24, 3)),
    ),
    "teams": Preset(
        key="teams",
        name="Fixed-team tournament",
        summary=("Teams of two play 3 rounds of 12-hand matches; losing teams move to the next "
                 "table. The two teams with the most points after 36 hands play a 12-hand "
                 "championship; ties at the cut are settled by a 4-hand playoff. Opponents sign "
                 "each match off before anyone moves."),
        entry=TEAM, movement="teams-rotation", standings="teams",
        hands_per_game=12, rounds=3, renege_points=2, renege_loner_points=4,
        sign_off_required=True, championship_teams=2, championship_hands=12,
        cut_playoff_hands=4, prize_places=((1, 2),),
    ),
    "wec-singles": Preset(
        key="wec-singles",
        name="World Euchre Championship, singles",
        summary=("Players enter alone and play 8 games of 12 hands; every player's table and "
                 "seat for all 8 games is fixed at check-in, never with the same partner twice. "
                 "Ranked by total points, then games won, then a tiebreak the organizer records. "
                 "Euchres and reneges put dollars in the bump cup."),
        entry=INDIVIDUAL, movement="wec-singles", standings="wec",
        hands_per_game=12, rounds=8, round_minutes=15, renege_points=2, renege_loner_points=4,
        bumps=True, game_sheet=True, prize_places=((1, 3),),
    ),
    "wec-doubles": Preset(
        key="wec-doubles",
        name="World Euchre Championship, doubles",
        summary=("Fixed teams play 8 games of 12 hands. The winners of game 1 keep their table "
                 "for the whole event; the others move one table on after every game. Ranked by "
                 "total points, then games won, then a tiebreak the organizer records. Euchres "
                 "and reneges put dollars in the bump cup."),
        entry=TEAM, movement="wec-doubles", standings="wec",
        hands_per_game=12, rounds=8, round_minutes=15, renege_points=2, renege_loner_points=4,
        bumps=True, game_sheet=True, prize_places=((1, 3),),
    ),
}


def get_preset(key: str) -> Preset:
    try:
        return PRESETS[key]
    except KeyError:
        raise InvalidPreset(
            f"There is no preset called '{key}'. Choose one of: {', '.join(PRESETS)}."
        ) from None


def _check_value(name: str, value: Any) -> Any:
    spec = PARAMETERS[name]
    if value is None:
        if spec.nullable:
            return None
        raise InvalidPreset(f"'{name}' needs a value.", parameter=name)
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise InvalidPreset(f"'{name}' must be true or false.", parameter=name)
        return value
    if spec.type == "choice":
        if value not in spec.choices:
            raise InvalidPreset(
                f"'{name}' must be one of: {', '.join(spec.choices)}.", parameter=name
            )
        return value
    if spec.type == "places":
        return _check_places(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidPreset(f"'{name}' must be a whole number.", parameter=name)
    if not spec.minimum <= value <= spec.maximum:
        raise InvalidPreset(
            f"'{name}' must be between {spec.minimum} and {spec.maximum}; got {value}.",
            parameter=name,
        )
    return value


def _check_places(value: Any) -> tuple[tuple[int, int], ...]:
    message = ("'prize_places' must be a list of [smallest field, places] pairs with growing "
               "field sizes, e.g. [[1, 1], [12, 2], [24, 3]].")
    if not isinstance(value, (list, tuple)) or not value:
        raise InvalidPreset(message, parameter="prize_places")
    pairs = []
    for pair in value:
        if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
                or pair[0] < 1 or not 0 <= pair[1] <= 100):
            raise InvalidPreset(message, parameter="prize_places")
        pairs.append((pair[0], pair[1]))
    if any(a[0] >= b[0] for a, b in zip(pairs, pairs[1:], strict=False)):
        raise InvalidPreset(message, parameter="prize_places")
    return tuple(pairs)


def _check_consistency(p: Preset) -> None:
    """Refuse combinations of parameters that no event could be run with."""
    if (p.target_points is None) == (p.hands_per_game is None):
        raise InvalidPreset("Set exactly one of 'target_points' (games to a score) and "
                            "'hands_per_game' (games of a set number of hands).")
    needed_entry = MOVEMENTS[p.movement]
    if p.entry != needed_entry:
        raise InvalidPreset(f"The '{p.movement}' movement needs {needed_entry} entry, "
                            f"not {p.entry} entry.")
    if p.ghost_minimum is not None and p.movement != "progressive":
        raise InvalidPreset("'ghost_minimum' only applies to the progressive movement, the only "
                            "one with ghost seats.")
    if p.game_sheet and p.false_claim_points:
        raise InvalidPreset("A game sheet cannot show a wrong renege claim, which pays the "
                            "accused side on top of the hand; use one or the other.")
    if p.game_sheet and not p.fixed_hands:
        raise InvalidPreset("A game sheet needs games of a set number of hands "
                            "('hands_per_game').")
    if p.playoff_games_per_match and p.movement != "league-schedule":
        raise InvalidPreset("'playoff_games_per_match' only applies to a league.")
    if p.playoff_games_per_match and p.playoff_games_per_match % 2 == 0:
        raise InvalidPreset("'playoff_games_per_match' must be odd (best of 1, 3, 5, ...) so a "
                            "playoff match always has a winner.")
    if p.championship_teams not in (0, 2):
        raise InvalidPreset("'championship_teams' must be 0 (no championship) or 2.")
    if p.championship_teams and p.standings != "teams":
        raise InvalidPreset("A championship match needs the 'teams' standings.")
    if p.championship_teams and p.championship_hands is None:
        raise InvalidPreset("Say how many hands the championship match has "
                            "('championship_hands').")
    if p.standings == "league" and p.movement != "league-schedule":
        raise InvalidPreset("League standings need the league schedule movement.")
    if p.standings == "progressive" and p.entry != INDIVIDUAL:
        raise InvalidPreset("Progressive standings rank single players; use individual entry.")
    if p.standings == "teams" and p.entry != TEAM:
        raise InvalidPreset("Teams standings rank fixed teams; use team entry.")
    if p.movement == "league-schedule" and p.standings != "league":
        raise InvalidPreset("The league schedule ranks teams by league standings points; use "
                            "'league' standings.")
    if p.movement != "league-schedule" and p.rounds is None:
        raise InvalidPreset("Say how many rounds the event has ('rounds').")
    if p.games_per_match > 1 and p.movement != "league-schedule":
        raise InvalidPreset("Several games per match are only supported in a league; other "
                            "formats play one game per round.")
    if p.points_march < p.points_made:
        raise InvalidPreset("A march ('points_march') cannot be worth less than making it "
                            "with 3 or 4 tricks ('points_made').")
    if p.points_loner_march < p.points_loner_made:
        raise InvalidPreset("A lone march ('points_loner_march') cannot be worth less than a "
                            "loner made with 3 or 4 tricks ('points_loner_made').")
    if p.points_loner_march < p.points_march:
        raise InvalidPreset("A lone march ('points_loner_march') cannot be worth less than a "
                            "march with a partner ('points_march').")
    if p.offences_to_flag > p.offences_to_remove:
        raise InvalidPreset("'offences_to_flag' cannot be larger than 'offences_to_remove'.")


def build_preset(key: str, overrides: dict[str, Any] | None = None) -> Preset:
    """A preset by key, with organizer overrides checked; the result is a custom format."""
    base = get_preset(key)
    if not overrides:
        return base
    if not isinstance(overrides, dict):
        raise InvalidPreset("Overrides must be an object of parameter names and values.")
    unknown = sorted(set(overrides) - set(PARAMETERS))
    if unknown:
        raise InvalidPreset(
            f"Unknown parameter {', '.join(repr(u) for u in unknown)}. "
            f"Known parameters: {', '.join(PARAMETERS)}.",
            parameter=unknown[0],
        )
    checked = {name: _check_value(name, value) for name, value in overrides.items()}
    if checked.get("target_points") is not None and "hands_per_game" not in checked:
        checked["hands_per_game"] = None
    if checked.get("hands_per_game") is not None and "target_points" not in checked:
        checked["target_points"] = None
    changed = {k: v for k, v in checked.items() if getattr(base, k) != v}
    if not changed:
        return base
    custom = replace(base, key=base.key, name=f"{base.name} (custom)", based_on=base.key,
                     summary=f"{base.summary} Changed for this event: "
                             f"{_changes_in_words(base, changed)}.",
                     **changed)
    _check_consistency(custom)
    return custom


def _value_words(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ", ".join("-".join(str(v) for v in pair) if isinstance(pair, tuple | list)
                         else str(pair) for pair in value)
    return str(value)


def _changes_in_words(base: Preset, changed: dict[str, Any]) -> str:
    """'rounds 4 (the format has 5); bumps yes (the format has no)', in parameter order."""
    return "; ".join(
        f"{name.replace('_', ' ')} {_value_words(changed[name])} "
        f"(the format has {_value_words(getattr(base, name))})"
        for name in PARAMETERS if name in changed)


def preset_from_parameters(key: str, parameters: dict[str, Any]) -> Preset:
    """Rebuild a stored event's format from its preset key and full parameter set."""
    base = get_preset(key)
    stored = {k: v for k, v in parameters.items() if k in PARAMETERS}
    return build_preset(base.key, stored)


def preset_field_names() -> list[str]:
    return [f.name for f in fields(Preset)]


for _preset in PRESETS.values():
    _check_consistency(_preset)
