"""The league: its season, nights, forfeits, playoffs, captains and linked teams."""


def connect() -> None:
    """Tell rounds what the league adds, through its hooks (rounds sits below the league and
    imports nothing of it): the planner of a league's movement, and, when a scheduled week
    starts, the forfeits recorded before it and those of teams removed from the league.
    Called by create_app."""
    from ..rounds import rounds
    from .forfeits import apply_advance_forfeits, forfeit_removed_teams
    from .playoffs import plan_league_round

    rounds.PLANNERS["league-schedule"] = plan_league_round
    rounds.SCHEDULED_ROUND_STARTS.listen(apply_advance_forfeits)
    rounds.SCHEDULED_ROUND_STARTS.listen(forfeit_removed_teams)
