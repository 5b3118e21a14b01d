"""The league: its season, nights, forfeits, playoffs, captains and linked teams."""


def connect() -> None:
    """Tell rounds what the league adds, through its hooks (rounds sits below the league and
    imports nothing of it): the planner of a league's movement, and the forfeits of withdrawn
    teams when a scheduled week starts. Called by create_app."""
    from ..rounds import rounds
    from .forfeits import forfeit_removed_teams
    from .playoffs import plan_league_round

    rounds.PLANNERS["league-schedule"] = plan_league_round
    rounds.SCHEDULED_ROUND_STARTS.listen(forfeit_removed_teams)
