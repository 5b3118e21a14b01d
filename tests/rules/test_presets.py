"""The presets match RULES.md, and custom formats are checked before an event can use them."""

import json
from dataclasses import MISSING, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import InvalidPreset
from api.rules.presets import (
    INDIVIDUAL,
    PARAMETERS,
    PRESETS,
    TEAM,
    Preset,
    build_preset,
    get_preset,
    preset_field_names,
    preset_from_parameters,
)

# --- the built-in presets, parameter by parameter against RULES.md -------------------------


def test_the_league_plays_three_games_to_ten_points_between_fixed_teams():
    league = get_preset("league")
    assert league.entry == TEAM
    assert league.movement == "league-schedule"
    assert league.standings == "league"
    assert league.target_points == 10
    assert league.hands_per_game is None
    assert not league.fixed_hands
    assert league.games_per_match == 3


def test_a_league_renege_is_worth_two_even_against_a_loner_and_a_wrong_claim_costs_nothing():
    league = get_preset("league")
    assert league.renege_points == 2
    assert league.renege_loner_points == 2
    assert league.false_claim_points == 0


def test_league_week_points_are_two_a_game_and_one_for_the_match_with_best_of_three_playoffs():
    league = get_preset("league")
    assert league.points_per_game_won == 2
    assert league.match_win_bonus == 1
    assert league.playoff_games_per_match == 3
    assert league.forfeit_minutes == 10
    assert (league.offences_to_flag, league.offences_to_remove) == (2, 3)


def test_a_league_keeps_no_bump_cup_game_sheet_or_sign_off():
    league = get_preset("league")
    assert not league.bumps
    assert not league.game_sheet
    assert not league.sign_off_required
    assert league.ghost_minimum is None
    assert league.championship_teams == 0


def test_the_progressive_plays_five_rounds_of_eight_hands_in_twenty_five_minutes():
    progressive = get_preset("progressive")
    assert progressive.entry == INDIVIDUAL
    assert progressive.movement == "progressive"
    assert progressive.standings == "progressive"
    assert progressive.rounds == 5
    assert progressive.hands_per_game == 8
    assert progressive.target_points is None
    assert progressive.round_minutes == 25
    assert progressive.games_per_match == 1


def test_the_progressive_has_a_ghost_minimum_of_seven_and_a_two_point_false_claim_penalty():
    progressive = get_preset("progressive")
    assert progressive.ghost_minimum == 7
    assert progressive.false_claim_points == 2
    assert progressive.renege_points == 2
    # RULES.md: "the offender's opponents +2", with no loner exception.
    assert progressive.renege_loner_points == 2
    assert not progressive.bumps


@pytest.mark.parametrize(("players", "places"), [
    (12, 2), (16, 2), (20, 2), (24, 3), (28, 3), (60, 3),
])
def test_progressive_prizes_go_to_two_places_from_twelve_players_and_three_from_twenty_four(
        players, places):
    assert get_preset("progressive").prize_places_for(players) == places


@pytest.mark.parametrize("players", [4, 8, 11])
def test_a_progressive_field_under_twelve_still_gets_one_prize_place(players):
    # RULES.md names no prizes below 12 players; the preset keeps a winner.
    assert get_preset("progressive").prize_places_for(players) == 1


@pytest.mark.parametrize("players", [21, 22, 23])
def test_a_progressive_field_of_twenty_one_to_twenty_three_keeps_two_prize_places(players):
    # RULES.md jumps from "12-20" to "24 or more"; fields in between keep the smaller prize.
    assert get_preset("progressive").prize_places_for(players) == 2


def test_the_teams_tournament_plays_three_rounds_of_twelve_hands_then_a_championship():
    teams = get_preset("teams")
    assert teams.entry == TEAM
    assert teams.movement == "teams-rotation"
    assert teams.standings == "teams"
    assert teams.hands_per_game == 12
    assert teams.rounds == 3
    assert teams.championship_teams == 2
    assert teams.championship_hands == 12
    assert teams.cut_playoff_hands == 4


def test_a_teams_renege_is_two_or_four_against_a_loner_and_each_match_is_signed_off():
    teams = get_preset("teams")
    assert (teams.renege_points, teams.renege_loner_points) == (2, 4)
    assert teams.false_claim_points == 0
    assert teams.sign_off_required
    assert not teams.bumps
    assert not teams.game_sheet


@pytest.mark.parametrize(("key", "entry", "movement"), [
    ("wec-singles", INDIVIDUAL, "wec-singles"),
    ("wec-doubles", TEAM, "wec-doubles"),
])
def test_the_world_championship_plays_eight_games_of_twelve_hands_with_bumps_and_a_game_sheet(
        key, entry, movement):
    wec = get_preset(key)
    assert wec.entry == entry
    assert wec.movement == movement
    assert wec.standings == "wec"
    assert wec.rounds == 8
    assert wec.hands_per_game == 12
    assert wec.bumps
    assert wec.game_sheet
    assert (wec.renege_points, wec.renege_loner_points) == (2, 4)
    assert wec.false_claim_points == 0
    assert not wec.sign_off_required


def test_wec_games_have_a_fifteen_minute_limit_though_rules_md_names_none():
    # The WEC rules plan "12 to 14 minutes per game"; the preset lets time be called at 15.
    assert get_preset("wec-singles").round_minutes == 15
    assert get_preset("wec-doubles").round_minutes == 15
    assert get_preset("teams").round_minutes is None


def test_only_the_world_championship_presets_keep_a_bump_cup_and_a_game_sheet():
    assert {k for k, p in PRESETS.items() if p.bumps} == {"wec-singles", "wec-doubles"}
    assert {k for k, p in PRESETS.items() if p.game_sheet} == {"wec-singles", "wec-doubles"}


def test_only_the_teams_preset_needs_a_sign_off():
    assert {k for k, p in PRESETS.items() if p.sign_off_required} == {"teams"}


@pytest.mark.parametrize("mode", ["confirm_each_hand", "double_entry"])
def test_where_both_sides_agree_each_hand_nobody_signs_and_nothing_waits_for_a_signature(mode):
    """RULES.md §7: the three ways of confirming a score are alternatives. Under sign-off the
    opponents sign (and the teams format makes the round wait for it); agreeing each hand is
    that confirmation already."""
    teams = get_preset("teams")
    assert teams.signs_off and teams.sign_off_needed
    assert not get_preset("progressive").sign_off_needed, "signing is offered, not needed"
    agreeing = preset_from_parameters("teams", {**teams.parameters(), "verification": mode})
    assert agreeing.sign_off_required, "the format's setting is kept as it was"
    assert not agreeing.signs_off and not agreeing.sign_off_needed


def test_each_preset_is_filed_under_its_own_key_and_is_not_custom():
    for key, preset in PRESETS.items():
        assert preset.key == key
        assert preset.based_on is None
        assert "(custom)" not in preset.name


def test_an_unknown_preset_is_refused_with_the_names_to_choose_from():
    with pytest.raises(InvalidPreset, match="no preset called 'euchre-cup'") as refused:
        get_preset("euchre-cup")
    for key in PRESETS:
        assert key in refused.value.message


def test_a_presets_parameters_are_exactly_the_tunable_ones_as_plain_json():
    parameters = get_preset("progressive").parameters()
    assert set(parameters) == set(PARAMETERS)
    assert parameters["prize_places"] == [[1, 1], [12, 2], [24, 3]]
    assert json.loads(json.dumps(parameters)) == parameters


def test_a_presets_full_description_includes_its_name_and_key():
    described = get_preset("teams").as_dict()
    assert described["key"] == "teams"
    assert described["name"] == "Fixed-team tournament"
    assert described["prize_places"] == [[1, 2]]
    assert set(preset_field_names()) == set(described)
    assert set(PARAMETERS) < set(preset_field_names())


def test_team_entry_is_true_only_for_fixed_teams():
    assert get_preset("teams").team_entry
    assert not get_preset("wec-singles").team_entry


# --- custom formats that make sense --------------------------------------------------------


def test_a_progressive_with_ten_hands_a_game_is_a_custom_format_based_on_the_progressive():
    custom = build_preset("progressive", {"hands_per_game": 10})
    assert custom.hands_per_game == 10
    assert custom.key == "progressive"
    assert custom.based_on == "progressive"
    assert custom.name == "Progressive (individual) tournament (custom)"
    assert custom.ghost_minimum == 7  # everything else stays as the preset has it
    assert PRESETS["progressive"].hands_per_game == 8  # the preset itself is untouched


def test_a_league_to_eleven_points_is_accepted():
    custom = build_preset("league", {"target_points": 11})
    assert custom.target_points == 11
    assert custom.hands_per_game is None
    assert custom.based_on == "league"


def test_setting_target_points_switches_off_a_presets_fixed_hands():
    custom = build_preset("progressive", {"target_points": 10})
    assert custom.target_points == 10
    assert custom.hands_per_game is None
    assert not custom.fixed_hands


def test_setting_hands_per_game_switches_off_a_presets_target_points():
    custom = build_preset("league", {"hands_per_game": 8})
    assert custom.hands_per_game == 8
    assert custom.target_points is None
    assert custom.fixed_hands


def test_no_overrides_or_overrides_equal_to_the_preset_give_the_preset_itself():
    assert build_preset("league") is PRESETS["league"]
    assert build_preset("league", {}) is PRESETS["league"]
    assert build_preset("league", {"target_points": 10, "games_per_match": 3}) \
        is PRESETS["league"]
    assert build_preset("progressive", {"prize_places": [[1, 1], [12, 2], [24, 3]]}) \
        is PRESETS["progressive"]


def test_custom_prize_places_are_accepted_and_used_by_field_size():
    custom = build_preset("progressive", {"prize_places": [[1, 1], [16, 2], [32, 3]]})
    assert custom.prize_places == ((1, 1), (16, 2), (32, 3))
    assert [custom.prize_places_for(n) for n in (12, 16, 31, 32)] == [1, 2, 2, 3]


def test_prize_places_that_start_above_one_player_give_small_fields_no_prize():
    custom = build_preset("teams", {"prize_places": [[8, 2]]})
    assert custom.prize_places_for(6) == 0
    assert custom.prize_places_for(8) == 2


def test_nullable_parameters_can_be_cleared():
    custom = build_preset("progressive", {"round_minutes": None, "ghost_minimum": None})
    assert custom.round_minutes is None
    assert custom.ghost_minimum is None


# --- nonsense refused, with a message that says what to fix --------------------------------


def test_an_unknown_parameter_is_refused_by_name():
    with pytest.raises(InvalidPreset, match="Unknown parameter 'hands'") as refused:
        build_preset("progressive", {"hands": 10})
    assert refused.value.details == {"parameter": "hands"}
    assert "hands_per_game" in refused.value.message  # the known names are listed


def test_overrides_that_are_not_an_object_are_refused():
    with pytest.raises(InvalidPreset, match="Overrides must be an object"):
        build_preset("league", [("target_points", 11)])


@pytest.mark.parametrize("value", ["8", 8.5, True, [8], 8.0])
def test_a_whole_number_parameter_refuses_anything_but_a_whole_number(value):
    with pytest.raises(InvalidPreset, match="'hands_per_game' must be a whole number"):
        build_preset("progressive", {"hands_per_game": value})


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_a_yes_no_parameter_refuses_anything_but_true_or_false(value):
    with pytest.raises(InvalidPreset, match="'bumps'"):
        build_preset("wec-singles", {"bumps": value})


def test_a_choice_parameter_lists_its_choices_when_given_another():
    with pytest.raises(InvalidPreset, match="'movement' must be one of: progressive, "
                                            "wec-singles, teams-rotation"):
        build_preset("teams", {"movement": "swiss"})


def test_a_parameter_that_needs_a_value_refuses_none():
    with pytest.raises(InvalidPreset, match="'renege_points' needs a value"):
        build_preset("teams", {"renege_points": None})


@pytest.mark.parametrize(("name", "value", "words"), [
    ("hands_per_game", 0, "between 1 and 50; got 0"),
    ("hands_per_game", 51, "between 1 and 50; got 51"),
    ("target_points", 101, "between 1 and 100; got 101"),
    ("renege_points", -2, "between 0 and 10; got -2"),
    ("rounds", 61, "between 1 and 60; got 61"),
])
def test_a_number_out_of_range_is_refused_with_the_range(name, value, words):
    with pytest.raises(InvalidPreset, match=words):
        build_preset("progressive", {name: value})


def test_both_a_target_and_a_hand_count_are_refused():
    with pytest.raises(InvalidPreset, match="exactly one of 'target_points'"):
        build_preset("league", {"target_points": 10, "hands_per_game": 8})


@pytest.mark.parametrize(("key", "overrides"), [
    ("league", {"target_points": None}),
    ("progressive", {"hands_per_game": None}),
])
def test_neither_a_target_nor_a_hand_count_is_refused(key, overrides):
    with pytest.raises(InvalidPreset, match="exactly one of 'target_points'"):
        build_preset(key, overrides)


def test_team_movement_with_individual_entry_is_refused():
    with pytest.raises(InvalidPreset,
                       match="'teams-rotation' movement needs team entry, not individual"):
        build_preset("teams", {"entry": INDIVIDUAL})


def test_individual_movement_with_team_entry_is_refused():
    with pytest.raises(InvalidPreset,
                       match="'progressive' movement needs individual entry, not team"):
        build_preset("progressive", {"entry": TEAM})


def test_a_ghost_minimum_without_the_progressive_movement_is_refused():
    with pytest.raises(InvalidPreset, match="'ghost_minimum' only applies to the progressive"):
        build_preset("wec-singles", {"ghost_minimum": 7})


@pytest.mark.parametrize("best_of", [2, 4])
def test_league_playoffs_of_an_even_number_of_games_are_refused(best_of):
    with pytest.raises(InvalidPreset, match="must be odd"):
        build_preset("league", {"playoff_games_per_match": best_of})


def test_a_league_without_playoffs_is_accepted():
    assert build_preset("league", {"playoff_games_per_match": 0}).playoff_games_per_match == 0


def test_playoffs_outside_a_league_are_refused():
    with pytest.raises(InvalidPreset, match="only applies to a league"):
        build_preset("teams", {"playoff_games_per_match": 3})


def test_a_game_sheet_without_a_fixed_number_of_hands_is_refused():
    with pytest.raises(InvalidPreset, match="A game sheet needs games of a set number of hands"):
        build_preset("league", {"game_sheet": True})


def test_a_wec_format_played_to_a_target_must_also_give_up_its_game_sheet():
    # Switching to a target keeps game_sheet on, so the combination is refused as a whole.
    with pytest.raises(InvalidPreset, match="A game sheet needs"):
        build_preset("wec-doubles", {"target_points": 10})
    custom = build_preset("wec-doubles", {"target_points": 10, "game_sheet": False})
    assert custom.target_points == 10


def test_a_championship_of_one_team_is_refused():
    with pytest.raises(InvalidPreset, match="must be 0 \\(no championship\\) or 2"):
        build_preset("teams", {"championship_teams": 1})


def test_a_championship_needs_the_teams_standings():
    with pytest.raises(InvalidPreset, match="championship match needs the 'teams' standings"):
        build_preset("wec-doubles", {"championship_teams": 2, "championship_hands": 12})


def test_a_championship_needs_its_number_of_hands():
    with pytest.raises(InvalidPreset, match="'championship_hands'"):
        build_preset("teams", {"championship_hands": None})


def test_a_teams_tournament_without_a_championship_is_accepted():
    assert build_preset("teams", {"championship_teams": 0}).championship_teams == 0


@pytest.mark.parametrize(("key", "overrides", "words"), [
    ("wec-doubles", {"standings": "league"}, "League standings need the league schedule"),
    ("wec-doubles", {"standings": "progressive"}, "Progressive standings rank single players"),
    ("wec-singles", {"standings": "teams"}, "Teams standings rank fixed teams"),
    ("league", {"standings": "wec"}, "use 'league' standings"),
    ("teams", {"rounds": None}, "how many rounds the event has"),
    ("teams", {"games_per_match": 3}, "only supported in a league"),
    ("league", {"offences_to_flag": 4}, "'offences_to_flag' cannot be larger"),
])
def test_parameters_that_no_event_could_run_with_are_refused(key, overrides, words):
    with pytest.raises(InvalidPreset, match=words):
        build_preset(key, overrides)


def test_a_league_may_run_an_open_number_of_weeks():
    assert get_preset("league").rounds is None
    assert build_preset("league", {"rounds": 12}).rounds == 12


@pytest.mark.parametrize("places", [
    [],
    "12:2",
    {"12": 2},
    [3],
    [[1]],
    [[1, 1, 1]],
    [[0, 1]],
    [[1, -1]],
    [[1, 101]],
    [[1, "2"]],
    [[1, 2.0]],
    [[1, True]],
    [[12, 2], [1, 1]],
    [[1, 1], [1, 2]],
])
def test_prize_places_of_the_wrong_shape_are_refused_with_an_example(places):
    with pytest.raises(InvalidPreset, match="e.g. \\[\\[1, 1\\], \\[12, 2\\], \\[24, 3\\]\\]"):
        build_preset("progressive", {"prize_places": places})


# --- rebuilding a stored event's format --------------------------------------------------


def test_a_custom_format_rebuilds_from_its_stored_parameters():
    custom = build_preset("league", {"target_points": 11, "prize_places": [[1, 1], [8, 2]],
                                     "playoff_games_per_match": 5})
    stored = json.loads(json.dumps(custom.parameters()))
    assert preset_from_parameters("league", stored) == custom


@pytest.mark.parametrize("key", list(PRESETS))
def test_a_preset_rebuilds_from_its_own_parameters_unchanged(key):
    assert preset_from_parameters(key, PRESETS[key].parameters()) is PRESETS[key]


def test_stored_parameters_the_engine_no_longer_knows_are_ignored_on_rebuild():
    stored = {**PRESETS["teams"].parameters(), "coffee_breaks": 2, "key": "other"}
    assert preset_from_parameters("teams", stored) is PRESETS["teams"]


def test_a_stored_format_with_an_unknown_preset_key_is_refused():
    with pytest.raises(InvalidPreset, match="no preset called 'euchre-cup'"):
        preset_from_parameters("euchre-cup", {})


NUMBER_PARAMETERS = [name for name, spec in PARAMETERS.items() if spec.type == "int"]
ODD_VALUES = st.one_of(
    st.integers(-5, 105), st.none(), st.booleans(), st.text(max_size=3),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(list(PRESETS)), name=st.sampled_from(NUMBER_PARAMETERS),
       value=ODD_VALUES)
def test_any_single_override_builds_a_format_that_round_trips_or_is_refused_in_words(
        key, name, value):
    try:
        custom = build_preset(key, {name: value})
    except InvalidPreset as refused:
        assert refused.message
        return
    assert isinstance(custom, Preset)
    assert getattr(custom, name) == value
    assert preset_from_parameters(key, custom.parameters()) == custom


def test_a_custom_formats_summary_says_what_was_changed_from_the_preset():
    custom = build_preset("progressive", {"rounds": 4, "ghost_minimum": 6})
    assert custom.summary.endswith("Changed for this event: rounds 4 (the format has 5); "
                                   "ghost minimum 6 (the format has 7).")
    assert build_preset("progressive", {"rounds": 5}).summary == PRESETS["progressive"].summary


def test_every_choice_has_words_and_every_only_for_names_a_movement():
    from api.rules.presets import CHOICE_WORDS, MOVEMENTS, PARAMETERS

    for name, spec in PARAMETERS.items():
        assert set(spec.only_for) <= set(MOVEMENTS), name
        if spec.choices:
            assert set(CHOICE_WORDS[name]) == set(spec.choices), name
        if spec.none_means:
            assert spec.nullable, name


def test_each_preset_leaves_the_parameters_its_movement_does_not_use_at_their_defaults():
    from api.rules.presets import PARAMETERS, Preset

    defaults = {f.name: f.default for f in fields(Preset)
                if f.name in PARAMETERS and f.default is not MISSING}
    for preset in PRESETS.values():
        for name, spec in PARAMETERS.items():
            if spec.only_for and preset.movement not in spec.only_for and name in defaults:
                assert getattr(preset, name) == defaults[name], (preset.key, name)
