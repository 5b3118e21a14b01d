"""The night's story (issue 30): a finished night's recap told from its hands, and the link
to the club's ratings that the recap's rating jump and a balanced first round read."""


def connect() -> None:
    """Answer the ratings a balanced first round asks for (rounds sits below the ratings and
    imports nothing of them). Called by create_app."""
    from ..rounds.balanced import RATINGS_WANTED
    from .ratings_link import give_ratings

    RATINGS_WANTED.listen(give_ratings)
