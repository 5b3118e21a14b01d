"""Calendar feeds (RFC 5545): a league team's nights, a club's nights, an event's rounds;
public links, and a secret link per team where a league keeps its calendars private."""
