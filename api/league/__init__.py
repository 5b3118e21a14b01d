"""The league: its season, nights, forfeits, playoffs, captains and linked teams."""
