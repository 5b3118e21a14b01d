"""Examples of the public read API's answers, shown in the OpenAPI document (docs/api.md,
"The public read API"). Each is checked against its documented schema by
tests/api/test_public_api_contract.py, so an example cannot drift from what the API answers."""

from __future__ import annotations

LEADERBOARD = {'event_id': 1,
 'event_name': 'January',
 'revision': 16,
 'finished': False,
 'preset': 'progressive',
 'entry': 'individual',
 'standings_kind': 'progressive',
 'rounds_played': 0,
 'rounds_total': 5,
 'current_round': {'id': 1,
                   'number': 1,
                   'label': 'Round 1',
                   'status': 'playing',
                   'stage': 'regular',
                   'clock': {'minutes': 25,
                             'started_at': '2027-01-08T18:02:41.108854+00:00',
                             'ends_at': '2027-01-08T18:27:41.108854+00:00',
                             'seconds_left': 1498}},
 'rows': [{'place': 1,
           'entrant_id': 1,
           'name': 'Ann Baker',
           'members': [],
           'total': 3,
           'games_won': 0,
           'games_played': 0,
           'rounds': {'1': 3},
           'shared': True,
           'prize': True,
           'movement': None,
           'withdrawn': False,
           'removed': False,
           'stats': {},
           'division': None,
           'division_place': None,
           'disqualified': None,
           'payout': None,
           'waiting': {'hands': 2,
                       'mismatch': False,
                       'changes': 0,
                       'words': '2 hands waiting to be agreed',
                       'tables': [1]},
           'profile': '/c/loner-seekers/people/1'},
          {'place': 1,
           'entrant_id': 4,
           'name': 'Cy Young',
           'members': [],
           'total': 3,
           'games_won': 0,
           'games_played': 0,
           'rounds': {'1': 3},
           'shared': True,
           'prize': True,
           'movement': None,
           'withdrawn': False,
           'removed': False,
           'stats': {},
           'division': None,
           'division_place': None,
           'disqualified': None,
           'payout': None,
           'waiting': {'hands': 2,
                       'mismatch': False,
                       'changes': 0,
                       'words': '2 hands waiting to be agreed',
                       'tables': [1]},
           'profile': '/c/loner-seekers/people/4'}],
 'ties': [{'place': 1,
           'entrants': [{'id': 1, 'name': 'Ann Baker'}, {'id': 4, 'name': 'Cy Young'}],
           'affects_prizes': True},
          {'place': 5,
           'entrants': [{'id': 2, 'name': 'Will'}, {'id': 3, 'name': 'Will Smith'}],
           'affects_prizes': False}],
 'recorded_order': [],
 'waiting': [{'game_id': 1,
              'round': 1,
              'table': 1,
              'game': 1,
              'hands': 2,
              'mismatch': False,
              'changes': 0,
              'words': '2 hands waiting to be agreed',
              'entrants': [1, 4, 2, 3]}]}

SERIES_LIST = [{'id': 1,
  'club_id': 1,
  'name': 'Winter series',
  'scoring': {'method': 'total'},
  'best_of': None,
  'min_events': None,
  'event_ids': [1]}]

SERIES = {'id': 1,
 'club_id': 1,
 'name': 'Winter series',
 'scoring': {'method': 'total'},
 'best_of': None,
 'min_events': None,
 'event_ids': [1],
 'events': [{'id': 1,
             'name': 'January',
             'code': 'K7Q2MX',
             'status': 'open',
             'date': '2027-01-08'}],
 'rows': [{'place': 1,
           'person_id': 1,
           'name': 'Ann Baker',
           'private': False,
           'events_played': 1,
           'counted': 1,
           'total': 3.0,
           'ranked': True,
           'results': [{'event_id': 1,
                        'place': 1,
                        'event_total': 3,
                        'points': 3.0,
                        'counted': True}]},
          {'place': 1,
           'person_id': 4,
           'name': 'Cy Young',
           'private': False,
           'events_played': 1,
           'counted': 1,
           'total': 3.0,
           'ranked': True,
           'results': [{'event_id': 1,
                        'place': 1,
                        'event_total': 3,
                        'points': 3.0,
                        'counted': True}]}],
 'total_rows': 8,
 'offset': 0}

PEOPLE = [{'id': 1, 'name': 'Ann Baker', 'private': False, 'events': 1, 'erased': False},
 {'id': 4, 'name': 'Cy Young', 'private': False, 'events': 1, 'erased': False}]

PROFILE = {'person_id': 1,
 'club_id': 1,
 'name': 'Ann Baker',
 'private': False,
 'events': [{'event_id': 1,
             'player_id': 1,
             'name': 'January',
             'code': 'K7Q2MX',
             'date': '2027-01-08',
             'preset': 'progressive',
             'status': 'open',
             'place': 1,
             'total': 3,
             'field': 8,
             'prize': True,
             'stats': {'hands': 3,
                       'called': 2,
                       'made': 2,
                       'marches': 1,
                       'euchred': 0,
                       'euchres': 0,
                       'loners': 0,
                       'loners_made': 0,
                       'loners_marched': 0,
                       'loners_euchred': 0,
                       'loners_unattributed': 0,
                       'reneges': 0,
                       'points': 3,
                       'make_pct': 100.0,
                       'points_per_hand': 1.0}}],
 'stats': {'hands': 3,
           'called': 2,
           'made': 2,
           'marches': 1,
           'euchred': 0,
           'euchres': 0,
           'loners': 0,
           'loners_made': 0,
           'loners_marched': 0,
           'loners_euchred': 0,
           'loners_unattributed': 0,
           'reneges': 0,
           'points': 3,
           'make_pct': 100.0,
           'points_per_hand': 1.0},
 'hands_counted': 3,
 'best_partner': None,
 'best_partner_min_hands': 16}

CLUB = {'id': 1,
 'name': 'Loner Seekers',
 'slug': 'loner-seekers',
 'people_private_by_default': False,
 'indexable': False,
 'created_at': '2027-01-08T18:02:39.812498+00:00',
 'events': [{'id': 1,
             'name': 'January',
             'code': 'K7Q2MX',
             'preset': 'progressive',
             'status': 'open',
             'created_at': '2027-01-08T18:02:39.999416+00:00',
             'date': '2027-01-08',
             'archived': False}],
 'series': [{'id': 1,
             'club_id': 1,
             'name': 'Winter series',
             'scoring': {'method': 'total'},
             'best_of': None,
             'min_events': None,
             'event_ids': [1]}],
 'people': [{'id': 1, 'name': 'Ann Baker', 'private': False, 'events': 1, 'erased': False},
            {'id': 4, 'name': 'Cy Young', 'private': False, 'events': 1, 'erased': False}]}

CALENDAR = {'event_id': 1,
 'private': False,
 'ics': 'https://euchre.example.org/api/events/1/calendar.ics',
 'webcal': 'webcal://euchre.example.org/api/events/1/calendar.ics'}

# A team's feed (GET /api/events/{event_id}/teams/{team_id}/calendar.ics), its time zone's
# VTIMEZONE cut to the year shown.
ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Euchre scorekeeper//Calendar feeds//EN
NAME:North (Tuesday league)
X-WR-CALNAME:North (Tuesday league)
UID:team-K7Q2MX-3@euchre-scorekeeper
REFRESH-INTERVAL;VALUE=DURATION:PT6H
X-PUBLISHED-TTL:PT6H
BEGIN:VTIMEZONE
TZID:America/Toronto
BEGIN:STANDARD
DTSTART:20261101T020000
RDATE:20271107T020000
TZNAME:EST
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:20270314T030000
TZNAME:EDT
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
SUMMARY:Week 2: North v South
DTSTART;TZID=America/Toronto:20270119T190000
DTEND;TZID=America/Toronto:20270119T220000
DTSTAMP:20270110T151200Z
UID:match-K7Q2MX-14@euchre-scorekeeper
SEQUENCE:1
CREATED:20261201T180000Z
DESCRIPTION:Tuesday league\\, Week 2: South (home) v North (away)\\, table 1.
 \\nMoved: Snow.
LAST-MODIFIED:20270110T151200Z
LOCATION:Table 1
STATUS:CONFIRMED
TRANSP:OPAQUE
END:VEVENT
END:VCALENDAR
""".replace("\n", "\r\n")  # as a feed is sent: CRLF line ends (RFC 5545 3.1)

# GET /api/clubs/{club_id}/ratings?limit=3: the first page of three rows of a club of seven
# rated people (without the club key: a private person is left out and the places close up).
RATINGS = {'rows': [{'place': 1,
           'person_id': 1,
           'name': 'Ann Baker',
           'rating': 3.53,
           'mu': 27.587,
           'sigma': 8.018,
           'games': 2,
           'wins': 2},
          {'place': 2,
           'person_id': 3,
           'name': 'Former player 1',
           'rating': 1.95,
           'mu': 25.828,
           'sigma': 7.96,
           'games': 2,
           'wins': 1},
          {'place': 3,
           'person_id': 4,
           'name': 'Cy Young',
           'rating': 1.44,
           'mu': 25.087,
           'sigma': 7.884,
           'games': 2,
           'wins': 1}],
 'total_rows': 7,
 'offset': 0}

# The same club's whole table (GET /api/clubs/{club_id}/ratings.csv). As every CSV the app
# sends, it starts with a byte order mark (for spreadsheets), left out here.
RATINGS_CSV = """place,name,rating,sigma,mu,games,wins
1,Ann Baker,3.53,8.018,27.587,2,2
2,Former player 1,1.95,7.960,25.828,2,1
3,Cy Young,1.44,7.884,25.087,2,1
4,Hal Ito,1.26,7.884,24.913,2,1
5,Gus Hill,0.29,7.960,24.172,2,1
6,Fay Moss,-1.64,8.018,22.413,2,0
7,Eve Park,-2.08,7.941,21.740,2,0
""".replace("\n", "\r\n")

RATING = {'person_id': 1,
 'name': 'Ann Baker',
 'private': False,
 'rated': True,
 'rating': 3.53,
 'mu': 27.587,
 'sigma': 8.018,
 'games': 2,
 'wins': 2,
 'nights': [{'event_id': 1,
             'code': 'K7Q2MX',
             'name': 'January',
             'date': '2027-01-08',
             'games': 1,
             'wins': 1,
             'before': 0.0,
             'rating': 1.76,
             'mu': 26.309,
             'sigma': 8.182},
            {'event_id': 2,
             'code': 'P4WD9C',
             'name': 'February pairs',
             'date': '2027-02-05',
             'games': 1,
             'wins': 1,
             'before': 1.76,
             'rating': 3.53,
             'mu': 27.587,
             'sigma': 8.018}]}
